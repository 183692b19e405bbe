"""What the shared tuner and strategy guide know of Yosemite's greedy policy: the
parameters the tuner searches, with their ranges, and the rules of thumb, each one of its
numbers said in words (registered in the game's GameSpec)."""

from ..rule_of_thumb import Rule, grid

TITLE = "Yosemite"

# Searched parameters and ranges: around each default, inside the valid range.
SEARCHED = {"fish_value": (0.0, 2.0), "w_photo": (0.0, 3.0), "w_judge": (0.0, 2.0),
            "w_landmark": (0.0, 3.0), "w_next": (0.0, 1.5), "w_tent": (0.0, 3.0)}

RULES = (
    Rule("fish", "fish_value", grid(0, 2, 0.25), "where to walk (fish eaten)",
         "Count a fish as {amount}: walk further only when the square gains more.",
         "points"),
    Rule("photos", "w_photo", grid(0, 3, 0.5), "which tile to explore",
         "Weigh progress toward a face-up photo at {amount} its points.", "times"),
    Rule("judges", "w_judge", grid(0, 2, 0.25), "which tile to explore",
         "Count each tile of a judged animal as {amount}.", "points"),
    Rule("landmarks", "w_landmark", grid(0, 3, 0.5), "which tile to explore",
         "Weigh a landmark token's next chart step at {amount} its points.", "times"),
    Rule("next square", "w_next", grid(0, 1.5, 0.25), "where to walk (ending square)",
         "Weigh what the square you end on offers next turn at {amount} its points.",
         "times"),
    Rule("tents", "w_tent", grid(0, 3, 0.5), "where to walk (tents)",
         "Weigh the camping points a tent move gains at {amount} their points.", "times"),
)
assert len(RULES) <= 10  # a person remembers at most ten
