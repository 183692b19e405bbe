"""What `snapsim compare` measures for Snapshot, besides the generic seat measures."""

import numpy as np

from ...analysis.measures import Levers, MeasureSpec
from ...analysis.paired import Ratio

RESTRICTIONS = {"reserving": "greedy:allow_reserve=0", "offers": "greedy:allow_offers=0",
                "tracking tokens": "greedy:allow_tokens=0",
                "explore re-rolls": "greedy:allow_rerolls=0"}


def _label(config, column: str, value: int) -> str:
    return config.components.assignments[value].name


def card_and_award_values(config, policies, games: int, seed: int, threads=None) -> list:
    """Each card's value as the report defines it (prestige per die rolled at it) and each
    award's claim rate, per game of the same seeded games."""
    from .api import _play, comp_stack_size
    from .engine import GENERALIST, MAX_STACK

    _, _, _, cards, awards = _play(config, policies, 0, games, seed, True, True)
    comp = config.components
    out = []
    for c, card in enumerate(comp.cards):
        out.append((f"prestige per die: {card.name}", "card value", "prestige per die",
                    Ratio(cards[:, c, 1].astype(float) * card.prestige,
                          cards[:, c, 2].astype(float))))
    names = [h.name for h in comp.habitats] + ["Generalist"]
    for cat, name in enumerate(names):
        for place in range(min(MAX_STACK, comp_stack_size(comp, cat))):
            claimed = (awards[:, cat * MAX_STACK + place] > 0).astype(float)
            kind = "Generalist" if cat == GENERALIST else f"{name} Specialist"
            out.append((f"award claimed: {kind} #{place + 1}", "awards", "rate",
                        Ratio(claimed, np.ones_like(claimed))))
    return out


def _effective(config, knob: str):
    """A knob's value as played: photo_target's None is the rulebook's target for the count."""
    return config.target if knob == "photo_target" else getattr(config, knob)


# What rebalancing may change (docs/games/snapshot.md lists these with their defaults).
LEVERS = Levers(
    player_counts=(2, 3, 4, 5),
    fields={"animals.prestige": 1, "raccoon.prestige": 1, "habitats.explore": 1,
            "assignments.chart": 2, "awards.specialist": 1, "awards.generalist": 1},
    aliases={"cards": "animals", "card": "animals", "animal": "animals", "points": "prestige",
             "assignment": "assignments", "habitat": "habitats", "award": "awards"},
    knobs={"photo_target": 1, "reroll_cost": 1, "experience_tokens": 1, "reserve_limit": 1,
           "setup_cards": 1, "place_tokens": 1, "offer_price": 1, "cover_points": 2,
           "dice": 1, "offers": (False, True), "raccoon": (False, True),
           "reserving": (False, True)},
    seat_knob="start_tokens", seat_range=2, seat_values=lambda config: config.seat_tokens,
    effective=_effective,
    objective="assignment", objective_label="assignment", card_group="card value",
    refused={"animals.difficulty": "each habitat holds the difficulties 2-10 once each, so "
                                   "one animal's difficulty cannot change alone"},
)

MEASURES = MeasureSpec(
    score_parts=("prestige", "awards", "cover", "article"),
    length="rounds",
    economy=("photos", "n_awards", "tokens", "spooks", "rerolls", "tokens_from_placing",
             "tokens_from_experience", "tokens_spent_photos", "tokens_spent_rerolls"),
    categories=("assignment",),
    restrictions=RESTRICTIONS,
    label=_label,
    extra=card_and_award_values,
    outlier_groups=("card value",),
    levers=LEVERS,
)
