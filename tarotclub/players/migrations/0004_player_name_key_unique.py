from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_fill_player_name_keys"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("name_key",), name="player_name_key_unique"),
        ),
    ]
