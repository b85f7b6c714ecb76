"""Bounties (RULES 9): the tournament's bounty settings and mystery envelopes, each entry's
bounty part paid, bounty on its head and bounty money won, and the knockouts.

Adding tournament columns rebuilds the table on SQLite, which drops its triggers: the
``prizes_key`` triggers of migration 0006 are created again afterwards (as in 0007)."""

import importlib

import django.db.models.deletion
from django.db import migrations, models

place_lag = importlib.import_module("tourney.migrations.0007_tournament_place_lag")


class Migration(migrations.Migration):
    dependencies = [
        ("tourney", "0012_idempotent_request"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="bounty",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="entry",
            name="bounty_paid",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="entry",
            name="bounty_won",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bounty",
            field=models.PositiveBigIntegerField(default=0, help_text="Bounty part, smallest unit"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bounty_cash_percent",
            field=models.PositiveSmallIntegerField(default=50),
        ),
        migrations.AddField(
            model_name="tournament",
            name="bounty_kind",
            field=models.CharField(
                choices=[
                    ("none", "No bounties"),
                    ("fixed", "Knockout (fixed bounty)"),
                    ("progressive", "Progressive knockout (PKO)"),
                    ("mystery", "Mystery bounties"),
                ],
                default="none",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="mystery_envelopes",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="tournament",
            name="mystery_from_players",
            field=models.PositiveIntegerField(default=9),
        ),
        migrations.CreateModel(
            name="Knockout",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("hand", models.PositiveBigIntegerField()),
                ("cash", models.PositiveBigIntegerField(default=0)),
                ("to_head", models.PositiveBigIntegerField(default=0)),
                ("envelope", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "busted",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="knocked_out_by",
                        to="tourney.entry",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="knockouts",
                        to="tourney.tournament",
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="knockouts",
                        to="tourney.entry",
                    ),
                ),
            ],
            options={
                "ordering": ["id"],
                "indexes": [models.Index(fields=["tournament", "hand"], name="knockout_by_hand")],
            },
        ),
        migrations.RunPython(place_lag.sqlite_triggers_again, migrations.RunPython.noop),
    ]
