"""What `snapsim compare` measures for Snapshot, besides the generic seat measures."""

import numpy as np

from ...analysis.measures import MeasureSpec
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
        out.append((f"prestige per die: {card.name}", "card value", "points",
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
)
