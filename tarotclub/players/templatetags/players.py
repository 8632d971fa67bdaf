from django import template

from tarotclub.players.links import is_member, player_name

register = template.Library()


@register.simple_tag(takes_context=True)
def player(context, p, label=None):
    """{% player p %}: the player's label (or `label`), a link to their page for a member."""
    user = context.get("user")
    text = label if label is not None else getattr(p, "label", None) or p.short_name
    return player_name(p.pk, text, link=is_member(user))
