"""The strong line-up: the policy that re-measures a finding (a report's labels, a
comparison's `--strong`, a rebalancing's verification) to see whether it holds under better
play than the greedy heuristic."""

from __future__ import annotations

STRONG = "tuned"  # default strong line-up: the bundled policy tuned for the player count
STRONG_SEARCH_SHARE = 20  # a search line-up in every seat plays 1/20 of the games


def strong_policy(game: str, players: int,
                  choice: str = STRONG) -> tuple[str | None, int, str]:
    """(policy, share of the games it plays, why) of the strong line-up at `players` seats:
    `choice` (a search kind plays 1/STRONG_SEARCH_SHARE of the games), or for "tuned" the
    bundled policy tuned for that count; None when no such policy is bundled."""
    from ..sim.registry import get_game
    from .ladder import SEARCH_KINDS

    if choice != STRONG:
        slow = choice.split(":")[0].strip() in SEARCH_KINDS
        return choice, STRONG_SEARCH_SHARE if slow else 1, "chosen for this run"
    if f"tuned-{players}p" in get_game(game).tuned_names():
        return f"tuned-{players}p", 1, f"the bundled policy tuned for {players} players"
    return None, 1, f"no policy tuned for {players} players is bundled"
