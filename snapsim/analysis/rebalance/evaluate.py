"""Playing candidates: every candidate on the same deals as the base game (common random
numbers) under every line-up given, its targets measured, each evaluation kept in a journal
so an interrupted search resumes where it stopped and ends as an uninterrupted one would.

Game i of every candidate is dealt from the same streams (the runner keys them by the game
index), so a candidate's difference from the base game is measured game by game and the luck
both share cancels: candidates are ranked on their differences, not on noise. Each item's
paired standard error against the base is kept with its value: the search's surrogate
weighs an observed effect by it.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...errors import InputError, SnapsimError
from ...sim import cache as run_cache
from ...sim.backends import make_backend
from ...sim.files import parse_json, read_text
from ...sim.registry import get_game
from ..extras import extra_measures
from .edits import Candidate, EditSpace
from .lineups import LineUp
from .targets import Items, Target, items

JOURNAL = "evaluations.jsonl"
JOURNAL_BYTES = 2**30  # a journal line is about a kilobyte per candidate: far below this


@dataclass
class Evaluation:
    """One candidate played on `games` games of the search's deals.

    `values[(line-up, players, target)]` are the target's item values under that line-up,
    `se` the paired standard error of each item's difference from the base game (zeros for
    the base itself), `ratios` each target's value over its tolerance and `ratio` the worst
    of them over every line-up and target (at most 1: every target met under every
    line-up); `invalid` is the validator's line when the game refuses it."""

    cand: Candidate
    games: int
    values: dict = field(default_factory=dict)
    se: dict = field(default_factory=dict)
    ratios: dict = field(default_factory=dict)
    invalid: str | None = None

    @property
    def ratio(self) -> float:
        if self.invalid is not None or not self.ratios:
            return math.inf
        worst = max(self.ratios.values())
        return worst if math.isfinite(worst) else math.inf

    @property
    def violation(self) -> float:
        """How far the worst target is beyond its tolerance, as a share of it (0: met)."""
        return max(0.0, self.ratio - 1.0)

    def to_json(self) -> dict:
        return {"cand": [list(c) for c in self.cand], "games": self.games,
                "values": [[*k, list(map(_float, v))] for k, v in self.values.items()],
                "se": [[*k, list(map(_float, v))] for k, v in self.se.items()],
                "invalid": self.invalid}

    @classmethod
    def from_json(cls, data: dict, targets: list[Target]) -> Evaluation:
        cand = tuple(tuple(c) for c in data["cand"])
        ev = cls(cand, int(data["games"]), invalid=data.get("invalid"))
        by_key = {t.key: t for t in targets}
        for lineup, n, kind, v in data.get("values", []):
            key = (str(lineup), int(n), str(kind))
            ev.values[key] = np.array(v, float)
            ev.ratios[key] = by_key[kind].ratio(ev.values[key], key[1])
        for lineup, n, kind, v in data.get("se", []):
            ev.se[(str(lineup), int(n), str(kind))] = np.array(v, float)
        return ev


def _float(x) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


