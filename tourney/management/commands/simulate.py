"""Simulate a whole tournament through the real services and database (issue 11).

    python manage.py simulate --entries 10000 --seats 10 --seed 1 [--json]

Registration with late entries and re-entries, the seat draw, levels advanced by the clock in
fast-forward (a virtual `now` handed to the services), eliminations drawn from the stacks the
simulation keeps (short stacks bust more often; now and then two players in one hand, sometimes
with equal stacks), balancing, table breaks, redraws, color-ups with chip races at the breaks,
payouts, down to a winner. Every invariant is checked along the way and at the end.
"""

from __future__ import annotations

import gc
import json
import math
import random
import sys
import time
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from tables import services as table_services
from tables.models import Move, Seat, Table, TableCount
from tourney import selectors, services
from tourney.engine import clock as clock_engine
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Entry, Tournament
from tourney.selectors import clock as clock_reads
from tourney.selectors import money as money_reads
from tourney.selectors.bounties import bounty_totals
from tourney.services import colorup, maintenance


class Invariant(AssertionError):
    pass


class _Timed:
    """``with sim.timed(phase):`` adds the block's seconds to that phase (one small object per
    use: this runs a few times per hand)."""

    __slots__ = ("seconds", "phase", "t0")

    def __init__(self, seconds: dict[str, float], phase: str) -> None:
        self.seconds, self.phase = seconds, phase

    def __enter__(self) -> None:
        self.t0 = time.perf_counter()

    def __exit__(self, *exc) -> None:
        self.seconds[self.phase] += time.perf_counter() - self.t0


