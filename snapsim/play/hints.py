"""The numbers `snapsim play --hints` shows a seat, computed from that seat's observation only
(its readable dict and its observation tensor): never a hidden card or the deck order.

Snapshot: the exact advisor (snapsim.games.snapshot.advisor) on the seat's situation:
P(spook) of the next draw and the value of drawing against stopping during research; every
preparation ranked by expected prestige with P(photograph) per animal; P(explored) after each
further re-roll. Every game: the legal moves ranked by the seat's estimated win chance
(snapsim.play.wins: determinized rollouts, each with a 95% interval and the points it scores
at once) and the move the seat's built-in policy would make.
"""

from __future__ import annotations

from ..protocol import GameState
from .wins import Budget, move_chances

TOP_PREPARATIONS = 3


def greedy_line(game: GameState, seat: int) -> str:
    """The seat's built-in policy's move (policies see only the seat's observation; asking
    changes nothing)."""
    return (f"  {game.policies[seat].name} would play: "
            f"{game.action_to_string(game.policy_action())}")


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


def research_hint(game: GameState, seat: int) -> list[str]:
    from ..games.snapshot.advisor import research_advice

    r = research_advice(situation(game, seat), "your seat",
                        components=game.config.components)
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
    points now, the move (and its rollouts where moves had different numbers of them)."""
    counts = set(table.rollouts.tolist())
    spent = "" if budget.rollouts is not None else f" in {budget.seconds:g} s"
    each = f"{counts.pop():,} rollouts each" if len(counts) == 1 else "rollouts per move in ()"
    lines = [f"  your moves by estimated win chance ({each}{spent}; 95% "
             "interval; expected points scored at once):"]
    for row in table.itertuples():
        own = "" if not counts else f" ({row.rollouts:,})"
        lines.append(f"  {row.move:>3}. win {100 * row.win_chance:5.1f}% "
                     f"[{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]{own}  "
                     f"{row.points:+.2f} now  {row.text}")
    return lines


GAME_HINTS = {"snapshot": snapshot_hints}


def hints(game: GameState, seat: int, budget: Budget | None = None, seed: int = 0,
          choices=None) -> str:
    """The hint lines for `seat` (the seat to move) now: the game's exact numbers, the legal
    moves (or a play screen's `choices`, numbered as there) ranked by win chance
    (`wins.move_chances`) and the built-in policy's move."""
    budget = budget or Budget()
    exact = GAME_HINTS.get(game.NAME, lambda g, s: [])(game, seat)
    table = move_chances(game, seat, budget, seed, choices)
    return "\n".join(["hints:", *exact, *chance_lines(table, budget), greedy_line(game, seat)])
