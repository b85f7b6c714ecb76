"""Players, leagues and points (issue 27): a player's personal fields (for directors and the
desk), their removal (anonymised) and merge; leagues, their seasons' scoring, the season a
tournament counts toward.

Adding a tournament column rebuilds the table on SQLite, which drops its triggers: the
``prizes_key`` triggers of migration 0006 are created again afterwards (as in 0014)."""

import importlib

import django.db.models.deletion
from django.db import migrations, models

import tourney.models

place_lag = importlib.import_module("tourney.migrations.0007_tournament_place_lag")


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0014_multi_day_events"),
    ]

    operations = [
        migrations.CreateModel(
            name="League",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("slug", models.SlugField(max_length=140, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ["name"],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="anonymised_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="email",
            field=models.EmailField(blank=True, default="", max_length=254),
        ),
        migrations.AddField(
            model_name="player",
            name="membership",
            field=models.CharField(blank=True, db_index=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="player",
            name="merged_into",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="merged_from",
                to="tourney.player",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="notes",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="player",
            name="phone",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddField(
            model_name="player",
            name="photo",
            field=models.ImageField(blank=True, default="", upload_to="players/"),
        ),
        migrations.CreateModel(
            name="Season",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("starts_on", models.DateField(blank=True, null=True)),
                ("ends_on", models.DateField(blank=True, null=True)),
                (
                    "scoring",
                    models.CharField(
                        choices=[
                            ("place_table", "Points by place (table)"),
                            ("entrants_minus_place", "Entrants − place + 1"),
                            ("sqrt_buyin", "Square-root formula with buy-in weighting"),
                            ("formula", "A formula of your own"),
                        ],
                        default="place_table",
                        max_length=24,
                    ),
                ),
                ("points_table", models.JSONField(blank=True, default=list)),
                ("formula", models.TextField(blank=True, default="")),
                ("best_n", models.PositiveSmallIntegerField(blank=True, null=True)),
                (
                    "entries",
                    models.CharField(
                        choices=[
                            ("best", "A player's best finish counts once"),
                            ("first", "First entry only"),
                            ("each", "Every entry scores"),
                        ],
                        default="best",
                        max_length=8,
                    ),
                ),
                (
                    "attendance_points",
                    models.DecimalField(decimal_places=2, default=0, max_digits=9),
                ),
                ("share_ties", models.BooleanField(default=True)),
                (
                    "public_token",
                    models.CharField(
                        default=tourney.models.new_display_token, max_length=43, unique=True
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seasons",
                        to="tourney.league",
                    ),
                ),
            ],
            options={
                "ordering": ["league", "-created_at"],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="season",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="tournaments",
                to="tourney.season",
            ),
        ),
        migrations.RunPython(place_lag.sqlite_triggers_again, migrations.RunPython.noop),
    ]
