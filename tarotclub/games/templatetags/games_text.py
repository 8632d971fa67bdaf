"""Words on narrow buttons and columns that never break in the middle."""

from django import template

from tarotclub.games.presenters import compact_name, unbroken

register = template.Library()

register.filter("unbroken", unbroken)
register.filter("compact_name", compact_name)
