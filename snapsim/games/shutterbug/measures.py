"""What `snapsim compare` measures for ShutterBug, besides the generic seat measures."""

from ...analysis.measures import Levers, MeasureSpec

# One greedy player who ignores a source of points, against greedy.
RESTRICTIONS = {"side jobs": "greedy:w_job=0", "city bonus": "greedy:w_city=0",
                "off-assignment photos": "greedy:w_off=0"}


def _label(config, column: str, value: int) -> str:
    return config.components.assignments[value].name


def _effective(config, knob: str):
    """A knob's value as played: None means the rulebook's value for the mode."""
    from . import engine as E

    index = {"populate": E.C_POPULATE, "city_bonus": E.C_CITY_BONUS,
             "turn_tips": E.C_TURN_TIPS}
    if knob in index and getattr(config, knob) is None:
        return int(config.to_array()[index[knob]])
    return getattr(config, knob)


# What rebalancing may change (docs/games/shutterbug.md lists these with their defaults).
LEVERS = Levers(
    player_counts=(2, 3, 4, 5, 6),
    fields={"assignments.left": 1, "assignments.right": 1, "side_jobs.points": 1,
            "side_jobs.count": 1, "tiles.quality": 1},
    aliases={"cards": "assignments", "assignment": "assignments", "side_job": "side_jobs",
             "jobs": "side_jobs", "tile": "tiles", "points": "points"},
    knobs={"hand_limit": 1, "max_steps": 1, "pass_tips": 1, "end_tips": 1, "city_bonus": 1,
           "populate": 1, "side_job_markers": 1, "trading": (False, True)},
    seat_knob="start_tips", seat_range=1, seat_values=lambda config: config.tips_by_seat,
    effective=_effective,
    objective="assignment", objective_label="secret assignment",
)

MEASURES = MeasureSpec(
    score_parts=("assignment_points", "side_job_points", "city_points"),
    length=None,  # always eight rounds
    economy=("steps", "photos", "quality", "creatures_met", "side_jobs", "tips_drawn", "tips_paid",
             "tips_discarded", "trades"),
    categories=("assignment",),
    restrictions=RESTRICTIONS,
    label=_label,
    levers=LEVERS,
)
