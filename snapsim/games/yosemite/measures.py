"""What `snapsim compare` measures for Yosemite, besides the generic seat measures."""

from ...analysis.measures import Levers, MeasureSpec

# One greedy player who ignores a scoring category, against greedy: if ignoring it wins
# more than half the games, the category is a trap.
RESTRICTIONS = {"photos": "greedy:w_photo=0", "judges": "greedy:w_judge=0",
                "landmarks": "greedy:w_landmark=0", "camping": "greedy:w_tent=0"}

# What rebalancing may change (docs/games/yosemite.md lists these with their defaults).
_TILES = ("each animal has 9 tiles, so one bonus icon's count cannot change alone (move an "
          "icon from one count to another by hand)")
LEVERS = Levers(
    player_counts=(2,),
    fields={"photos.points": 1, "judges.points": 1, "scoring.landmark_chart": 2,
            "scoring.camping_track": 1},
    aliases={"cards": "photos", "photo": "photos", "judge": "judges", "points": "points"},
    knobs={"tiles_dealt": 1, "photos_removed": 2, "judges": 1, "hand_limit": 1,
           "photo_slots": 1, "wilds": (False, True)},
    seat_knob="start_fish", seat_range=1,
    seat_values=lambda config: config.fish_by_turn_order, turn_order=True,
    refused={"tiles.fish": _TILES, "tiles.tent": _TILES, "tiles.camera": _TILES},
)

MEASURES = MeasureSpec(
    score_parts=("photo_points", "camping", "judges", "landmarks"),
    length="turns",
    economy=("photos", "tents", "fish_eaten", "explore_a", "explore_c", "pushes", "use_fox",
             "use_sheep", "use_bear", "use_snake", "use_cougar", "bonus_fish", "bonus_tent",
             "bonus_camera"),
    first_player="first",
    restrictions=RESTRICTIONS,
    levers=LEVERS,
)
