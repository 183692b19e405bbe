"""What `snapsim compare` measures for Yosemite, besides the generic seat measures."""

from ...analysis.measures import MeasureSpec

# One greedy player who ignores a scoring category, against greedy: if ignoring it wins
# more than half the games, the category is a trap.
RESTRICTIONS = {"photos": "greedy:w_photo=0", "judges": "greedy:w_judge=0",
                "landmarks": "greedy:w_landmark=0", "camping": "greedy:w_tent=0"}

MEASURES = MeasureSpec(
    score_parts=("photo_points", "camping", "judges", "landmarks"),
    length="turns",
    economy=("photos", "tents", "fish_eaten", "explore_a", "explore_c", "pushes", "use_fox",
             "use_sheep", "use_bear", "use_snake", "use_cougar", "bonus_fish", "bonus_tent",
             "bonus_camera"),
    first_player="first",
    restrictions=RESTRICTIONS,
)
