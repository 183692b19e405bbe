"""Snapshot's exact numbers for `snapsim play --hints` and `snapsim.advise`, registered as
GameSpec.hints: the exact advisor (`advisor`) on the seat's situation, read from its
observation only (never a hidden card, the deck order or the dice to come). In research
P(spook) of the next draw and the value of drawing against stopping; in the Preparation every
preparation ranked by expected prestige with P(photograph) per animal, and the best of them as
whole decisions (their step actions) for the play layer to rate by win chance; at a re-roll
P(explored) after each further re-roll.

The play layer calls `lines` (the hint's lines), `numbers` (the same as plain numbers),
`wholes` (the whole decisions) and `exact_choice` (the move this turn's exact numbers favour);
WHOLES is the heading of the whole decisions."""

from __future__ import annotations

import pandas as pd

from ...protocol import GameState
from . import advisor as A

TOP_PREPARATIONS = 3  # preparations shown in the hint and in the advice's numbers
ALLOCATIONS = 6  # the advisor's best preparations rated whole by win chance
WHOLES = ("whole preparations (the advisor's best by exact value this turn, rated by win "
          "chance over the rest of the game, on the same rollouts as your moves):")


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
    key = (seat, game.observation_tensor(seat).tobytes())
    if not (_RESEARCH and _RESEARCH[0][0] == key and _RESEARCH[0][1] is game.config):
        _RESEARCH[:] = [(key, game.config, A.research_advice(
            situation(game, seat), "your seat", components=game.config.components))]
    return _RESEARCH[0][2]


def preparations(game: GameState, seat: int, top: int = TOP_PREPARATIONS) -> pd.DataFrame:
    """The advisor's `top` preparations for the seat, from the start of this Preparation."""
    return A.advise(situation(game, seat), "your seat", top=top,
                    components=game.config.components).table


def rerolls(game: GameState, seat: int):
    """(the habitat being resolved, the re-rolls the seat's supply affords, `rerolls_table`
    of P(explored) after each, None when none is affordable); None when none is resolved."""
    obs = game.observation(seat)
    if obs["resolving"] is None:
        return None
    habitat = next(h for h in game.config.components.habitats if h.name == obs["resolving"])
    cost = game.config.reroll_cost
    affordable = obs["tokens"][seat] // cost
    return habitat, (A.rerolls_table(habitat.explore, affordable, 0, cost)
                     if affordable else None)


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
    lines = ["  preparations from the start of this Preparation, best first (value = expected "
             "prestige - token value x tokens lost):"]
    for i, row in preparations(game, seat).iterrows():
        lines.append(f"  {i + 1}. value {row.value:.2f}: explore {row.explore_dice}; dice on "
                     f"{row.animals}; place reserved {row.place_reserved}")
        lines.append(f"     P(explore) {row.p_explore}; P(photograph) {row.p_photograph}")
    return lines


def reroll_hint(game: GameState, seat: int) -> list[str]:
    found = rerolls(game, seat)
    if found is None:
        return []
    habitat, t = found
    if t is None:
        return [f"  {habitat.name} (explore {habitat.explore}): no re-roll affordable from "
                "the supply"]
    return [f"  {habitat.name} (explore {habitat.explore}): P(explored) after k more "
            "re-rolls from the supply: " + ", ".join(f"{k}: {p:.3f}" for k, p in
                                                      zip(t.further_rerolls, t.p_explored,
                                                          strict=True))]


def lines(game: GameState, seat: int) -> list[str]:
    """The hint's exact lines for the seat in the phase the game stands at."""
    phase = game.phase
    if phase == "research":
        return research_hint(game, seat)
    if phase.startswith("prepare"):
        return preparation_hint(game, seat)
    if phase == "re-roll":
        return reroll_hint(game, seat)
    return []


def numbers(game: GameState, seat: int) -> dict:
    """The same exact numbers as plain numbers, each with its units: research odds, the best
    preparations, P(explored) per re-roll."""
    out: dict = {}
    phase = game.phase
    if phase == "research":
        r = A.research_advice(situation(game, seat), "your seat",
                              components=game.config.components)
        r.pop("cards")
        out["research"] = {**r, "units": A.RESEARCH_UNITS}
    if phase == "research" or phase.startswith("prepare"):
        table = preparations(game, seat).drop(columns=["plan", *A.ODDS_TEXT])
        out["preparations"] = {"rows": table.to_dict(orient="records"),
                               "units": A.PREP_UNITS}
    found = rerolls(game, seat) if phase == "re-roll" else None
    if found is not None:
        habitat, t = found
        out["rerolls"] = {"habitat": habitat.name, "explore": habitat.explore,
                          "p_explored_after": [] if t is None else
                          [float(p) for p in t.p_explored],
                          "units": {"p_explored_after": "probability (0-1) after 1, 2, ... "
                                                        "more re-rolls from the supply"}}
    return out


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


def wholes(game: GameState, seat: int, top: int = ALLOCATIONS) -> list[tuple[list[int], str,
                                                                           float]]:
    """The preparation as whole decisions: the advisor's best allocations (reserved cards
    placed, dice and tokens; the `top` by value) that extend what the seat placed this
    Preparation, as (their step actions, their words, their exact value this turn); none
    outside the Preparation's steps."""
    if not game.phase.startswith("prepare"):
        return []
    reserve = game.phase == "prepare: reserved"
    return [(steps, (f"place reserved {row.place_reserved.replace('-', 'none')}; "
                     if reserve else "")
             + f"explore {row.explore_dice}; dice on {row.animals}", row.value)
            for row in preparations(game, seat, top).itertuples()
            if (steps := allocation_steps(game, row.plan)) is not None]


def exact_choice(game: GameState, seat: int, rated: pd.DataFrame) -> int | None:
    """The step action the exact numbers (this turn only) favour now: draw or stop in
    research, the first step of the advisor's best preparation (`rated`: the whole decisions
    rated by the play layer, each with its exact `value` and first `action`); None
    elsewhere."""
    E = game.ENGINE
    if game.phase == "research":
        return int(E.act(E.A_DRAW if research_numbers(game, seat)["draw"] else E.A_STOP))
    if rated.empty:
        return None
    return int(rated.loc[rated.value.idxmax(), "action"])
