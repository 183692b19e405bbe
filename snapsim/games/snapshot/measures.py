"""What `snapsim compare` measures for Snapshot, besides the generic seat measures."""

from ...analysis.measures import MeasureSpec

RESTRICTIONS = {"reserving": "greedy:allow_reserve=0", "offers": "greedy:allow_offers=0",
                "tracking tokens": "greedy:allow_tokens=0",
                "explore re-rolls": "greedy:allow_rerolls=0"}


def _label(config, column: str, value: int) -> str:
    return config.components.assignments[value].name


MEASURES = MeasureSpec(
    score_parts=("prestige", "awards", "cover", "article"),
    length="rounds",
    economy=("photos", "n_awards", "tokens", "spooks", "rerolls", "tokens_from_placing",
             "tokens_from_experience", "tokens_spent_photos", "tokens_spent_rerolls"),
    categories=("assignment",),
    restrictions=RESTRICTIONS,
    label=_label,
)
