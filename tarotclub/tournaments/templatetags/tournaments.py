from django import template

from tarotclub.tournaments.presenters import unbroken

register = template.Library()


@register.filter
def name(value):
    """A player's name that never breaks at a hyphen (`presenters.unbroken`)."""
    return unbroken(value)
