"""Clean the stored names and fill their keys.

Names are cleaned as they are from now on (hidden characters out, spaces collapsed). Where two
players' names were already look-alikes (`élodie leroy` beside `Élodie Leroy` on SQLite,
`Claire\u200b Martin` beside `Claire Martin`), both keep their names as they were; the earlier
player (lower pk) gets the name's key, each later one a marked key
(`players.models.look_alike_key`). So the unique key holds, a new look-alike is still refused,
and the roster asks a director to rename the later ones. Nobody is renamed behind the club's
back. A name with nothing visible keeps its text and gets a marked key too.
"""

from django.db import migrations

from tarotclub.core.text import clean_text
from tarotclub.players.models import NAME_MAX, NICKNAME_MAX, look_alike_key, name_key


def fill_keys(apps, schema_editor):
    Player = apps.get_model("players", "Player")
    players = list(Player.objects.order_by("pk"))
    groups: dict[str, list] = {}
    for player in players:
        groups.setdefault(name_key(clean_text(player.name, NAME_MAX)), []).append(player)
    for key, group in groups.items():
        for i, player in enumerate(group):
            if len(group) == 1 and key:
                player.name = clean_text(player.name, NAME_MAX)
                player.name_key = key
            else:  # look-alikes keep their names as they were (the database took them so)
                player.name_key = key if i == 0 and key else look_alike_key(key, player.pk)
            player.nickname = clean_text(player.nickname, NICKNAME_MAX)
            player.nickname_key = name_key(player.nickname)
    for player in players:
        player.save(update_fields=["name", "name_key", "nickname", "nickname_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_player_name_key"),
    ]

    operations = [
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
    ]
