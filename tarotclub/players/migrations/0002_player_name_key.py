from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["name_key", "pk"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=255),
        ),
        migrations.AddField(
            model_name="player",
            name="nickname_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=255),
        ),
    ]
