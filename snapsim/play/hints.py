"""The numbers `snapsim play --hints` shows a seat, computed from that seat's observation only
(its readable dict and its observation tensor): never a hidden card, the deck order or the
game's random streams (the dice to come).

Snapshot: the exact advisor (snapsim.games.snapshot.advisor) on the seat's situation:
P(spook) of the next draw and the value of drawing against stopping during research; every
preparation ranked by expected prestige with P(photograph) per animal, and the best of them
rated whole by win chance; P(explored) after each further re-roll. Every game: the legal
moves ranked by the seat's estimated win chance (snapsim.play.wins: determinized rollouts,
each with a 95% interval and its expected points at once), then one recommendation: the
move to play, and where the built-in policy and the exact odds disagree with it.
"""

from __future__ import annotations

import time

import pandas as pd

from ..protocol import GameState
from .wins import Budget, check_seat, rate, screen_moves

TOP_PREPARATIONS = 3


# ---------------------------------------------------------------- Snapshot


def situation(game: GameState, seat: int) -> dict:
    """The seat's view as an advisor situation: the table (with sideways marks), its tokens,
    reserve, portfolio and assignment, the discard pile; every other card it has seen."""
    obs, cfg = game.observation(seat), game.config
    table = {h: list(names) for h, names in obs["table"].items() if names}
    others = [name for key in ("portfolios", "reserves")
              for p, names in enumerate(obs[key]) if p != seat for name in names]
    data = {"players": cfg.players, "dice": cfg.dice, "reroll_cost": cfg.reroll_cost,
            "tokens": obs["tokens"][seat], "table": table,
            "sideways": obs["sideways"],
            "reserved": list(obs["reserves"][seat]), "portfolio": list(obs["portfolios"][seat]),
            "discards": list(obs["discards"]), "seen": others}
    if cfg.assignments:
        data["assignment"] = obs["assignment"]["name"]
    return data


# the last position's research advice, (its seat and observation, its game's config, the
# advice): the hint's lines and its pick share it
_RESEARCH: list = []


def research_numbers(game: GameState, seat: int) -> dict:
    """The exact advisor's research advice for the seat's situation (computed once a
    position: the hint's lines and `exact_choice` read the same). The same observation in a
    game of other components or knobs (another config) is advised afresh."""
    from ..games.snapshot.advisor import research_advice

    key = (seat, game.observation_tensor(seat).tobytes())
    if not (_RESEARCH and _RESEARCH[0][0] == key and _RESEARCH[0][1] is game.config):
        _RESEARCH[:] = [(key, game.config, research_advice(
            situation(game, seat), "your seat", components=game.config.components))]
    return _RESEARCH[0][2]


def research_hint(game: GameState, seat: int) -> list[str]:
    r = research_numbers(game, seat)
    cards = (f"{r['unseen_cards']} cards of the discard pile, shuffled into a new deck as the "
             "deck has run out" if r["reshuffled"] else
             f"{r['unseen_cards']} cards you have not seen")
    return [f"  next draw: P(spook) {r['p_spook_next']:.3f}, P(reserved) "
            f"{r['p_reserved_next']:.3f} (P(cannot place) {r['p_cannot_place']:.3f}) over the "
            f"{cards}",
            f"  expected value (prestige, exact one-step lookahead): draw {r['value_draw']:.2f}, "
            f"stop {r['value_stop']:.2f} -> {'draw' if r['draw'] else 'stop'}"]


def preparation_hint(game: GameState, seat: int) -> list[str]:
    from ..games.snapshot.advisor import advise

    table = advise(situation(game, seat), "your seat", top=TOP_PREPARATIONS,
                   components=game.config.components).table
    lines = ["  preparations from the start of this Preparation, best first (value = expected "
             "prestige - token value x tokens lost):"]
    for i, row in table.iterrows():
        lines.append(f"  {i + 1}. value {row.value:.2f}: explore {row.explore_dice}; dice on "
                     f"{row.animals}; place reserved {row.place_reserved}")
        lines.append(f"     P(explore) {row.p_explore}; P(photograph) {row.p_photograph}")
    return lines


