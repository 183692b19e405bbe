"""What `snapsim compare` measures for Pig and what `snapsim rebalance` may change."""

from snapsim.analysis.measures import Levers, MeasureSpec

LEVERS = Levers(
    player_counts=(2,),  # the exact programme and the tuned player are two-player
    fields={"die.faces": 1},
    knobs={"goal": 20},
    seat_knob="start_points", seat_range=5,
    seat_values=lambda config: config.points_by_seat,
)

MEASURES = MeasureSpec(
    length="turns",
    economy=("rolls", "busts", "points_lost"),
    first_player="first",
    levers=LEVERS,
)
