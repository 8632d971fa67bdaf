# The deals of French Tarot move to tarotclub.kinds.tarot (see its 0001): the tables stay.

from django.db import migrations, models

import tarotclub.games.models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='DealLine'),
                migrations.DeleteModel(name='Deal'),
            ],
            database_operations=[],
        ),
        migrations.AlterField(
            model_name='game',
            name='kind',
            field=models.CharField(choices=tarotclub.games.models.kind_choices, default='tarot', max_length=12, verbose_name='game'),
        ),
    ]