def reroll_hint(game: GameState, seat: int) -> list[str]:
    from ..games.snapshot.advisor import rerolls_table

    comp, cost = game.config.components, game.config.reroll_cost
    obs = game.observation(seat)
    if obs["resolving"] is None:
        return []
    habitat = next(h for h in comp.habitats if h.name == obs["resolving"])
    affordable = obs["tokens"][seat] // cost
    if affordable == 0:
        return [f"  {habitat.name} (explore {habitat.explore}): no re-roll affordable from "
                "the supply"]
    t = rerolls_table(habitat.explore, affordable, 0, cost)
    return [f"  {habitat.name} (explore {habitat.explore}): P(explored) after k more "
            "re-rolls from the supply: " + ", ".join(f"{k}: {p:.3f}" for k, p in
                                                      zip(t.further_rerolls, t.p_explored,
                                                          strict=True))]


ALLOCATIONS = 6  # the advisor's best preparations rated whole by win chance


def allocation_steps(game: GameState, plan: dict) -> list[int] | None:
    """The step actions that complete the advisor's `plan` (the reserved cards it places,
    its habitat dice, dice and tokens per card) from what is already placed, each step
    ended; None when the plan does not extend it or the rules do not let it be placed so.
    (The copy it is tried on only checks what is legal: its random streams are blanked, so
    no die of the game is ever rolled there.)"""
    E, st = game.ENGINE, game.state
    want = {(E.A_DIE_HABITAT, h): d - int(st[E.HAB_DICE + h])
            for h, d in enumerate(plan["habitat_dice"])}
    for c, d, t in zip(plan["cards"], plan["dice"], plan["tokens"], strict=True):
        want[E.A_DIE_ANIMAL, c] = d - int(st[E.DICE_ON + c])
        want[E.A_TOKEN, c] = t - int(st[E.TOK_ON + c])
    want.update({(E.A_PLACE_RESERVED, c): 1 for c in plan["place_reserved"]})
    if min(want.values(), default=0) < 0:
        return None
    twin, me, steps = game.clone(), game.current_player, []
    twin.log = None
    twin._rng[:] = 0
    stages = {"prepare: reserved": (E.A_PLACE_RESERVED, E.A_RESERVED_DONE),
              "prepare: dice": (E.A_DIE_HABITAT, E.A_DIE_ANIMAL, E.A_DICE_DONE),
              "prepare: tokens": (E.A_TOKEN, E.A_TOKENS_DONE)}
    while not twin.is_terminal and twin.current_player == me and twin.phase in stages:
        *kinds, done = stages[twin.phase]
        left = [k for k in want if want[k] > 0 and k[0] in kinds]
        code = int(E.act(*left[0]) if left else E.act(done))
        if code not in twin.legal_action_ids():
            return None
        steps.append(code)
        if left:
            want[left[0]] -= 1
        twin.apply(code)
    return steps if not any(want.values()) else None


def allocations(game: GameState, seat: int, top: int = ALLOCATIONS) -> list[tuple[list[int], str,
                                                                               float]]:
    """Snapshot's preparation as whole decisions: the advisor's best allocations (reserved
    cards placed, dice and tokens; the `top` by value) that extend what the seat placed this
    Preparation, as (their step actions, their words, their exact value this turn); none
    outside the Preparation's steps."""
    if game.NAME != "snapshot" or not game.phase.startswith("prepare"):
        return []
    from ..games.snapshot.advisor import advise

    table = advise(situation(game, seat), "your seat", top=top,
                   components=game.config.components).table
    reserve = game.phase == "prepare: reserved"
    return [(steps, (f"place reserved {row.place_reserved.replace('-', 'none')}; "
                     if reserve else "")
             + f"explore {row.explore_dice}; dice on {row.animals}", row.value)
            for row in table.itertuples()
            if (steps := allocation_steps(game, row.plan)) is not None]


