"""The line-ups a patch must hold for: a fix that balances the game for greedy players and
tilts it for strong ones is no fix, so the search minimises the worst case over every line-up
given and a patch is recommended only when it meets every target under each of them.

A line-up is named as the designer writes it: "greedy" (the game's default policy in every
seat), "strong" (the bundled policy tuned for each player count, as reports use) or any
policy name ("search", a tuned-policy file), played in every seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError
from ...sim.agents import resolve_policy
from ...sim.registry import get_game
from ..lineups import STRONG, strong_policy

DEFAULT = ("greedy", "strong")


@dataclass(frozen=True)
class LineUp:
    """One line-up: `name` as given, and the policy in every seat at each player count."""

    name: str
    policies: tuple[tuple[int, str], ...]  # ((players, policy), ...)

    def policy(self, players: int) -> str:
        return dict(self.policies)[players]

    def seats(self, players: int) -> list[str]:
        """The policy in every one of `players` seats, as the runner takes a line-up."""
        return [self.policy(players)] * players

    def label(self, players: int | None = None) -> str:
        """What plays, in words: "tuned-4p", or for several counts "tuned-3p, tuned-4p"."""
        if players is not None:
            return self.policy(players)
        return ", ".join(dict.fromkeys(p for _, p in self.policies))


def parse_lineups(game: str, names, counts) -> list[LineUp]:
    """The line-ups named in `names` (a list, or "greedy,strong"), each resolved at every
    player count in `counts`; an unknown policy or a strong line-up with no tuned policy
    bundled at a count is one line."""
    spec = get_game(game)
    if isinstance(names, str):
        names = names.split(",")
    names = [str(n).strip() for n in names]
    if not names or any(not n for n in names):
        raise InputError("--lineups: give line-up names separated by commas, e.g. "
                         "greedy,strong")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"--lineups: {twice[0]} is given twice; give each line-up once")
    out = []
    for name in names:
        if name == "greedy":
            chosen = {n: spec.default_policy for n in counts}
        elif name in ("strong", STRONG):
            strong = {n: strong_policy(game, n, STRONG)[0] for n in counts}
            missing = [str(n) for n, p in strong.items() if p is None]
            chosen = {n: p for n, p in strong.items() if p is not None}
            if missing:
                raise InputError(f"--lineups: no strong line-up for {game} at "
                                 f"{', '.join(missing)} players (no tuned policy is "
                                 "bundled); name a policy instead")
        else:
            try:
                resolve_policy(game, name)
            except InputError as exc:
                raise InputError(f"--lineups: {exc}") from None
            chosen = dict.fromkeys(counts, name)
        out.append(LineUp(name, tuple(sorted(chosen.items()))))
    return out
