"""Multi-day events (RULES 10): the event, each day's place in it (day, flight, where a flight
ends, bagged), a Day 2 entry's bag, and chip counts (during play, and the bags).

Adding tournament columns rebuilds the table on SQLite, which drops its triggers: the
``prizes_key`` triggers of migration 0006 are created again afterwards (as in 0007)."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

place_lag = importlib.import_module("tourney.migrations.0007_tournament_place_lag")


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0013_bounties"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="carried_from",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="carried_to",
                to="tourney.entry",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bagged",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="tournament",
            name="day",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="tournament",
            name="end_at_level",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournament",
            name="end_at_players",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tournament",
            name="flight",
            field=models.CharField(blank=True, default="", max_length=8),
        ),
        migrations.CreateModel(
            name="MultiDayEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("slug", models.SlugField(max_length=140, unique=True)),
                (
                    "policy",
                    models.CharField(
                        choices=[
                            ("largest", "Largest stack forward"),
                            ("first", "First stack forward"),
                        ],
                        default="largest",
                        max_length=10,
                    ),
                ),
                ("pays_on_day1", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="multi_day_event",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="days",
                to="tourney.multidayevent",
            ),
        ),
        migrations.CreateModel(
            name="ChipCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("chips", models.PositiveBigIntegerField()),
                ("bag", models.BooleanField(default=False)),
                ("table", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("at", models.DateTimeField()),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="counts",
                        to="tourney.entry",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="counts",
                        to="tourney.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["id"],
                "indexes": [
                    models.Index(fields=["tournament", "entry", "at"], name="count_latest")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("bag", True)),
                        fields=("entry",),
                        name="one_bag_per_entry",
                    )
                ],
            },
        ),
        migrations.RunPython(place_lag.sqlite_triggers_again, migrations.RunPython.noop),
    ]