def rated_moves(game: GameState, seat: int, budget: Budget, seed: int = 0, choices=None):
    """(the moves' `wins.move_chances` table, Snapshot's whole preparations' table with their
    exact `value`, lettered a, b, ... in `label`), rated by the same rollouts in one budget:
    the same worlds and chance for every move and preparation."""
    moves, texts = screen_moves(game, choices)
    whole = allocations(game, seat)
    table = rate(game, seat, moves + [w[0] for w in whole], texts + [w[1] for w in whole],
                 budget, seed)
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


def allocation_lines(rated: pd.DataFrame) -> list[str]:
    """Snapshot's whole preparations (`rated_moves`) as lines: win chance, exact value, the
    allocation, the move that starts it."""
    if rated.empty:
        return []
    lines = ["  whole preparations (the advisor's best by exact value this turn, rated by win "
             "chance over the rest of the game, on the same rollouts as your moves):"]
    for row in rated.itertuples():
        same = f"  (same position as after {row.same_as})" if row.same_as else ""
        lines.append(f"  {row.label:>4} win {100 * row.win_chance:5.1f}% "
                     f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]  value "
                     f"{row.value:.2f}  {row.text}{same}")
    return lines


def snapshot_hints(game: GameState, seat: int) -> list[str]:
    phase = game.phase
    if phase == "research":
        return research_hint(game, seat)
    if phase.startswith("prepare"):
        return preparation_hint(game, seat)
    if phase == "re-roll":
        return reroll_hint(game, seat)
    return []


# ---------------------------------------------------------------- every game


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


def exact_choice(game: GameState, seat: int, rated: pd.DataFrame) -> int | None:
    """The step action Snapshot's exact numbers (this turn only) favour now: draw or stop in
    research, the first step of the advisor's best preparation; None elsewhere."""
    if game.NAME != "snapshot":
        return None
    E = game.ENGINE
    if game.phase == "research":
        draw = research_numbers(game, seat)["draw"]
        return int(E.act(E.A_DRAW if draw else E.A_STOP))
    if rated.empty:
        return None
    return int(rated.loc[rated.value.idxmax(), "action"])


def recommendation(game: GameState, seat: int, table: pd.DataFrame,
                   rated: pd.DataFrame | None = None) -> list[str]:
    """One move to play and why, and where the other advisers disagree: the highest
    estimated win chance is the objective (it counts the whole game); Snapshot's exact odds
    are this turn's only; the built-in greedy policy is the baseline player. `table`:
    `move_chances` (numbered as the screen); `rated`: Snapshot's `allocations`."""
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
    exact = exact_choice(game, seat, pd.DataFrame() if rated is None else rated)
    if exact is not None:
        others.append(("the exact odds (this turn only)", "agree", "favour", exact))
    for who, agree, differ, action in others:
        row = by_action.get(action)
        if row is None or row.move == best.move:
            lines.append(f"    {who} {agree}")
        else:
            lines.append(f"    {who} {differ} {row.move}. {row.text} "
                         f"({100 * row.win_chance:.1f}% by the rollouts)")
    return lines


GAME_HINTS = {"snapshot": snapshot_hints}


def hints(game: GameState, seat: int, budget: Budget | None = None, seed: int = 0,
          choices=None) -> str:
    """The hint lines for `seat` (the seat to move) now: the game's exact numbers, Snapshot's
    whole preparations by win chance, the legal moves (or a play screen's `choices`,
    numbered as there) ranked by win chance and one recommendation (`recommendation`)."""
    budget = budget or Budget()
    seat = check_seat(game, seat)
    start = time.perf_counter()
    exact = GAME_HINTS.get(game.NAME, lambda g, s: [])(game, seat)
    table, rated = rated_moves(game, seat, budget.after(time.perf_counter() - start), seed,
                               choices)
    return "\n".join(["hints:", *exact, *allocation_lines(rated), *chance_lines(table, budget),
                      *recommendation(game, seat, table, rated)])
