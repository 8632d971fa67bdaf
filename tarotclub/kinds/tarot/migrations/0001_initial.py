# The deals of French Tarot move from the games app to their kind's package. Their tables
# (games_deal, games_dealline) stay where they are: only Django's picture of them moves.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0002_deals_move_to_tarot'),
        ('players', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Deal',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField()),
                        ('contract', models.CharField(max_length=12)),
                        ('bouts', models.PositiveSmallIntegerField()),
                        ('points_half', models.PositiveSmallIntegerField(help_text="attack's card points × 2")),
                        ('petit_au_bout', models.CharField(blank=True, max_length=8)),
                        ('poignees', models.JSONField(blank=True, default=list)),
                        ('chelem', models.CharField(default='none', max_length=20)),
                        ('won', models.BooleanField(default=False)),
                        ('gap', models.PositiveSmallIntegerField(default=0)),
                        ('version', models.PositiveIntegerField(default=1)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('dealer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                        ('partner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                        ('taker', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='players.player')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='games.game')),
                    ],
                    options={
                        'db_table': 'games_deal',
                        'ordering': ['game', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='DealLine',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('score', models.IntegerField()),
                        ('deal', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='tarot.deal')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='deal_lines', to='players.player')),
                    ],
                    options={
                        'db_table': 'games_dealline',
                        'constraints': [models.UniqueConstraint(fields=('deal', 'player'), name='dealline_unique')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='deal',
                    constraint=models.UniqueConstraint(fields=('game', 'number'), name='deal_number_unique'),
                ),
                migrations.AddConstraint(
                    model_name='deal',
                    constraint=models.CheckConstraint(condition=models.Q(('points_half__lte', 182)), name='deal_points_range'),
                ),
                migrations.AddConstraint(
                    model_name='deal',
                    constraint=models.CheckConstraint(condition=models.Q(('bouts__lte', 3)), name='deal_bouts_range'),
                ),
            ],
            database_operations=[],
        ),
    ]
