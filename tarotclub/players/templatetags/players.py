from django import template

from tarotclub.players.links import is_member, player_name, player_url

register = template.Library()


@register.simple_tag(takes_context=True)
def player(context, p, label=None):
    """{% player p %}: the player's label (or `label`), a link to their page for a member."""
    user = context.get("user")
    text = label if label is not None else getattr(p, "label", None) or p.short_name
    return player_name(p.pk, text, link=is_member(user))


@register.simple_tag(takes_context=True)
def player_href(context, pk):
    """{% player_href pk as href %}: the address of player `pk`'s page for a member, else ""
    (the page would refuse the reader: no link)."""
    if pk is None or not is_member(context.get("user")):
        return ""
    return player_url(pk)


@register.simple_tag(takes_context=True)
def player_named(context, pk, label):
    """{% player_named pk label %}: `label`, a link to player `pk`'s page for a member (for
    rows that hold a player's pk and name, not the player)."""
    return player_name(pk, label, link=is_member(context.get("user")))
