"""The numbers `snapsim play --hints` shows a seat, computed from that seat's observation only
(its readable dict and its observation tensor): never a hidden card, the deck order or the
game's random streams (the dice to come).

A game's own exact numbers come from its package (GameSpec.hints; Snapshot's: its exact
advisor on the seat's situation), with its whole decisions (Snapshot's best preparations)
rated by win chance beside the moves. Every game: the legal moves ranked by the seat's
estimated win chance (snapsim.play.wins: determinized rollouts, each with a 95% interval and
its expected points at once), then one recommendation: the move to play, and where the
built-in policy and the exact odds disagree with it.
"""

from __future__ import annotations

import time

import pandas as pd

from ..protocol import GameState
from ..sim.registry import get_game
from .wins import Budget, check_seat, rate, screen_moves


def exact(game: GameState, name: str, *args):
    """The game's own exact part `name` (GameSpec.hints: WHOLES, or lines, numbers, wholes
    or exact_choice called on the game and `args`), or None when it has none."""
    found = getattr(get_game(game.NAME).hints, name, None)
    return found(game, *args) if callable(found) else found


def rated_moves(game: GameState, seat: int, budget: Budget, seed: int = 0, choices=None):
    """(the moves' `wins.move_chances` table, the game's whole decisions' table with their
    exact `value`, lettered a, b, ... in `label`), rated by the same rollouts in one budget:
    the same worlds and chance for every move and whole decision."""
    start = time.perf_counter()
    moves, texts = screen_moves(game, choices)
    whole = exact(game, "wholes", seat) or []
    table = rate(game, seat, moves + [w[0] for w in whole], texts + [w[1] for w in whole],
                 budget.after(time.perf_counter() - start), seed)
    n = len(moves)
    label = {n + i + 1: f"{chr(97 + i)})" for i in range(len(whole))}
    label.update({m: f"{m}." for m in range(1, n + 1)})
    table["same_as"] = [label.get(m, "") for m in table.same_as]
    mine = table[table.move <= n].reset_index(drop=True)
    mine["rank"] = range(1, len(mine) + 1)
    rated = table[table.move > n].reset_index(drop=True)
    rated["value"] = [whole[m - n - 1][2] for m in rated.move]
    rated["label"] = [label[m] for m in rated.move]
    return mine, rated


def whole_lines(game: GameState, rated: pd.DataFrame) -> list[str]:
    """The game's whole decisions (`rated_moves`) as lines under its heading: win chance,
    exact value, the decision, the move that starts it."""
    if rated.empty:
        return []
    lines = [f"  {exact(game, 'WHOLES')}"]
    for row in rated.itertuples():
        same = f"  (same position as after {row.same_as})" if row.same_as else ""
        lines.append(f"  {row.label:>4} win {100 * row.win_chance:5.1f}% "
                     f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]  value "
                     f"{row.value:.2f}  {row.text}{same}")
    return lines


def chance_lines(table, budget: Budget) -> list[str]:
    """The ranked moves of `wins.move_chances` as lines: number, win chance and interval,
    expected points now, the move (and its rollouts where moves had different numbers of
    them; a better-ranked move reaching the same position in every rollout)."""
    counts = set(table.rollouts.tolist())
    spent = "" if budget.rollouts is not None else f" in {budget.seconds:g} s"
    each = f"{counts.pop():,} rollouts each" if len(counts) == 1 else "rollouts per move in ()"
    how = ("exact, from the dice odds, with the chance of none where there is a chance"
           if table.points_exact.all() else "the mean over the rollouts")
    lines = [f"  your moves by estimated win chance ({each}{spent}; 95% "
             f"interval; expected points scored at once: {how}):"]
    for row in table.itertuples():
        own = "" if not counts else f" ({row.rollouts:,})"
        same = f"  (same position after either this or {row.same_as})" if row.same_as \
            else ""
        none = f" (P(0) {row.p_none:.2f})" if 0 < row.p_none < 1 else ""
        lines.append(f"  {row.move:>3}. win {100 * row.win_chance:5.1f}% "
                     f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]{own}  "
                     f"{row.points:+.2f} now{none}  {row.text}{same}")
    return lines


def recommendation(game: GameState, seat: int, table: pd.DataFrame,
                   rated: pd.DataFrame | None = None) -> list[str]:
    """One move to play and why, and where the other advisers disagree: the highest
    estimated win chance is the objective (it counts the whole game); a game's exact odds
    are this turn's only; the built-in greedy policy is the baseline player. `table`:
    `move_chances` (numbered as the screen); `rated`: the game's whole decisions
    (`rated_moves`)."""
    best = table.iloc[0]
    by_action = {int(r.action): r for r in table.itertuples()}
    lines = [f"  recommended: {best.move}. {best.text} (the highest estimated win chance, "
             f"{100 * best.win_chance:.1f}%: winning is the objective)"]
    if len(table) > 1 and table.ci_low.iloc[0] <= table.ci_high.iloc[1]:
        lines.append(f"    {table.move.iloc[1]}. is within the noise of it "
                     f"({100 * table.win_chance.iloc[1]:.1f}%): either is as good as these "
                     "rollouts can tell")
    others = [(f"{game.policies[seat].name} (the baseline player)", "agrees", "would play",
               int(game.policy_action()))]
    favoured = exact(game, "exact_choice", seat, pd.DataFrame() if rated is None else rated)
    if favoured is not None:
        others.append(("the exact odds (this turn only)", "agree", "favour", favoured))
    for who, agree, differ, action in others:
        row = by_action.get(action)
        if row is None or row.move == best.move:
            lines.append(f"    {who} {agree}")
        else:
            lines.append(f"    {who} {differ} {row.move}. {row.text} "
                         f"({100 * row.win_chance:.1f}% by the rollouts)")
    return lines


def hints(game: GameState, seat: int, budget: Budget | None = None, seed: int = 0,
          choices=None) -> str:
    """The hint lines for `seat` (the seat to move) now: the game's exact numbers, its whole
    decisions by win chance, the legal moves (or a play screen's `choices`,
    numbered as there) ranked by win chance and one recommendation (`recommendation`)."""
    budget = budget or Budget()
    seat = check_seat(game, seat)
    start = time.perf_counter()
    lines = exact(game, "lines", seat) or []
    table, rated = rated_moves(game, seat, budget.after(time.perf_counter() - start), seed,
                               choices)
    return "\n".join(["hints:", *lines, *whole_lines(game, rated), *chance_lines(table, budget),
                      *recommendation(game, seat, table, rated)])