class Simulation:
    def __init__(
        self,
        *,
        entries: int,
        seats: int,
        seed: int,
        reentry_rate: float,
        out=sys.stderr,
        progress: bool = True,
        bounty: str = "none",
    ):
        self.n = entries
        self.seats = seats
        self.rng = random.Random(seed)
        self.seed = seed
        self.reentry_rate = reentry_rate
        self.bounty = bounty  # RULES 9: none, fixed, progressive (5,000 a head)
        self.out = out
        self.progress = progress
        self.stacks: dict[int, int] = {}
        self.unit = 25  # the smallest chip in play
        self.where: dict[int, int] = {}  # entry -> table number
        self.at: dict[int, set[int]] = defaultdict(set)  # table number -> entries
        self.move_mark = 0  # the last Move this simulation has followed
        self.phase_s: dict[str, float] = defaultdict(float)
        self.counts: Counter = Counter()
        self.checks: Counter = Counter()
        self.user = get_user_model().objects.get_or_create(username="simulator")[0]

    # ---------------------------------------------------------------- helpers
    def timed(self, phase: str) -> _Timed:
        return _Timed(self.phase_s, phase)

    def bar(self, done: int, total: int, label: str) -> None:
        if not self.progress:
            return
        width = 40
        filled = int(width * done / max(total, 1))
        self.out.write(f"\r{label:<14} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            self.out.write("\n")
        self.out.flush()

    def register(self) -> Entry:
        e = services.entry_register(
            tournament_id=self.t.pk,
            name=f"Player {self.counts['players'] + 1:05d}",
            actor=self.user,
        )
        self.counts["players"] += 1
        self.counts["entries"] += 1
        self.stacks[e.pk] = self.t.starting_stack
        return e

    def refresh_where(self) -> None:
        self.where = dict(
            Seat.objects.filter(tournament=self.t).values_list("entry_id", "table__number")
        )
        self.at = defaultdict(set)
        for e, tb in self.where.items():
            self.at[tb].add(e)
        last = Move.objects.filter(tournament=self.t).order_by("-pk").values_list("pk", flat=True)
        self.move_mark = last.first() or 0

    def sit(self, entry_id: int, table: int) -> None:
        self.leave(entry_id)
        self.where[entry_id] = table
        self.at[table].add(entry_id)

    def leave(self, entry_id: int) -> None:
        table = self.where.pop(entry_id, None)
        if table is not None:
            self.at[table].discard(entry_id)
            if not self.at[table]:
                del self.at[table]

    # ---------------------------------------------------------------- the day
    def options(self) -> dict[str, Any]:
        bounty = 5000 if self.bounty != "none" else 0  # RULES 9.1: 50.00 a head
        return {
            "late_reg_until": 8,
            "reentries_allowed": 1,
            "rounding_unit": 100,
            "bounty_kind": self.bounty,
            "bounty": bounty,
        }

    def run(self) -> dict[str, Any]:
        t_all = time.perf_counter()
        with self.timed("setup"):
            levels = structure_engine.items_to_data(
                structure_engine.preset("regular", starting_stack=10000)
            )
            initial = int(self.n * 0.8)
            tables = math.ceil(initial / self.seats)
            self.t = services.tournament_create(
                actor=self.user,
                name=f"Simulation {self.n}",
                seats_per_table=self.seats,
                tables=tables,
                starting_stack=10000,
                buy_in=10000,
                fee=1000,
                seed=self.seed,
                levels=levels,
                options=self.options(),
            )
            self.items = clock_reads.structure_items(self.t)
        with self.timed("registration"):
            for i in range(initial):
                self.register()
                self.bar(i + 1, initial, "registration")
                if (i + 1) % 1000 == 0:
                    self.phase_s["registration"] -= self.upkeep_timed()
        self.now = timezone.now()
        with self.timed("clock"):
            services.clock_action(
                tournament_id=self.t.pk, action="start", actor=self.user, now=self.now
            )
        self.refresh_where()
        self.check_all("after the draw")
        # Virtual time per bust: the field plays down over ~90 % of the structure.
        total_ms = sum(i.seconds for i in self.items) * 1000
        step = timedelta(milliseconds=int(total_ms * 0.85 / (self.n * 1.1)))
        raced: set[int] = set()
        last_index = index = 0
        due = None  # when the current level ends: the clock's ETA task fires then (issue 4)
        while True:
            left = len(self.where)
            if left <= 1:
                break
            self.now += step
            if due is None or self.now >= due:
                with self.timed("clock"):
                    services.clock_announce(tournament_id=self.t.pk, now=self.now)
                    self.t.refresh_from_db()
                    state = clock_engine.state(self.items, clock_reads.anchor_of(self.t), self.now)
                    index, due = state.index, state.ends_at
                    self.counts["clock_announcements"] += 1
            if index != last_index:
                last_index = index
                item = self.items[index]
                if item.kind == "break" and item.color_up and index not in raced:
                    raced.add(index)
                    with self.timed("color-up"):
                        self.color_up(item.color_up)
            with self.timed("late entries"):
                self.late_entries()
            with self.timed("eliminations"):
                self.hand()
            self.upkeep()
            busted = self.counts["busts"]
            if busted % 250 == 0:
                with self.timed("checks"):
                    self.check_all(f"after {busted} busts")
            self.bar(self.counts["entries"] - len(self.where) + 1, self.counts["entries"], "play")
        with self.timed("checks"):
            self.check_all("at the end")
            summary = self.final_checks()
        summary["seconds"] = {k: round(v, 2) for k, v in self.phase_s.items()}
        summary["seconds"]["total"] = round(time.perf_counter() - t_all, 2)
        return summary

    def upkeep_timed(self) -> float:
        """``upkeep`` now; returns the seconds it took (inside another phase's timing)."""
        before = self.phase_s["upkeep (vacuum)"]
        self.upkeep(every=1)
        return self.phase_s["upkeep (vacuum)"] - before

    def upkeep(self, every: int = 500) -> None:
        """What the worker's beat does on a server without autovacuum
        (tourney/services/maintenance.py): the hot tables vacuumed, here every ``every`` write
        actions, timed as its own phase."""
        actions = self.counts["entries"] + self.counts["hands"] + self.counts["button_moves"]
        if actions - self.counts["upkeep_at"] >= every:
            self.counts["upkeep_at"] = actions
            with self.timed("upkeep (vacuum)"):
                if maintenance.vacuum_hot_tables():
                    self.counts["vacuums"] += 1

    def late_entries(self) -> None:
        if not self.t.registration_open:
            return
        if self.counts["entries"] < self.n and self.rng.random() < 0.5:
            self.seated(self.register())
        busted = self.counts.get("last_busted")
        if busted and self.rng.random() < self.reentry_rate and self.counts["entries"] < self.n:
            try:
                e = services.entry_reenter(
                    tournament_id=self.t.pk, entry_id=busted, actor=self.user, now=self.now
                )
            except DomainError:
                return
            self.counts["entries"] += 1
            self.counts["reentries"] += 1
            self.stacks[e.pk] = self.t.starting_stack
            self.seated(e)
        self.counts["last_busted"] = 0

    def seated(self, e: Entry) -> None:
        """A late entry or re-entry, seated as the service says (``seat_move``)."""
        self.stacks.setdefault(e.pk, self.t.starting_stack)
        if e.seat_move is None:
            return  # an alternate: seated later, by an elimination's moves
        table = e.seat_move["to"]["table"]
        if table not in self.at:
            # A table opened and balancing filled it (RULES 3.3): follow the moves made since
            # the last ones this simulation followed (those of the last elimination).
            for pk, entry, to in (
                Move.objects.filter(tournament=self.t, pk__gt=self.move_mark)
                .order_by("pk")
                .values_list("pk", "entry_id", "to_table")
            ):
                if entry in self.where:  # still seated
                    self.sit(entry, to)
                self.move_mark = pk
        self.sit(e.pk, table)

    def hand(self) -> None:
        """One all-in hand at a random table: one or two players bust, the winner takes
        their chips. Short stacks are likelier to be all in."""
        table = self.rng.choice(sorted(self.at))
        players = sorted(self.at[table])
        if len(players) < 2:
            return
        weights = [1.0 / math.sqrt(self.stacks[e]) for e in players]
        k = 2 if len(players) >= 3 and self.rng.random() < 0.08 else 1
        losers: list[int] = []
        while len(losers) < k:
            pick = self.rng.choices(players, weights)[0]
            if pick not in losers:
                losers.append(pick)
        winner = self.rng.choice([p for p in players if p not in losers])
        # Pots that bust nobody: chips change hands in units of the smallest chip in play.
        for _ in range(3):
            a, b = self.rng.sample(players, 2)
            units = self.stacks[a] // self.unit
            if units > 1:
                amount = self.unit * self.rng.randint(1, max(1, units // 3))
                self.stacks[a] -= amount
                self.stacks[b] += amount
        busts = [(e, self.stacks[e]) for e in losers]
        if len(self.where) - k < 1:
            busts = busts[:1]
        result = services.elimination_record(
            tournament_id=self.t.pk,
            busts=busts,
            winners=[winner] if self.bounty != "none" else None,  # RULES 9.5
            actor=self.user,
        )
        self.counts["busts"] += len(busts)
        self.counts["hands"] += 1
        if len(busts) > 1:
            self.counts["multi_bust_hands"] += 1
            if busts[0][1] == busts[1][1]:
                self.counts["tied_busts"] += 1
        for e, stack in busts:
            self.stacks[winner] += stack
            self.stacks[e] = 0
            self.leave(e)
            self.counts["last_busted"] = e
        for m in result["moves"]:
            self.sit(m["entry"], m["to"]["table"])
            self.counts[f"moves_{m['reason']}"] += 1
            self.move_mark = max(self.move_mark, m["id"])
        if any(m["reason"] == "seat" for m in result["moves"]):
            for m in result["moves"]:
                self.stacks.setdefault(m["entry"], self.t.starting_stack)
        # the dealer moves the button on after the hand (RULES 2.1)
        if self.rng.random() < 0.5 and table in self.at:
            with connection.cursor() as cursor:  # where the dealer's button is now
                cursor.execute(
                    f"SELECT button_seat, seats FROM {Table._meta.db_table} "
                    "WHERE tournament_id = %s AND number = %s",
                    [self.t.pk, table],
                )
                row = cursor.fetchone()
            if row and row[0]:
                with self.timed("buttons"):
                    table_services.table_set_button(
                        tournament_id=self.t.pk,
                        table_number=table,
                        seat=row[0] % row[1] + 1,
                        actor=self.user,
                    )
                self.counts["button_moves"] += 1

    def color_up(self, remove: tuple[int, ...]) -> None:
        """RULES 5: each table races its odd chips; stacks follow the outcome."""
        self.refresh_where()
        in_play = sorted(
            ChipDenomination.objects.filter(tournament=self.t, in_play=True).values_list(
                "value", flat=True
            )
        )
        for d in sorted(remove):
            if d not in in_play or d == in_play[-1]:
                continue
            unit = in_play[in_play.index(d) + 1]
            seats = dict(Seat.objects.filter(tournament=self.t).values_list("entry_id", "number"))
            for table, players in sorted((tb, sorted(es)) for tb, es in self.at.items()):
                odd = {seats[e]: (self.stacks[e] % unit) // d for e in players}
                whole = [seats[e] for e in players if self.stacks[e] < unit]
                odd = {s: n for s, n in odd.items() if n}
                if not odd:
                    continue
                res = colorup.colorup_race_table(
                    tournament_id=self.t.pk,
                    table_number=table,
                    remove=d,
                    odd_chips=odd,
                    whole_stack=whole,
                    seed=self.rng.getrandbits(32),
                    actor=self.user,
                    now=self.now,
                )
                won = {p["seat"]: p["won"] + (1 if p["protected"] else 0) for p in res["players"]}
                for e in players:
                    s = seats[e]
                    self.stacks[e] = self.stacks[e] - self.stacks[e] % unit + won.get(s, 0) * unit
                self.counts["races"] += 1
            colorup.colorup_finish(
                tournament_id=self.t.pk,
                denominations=[d],
                force=True,
                actor=self.user,
                now=self.now,
            )
            in_play.remove(d)
            self.unit = in_play[0]
            self.counts["color_ups"] += 1
        self.check_chips("after a color-up")

    # ---------------------------------------------------------------- invariants
    def fail(self, what: str, when: str) -> None:
        raise Invariant(f"{what} ({when})")

    def check_chips(self, when: str) -> None:
        self.t.refresh_from_db()
        total = selectors.total_chips(self.t)
        if sum(self.stacks.values()) != total:
            self.fail(
                f"chips not conserved: players hold {sum(self.stacks.values())}, in play {total}",
                when,
            )
        self.checks["chips conserved"] += 1

    def check_all(self, when: str) -> None:
        t = self.t
        seats = list(
            Seat.objects.filter(tournament=t).values_list(
                "table_id", "number", "entry_id", "table__number"
            )
        )
        if len({(a, b) for a, b, *_ in seats}) != len(seats):
            self.fail("a seat holds two entries", when)
        if {e: tb for *_, e, tb in seats} != self.where:  # the players' own idea of their seats
            self.fail("the simulation lost track of who sits where", when)
        seated = set(
            Entry.objects.filter(tournament=t, status="seated").values_list("pk", flat=True)
        )
        if {e for _, _, e, _ in seats} != seated or len(seats) != len(seated):
            self.fail("seated entries and seats differ", when)
        self.checks["seats unique"] += 1
        rows = sorted(
            Table.objects.filter(tournament=t, status="open")
            .annotate(n=Count("occupied"))
            .values_list("break_rank", "number", "seats", "unavailable_seats", "n"),
            key=lambda r: (r[0], -r[1]),
        )
        sizes = [n for *_, n in rows]
        # The counts the late draw and the elimination's totals read (tables migration 0004).
        buckets = Counter((n, s - len(u or ()) - n) for _, _, s, u, n in rows)
        kept = TableCount.objects.filter(tournament_id=t.pk).exclude(tables=0)
        if {(c.players, c.room): c.tables for c in kept} != dict(buckets):
            self.fail("the open tables' counts differ from the tables", when)
        self.checks["table counts"] += 1
        if sizes:
            tol = t.balance_tolerance or (2 if len(rows) > 6 else 1)
            if max(sizes) - min(sizes) > tol:
                self.fail(f"tables out of tolerance: {min(sizes)}..{max(sizes)}", when)
            self.checks["tables within tolerance"] += 1
            # RULES 3.4: the next table in the order breaks once its players fit elsewhere
            cap = [s - len(u or ()) for _, _, s, u, _ in rows]
            if len(rows) > 1 and sum(sizes) <= sum(cap) - cap[0]:
                self.fail("the next table to break could have broken (fewest tables)", when)
            self.checks["fewest tables"] += 1
        self.check_chips(when)
        self.check_bounties(when)

    def check_bounties(self, when: str, *, end: bool = False) -> None:
        """RULES 9.1: every bounty part paid is won or still on a head (all won at the end)."""
        if self.bounty == "none":
            return
        money = bounty_totals(self.t)
        if money["collected"] != money["paid"] + money["on_heads"] or money["collected"] < 1:
            self.fail(f"bounty money not conserved: {money}", when)
        if end and money["on_heads"]:
            self.fail(f"bounties left on heads at the end: {money}", when)
        self.checks["bounty money conserved"] += 1

    def final_checks(self) -> dict[str, Any]:
        t = self.t
        t.refresh_from_db()
        rows = list(
            Entry.objects.filter(tournament=t).values_list("place", "place_to", "prize", "status")
        )
        n = len(rows)
        covered = Counter()
        for place, place_to, _, _ in rows:
            if place is None:
                self.fail("an entry has no place", "at the end")
            for p in range(place, place_to + 1):
                covered[p] += 1
        groups = Counter((p, pt) for p, pt, _, _ in rows)
        for (p, pt), k in groups.items():
            if k != pt - p + 1:
                self.fail(f"tie {p}-{pt} has {k} players", "at the end")
        if sorted(covered) != list(range(1, n + 1)):
            self.fail("places do not form 1..N", "at the end")
        self.checks["places 1..N"] += 1
        pool = money_reads.pool_of(t)
        prizes = sum(r[2] for r in rows)
        if prizes != pool:
            self.fail(f"prizes {prizes} != pool {pool}", "at the end")
        self.checks["prizes sum to the pool"] += 1
        if t.status != Tournament.Status.FINISHED:
            self.fail("the tournament did not finish", "at the end")
        self.check_bounties("at the end", end=True)
        winner = Entry.objects.get(tournament=t, place=1)
        return {
            "tournament": t.pk,
            "entries": n,
            "players": self.counts["players"],
            "reentries": self.counts["reentries"],
            "hands": self.counts["hands"],
            "multi_bust_hands": self.counts["multi_bust_hands"],
            "tied_busts": self.counts["tied_busts"],
            "moves": {k[6:]: v for k, v in self.counts.items() if k.startswith("moves_")},
            "button_moves": self.counts["button_moves"],
            "color_ups": self.counts["color_ups"],
            "vacuums": self.counts["vacuums"],
            "races": self.counts["races"],
            "tables_opened": Table.objects.filter(tournament=t).count(),
            "prize_pool": pool,
            "bounties_paid": bounty_totals(t)["paid"],
            "paid_places": sum(1 for r in rows if r[2] > 0),
            "winner": {"entry": winner.pk, "name": winner.player.name, "prize": winner.prize},
            "chips_in_play": selectors.total_chips(t),
            "checks": dict(self.checks),
            "invariants_ok": True,
        }


class Command(BaseCommand):
    help = "Simulate a whole tournament through the real services (issue 11)."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, default=300)
        parser.add_argument("--seats", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--reentry-rate", type=float, default=0.3)
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print the summary as JSON"
        )
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument(
            "--bounty",
            choices=("none", "fixed", "progressive"),
            default="none",
            help="a knockout event: 50.00 bounties, the hand's winner takes them (RULES 9)",
        )

    def handle(self, *args, entries, seats, seed, reentry_rate, as_json, quiet, bounty, **opts):
        if not 2 <= entries <= 100_000:
            raise CommandError("--entries must be between 2 and 100,000")
        if not 2 <= seats <= 12:
            raise CommandError("--seats must be between 2 and 12")
        # As the web and worker processes do once loaded (tourney/wsgi.py); undone at the
        # end, so a caller's process (the test suite) collects as before.
        gc.freeze()
        sim = Simulation(
            entries=entries,
            seats=seats,
            seed=seed,
            reentry_rate=reentry_rate,
            progress=not quiet,
            bounty=bounty,
        )
        try:
            summary = sim.run()
        except Invariant as exc:
            summary = {"invariants_ok": False, "failed": str(exc), "checks": dict(sim.checks)}
            self.stdout.write(json.dumps(summary) if as_json else f"INVARIANT BROKEN: {exc}")
            raise CommandError(str(exc)) from None
        finally:
            gc.unfreeze()
        if as_json:
            self.stdout.write(json.dumps(summary, indent=2))
            return
        self.stdout.write(
            f"Simulated {summary['entries']} entries "
            f"({summary['reentries']} re-entries) in {summary['hands']} hands."
        )
        self.stdout.write(
            f"Winner: {summary['winner']['name']} ({summary['winner']['prize'] / 100:,.2f})"
        )
        self.stdout.write(
            "Time per phase (s): " + ", ".join(f"{k} {v}" for k, v in summary["seconds"].items())
        )
        self.stdout.write(
            "Checks passed: " + ", ".join(f"{k} ×{v}" for k, v in summary["checks"].items())
        )
        self.stdout.write(
            f"Moves: {summary['moves']}; color-ups {summary['color_ups']}, races {summary['races']}"
        )
