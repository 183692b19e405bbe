"""What `snapsim compare` measures for ShutterBug, besides the generic seat measures."""

from ...analysis.measures import MeasureSpec

# One greedy player who ignores a source of points, against greedy.
RESTRICTIONS = {"side jobs": "greedy:w_job=0", "city bonus": "greedy:w_city=0",
                "off-assignment photos": "greedy:w_off=0"}


def _label(config, column: str, value: int) -> str:
    return config.components.assignments[value].name


MEASURES = MeasureSpec(
    score_parts=("assignment_points", "side_job_points", "city_points"),
    length=None,  # always eight rounds
    economy=("steps", "photos", "quality", "creatures_met", "side_jobs", "tips_drawn", "tips_paid",
             "tips_discarded", "trades"),
    categories=("assignment",),
    restrictions=RESTRICTIONS,
    label=_label,
)