class Journal:
    """The evaluations of one search, appended one JSON line each and flushed to disk as
    they finish, so a killed search loses at most the line being written (a torn last line
    is ignored and that candidate played again)."""

    def __init__(self, folder: Path | None):
        self.path = None if folder is None else Path(folder) / JOURNAL

    def read(self, targets) -> list[Evaluation]:
        if self.path is None or not (self.path.exists() or self.path.is_symlink()):
            return []
        try:  # a device, pipe or folder is refused unread; a hostile size, bounded
            text = read_text(self.path, JOURNAL_BYTES)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or "not UTF-8 text"
            raise InputError(f"{self.path} is not the search's journal ({why}); remove it or "
                             "choose another --out") from None
        out = []
        for line in text.splitlines():
            try:
                out.append(Evaluation.from_json(parse_json(line), targets))
            except (ValueError, KeyError, TypeError):
                break  # a line torn by a kill: the rest is played again
        return out

    def append(self, evs: list[Evaluation]) -> None:
        if self.path is None or not evs:
            return
        with self.path.open("a") as fh:
            for ev in evs:
                fh.write(json.dumps(ev.to_json()) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


class Evaluator:
    """Plays candidates of an edit space under every line-up on the same deals, through one
    backend (numba threads here, or a process pool / Dask cluster), caching and journaling
    every evaluation."""

    def __init__(self, space: EditSpace, targets: list[Target], games: int, seed: int,
                 lineups: list[LineUp], threads=None, workers=None, scheduler=None,
                 journal=None, bar=None):
        self.space, self.targets, self.games, self.seed = space, targets, games, seed
        self.game = space.game
        self.spec = get_game(self.game)
        self.lineups = lineups
        self.threads, self.workers, self.scheduler = threads, workers, scheduler
        self.journal = journal or Journal(None)
        self.bar = bar
        self.cache: dict = {}
        self.played = 0  # evaluations played by this process (not read from the journal)
        self.base_items: dict = {}
        self._backend = None
        for ev in self.journal.read(targets):
            self.cache[(ev.cand, ev.games)] = ev

    def backend(self):
        if self._backend is None:
            n = self.space.players[0]
            config = self.space.base.config(n)
            self._backend = make_backend(self.game, config, self.lineups[0].seats(n),
                                         self.threads, self.workers, self.scheduler)
        return self._backend

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def base(self) -> Evaluation:
        """The base game on the search's deals (its per-game items kept for the paired
        errors of every candidate)."""
        if not self.base_items:
            ev, = self._play([()], self.games, keep=True)
            if ((), self.games) not in self.cache:
                self.journal.append([ev])
                self.played += 1
                self.cache[((), self.games)] = ev
        return self.cache[((), self.games)]

    def evaluate(self, cands: list[Candidate], games: int | None = None) -> list[Evaluation]:
        """Each candidate's evaluation on the first `games` deals (default: the search's),
        played once: from the cache or the journal when already played."""
        games = games or self.games
        todo = [c for c in dict.fromkeys(cands) if (c, games) not in self.cache]
        if todo:
            evs = self._play(todo, games)
            self.journal.append(evs)
            self.played += len(evs)
            for ev in evs:
                self.cache[(ev.cand, games)] = ev
        return [self.cache[(c, games)] for c in cands]

    def _play(self, cands, games, keep=False) -> list[Evaluation]:
        evs, jobs, where = [], [], []
        for cand in cands:
            try:
                variant = self.space.variant(cand)
            except SnapsimError as exc:
                evs.append(Evaluation(cand, games, invalid=str(exc)))
                continue
            ev = Evaluation(cand, games)
            evs.append(ev)
            for lu in self.lineups:
                for n in self.space.players:
                    config = variant.config(n)
                    jobs.append((config, lu.seats(n)))
                    where.append((ev, lu, n, config))
        tables = run_cache.simulate_many(self.game, jobs, games, self.seed,
                                         backend=self.backend())
        for (ev, lu, n, config), df in zip(where, tables, strict=True):
            cards = None
            if any(t.kind == "cards" for t in self.targets):
                cards = self._card_values(config, lu.seats(n), games)
            for t in self.targets:
                it = items(t, self.game, df, config, cards)
                key = (lu.name, n, t.key)
                if keep:
                    self.base_items[key] = it
                ev.values[key] = it.values
                ev.ratios[key] = t.ratio(it.values, n)
                ev.se[key] = self._paired_se(key, it)
            if self.bar is not None:
                self.bar.update(1)
        return evs

    def _card_values(self, config, seats, games):
        group = self.spec.measures.levers.card_group
        found = extra_measures(self.game, config, seats, games, self.seed, self.threads)
        return [(name, ratio) for name, grp, _, ratio in found if grp == group]

    def _paired_se(self, key, it: Items) -> np.ndarray:
        """Standard error of each item's difference from the base game, game by game."""
        base = self.base_items.get(key)
        if base is None:
            return np.zeros(len(it.names))
        b = base.head(it.num.shape[0])
        diff = it.influence() - b.influence()
        return diff.std(axis=0, ddof=1) / math.sqrt(diff.shape[0])
