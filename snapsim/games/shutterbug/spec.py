"""What the shared tuner and strategy guide know of ShutterBug's greedy policy: the
parameters the tuner searches, with their ranges, and the rules of thumb, each one of its
numbers said in words (registered in the game's GameSpec)."""

from ..rule_of_thumb import Rule, grid

TITLE = "ShutterBug"

# Searched parameters and ranges: around each default, inside the valid range.
SEARCHED = {"w_assign": (0.0, 3.0), "w_off": (0.0, 1.5), "w_job": (0.0, 3.0),
            "tip_value": (0.0, 2.0), "w_city": (0.0, 3.0), "look": (0.0, 1.5)}

RULES = (
    Rule("assignment", "w_assign", grid(0, 3, 0.5), "which creature to shoot",
         "Value a creature on your assignment's side at {amount} per quality point.",
         "points"),
    Rule("off assignment", "w_off", grid(0, 1.5, 0.25), "which creature to shoot",
         "Value any other creature at {amount} per quality point.", "points"),
    Rule("side jobs", "w_job", grid(0, 3, 0.5), "which creature to shoot",
         "Weigh side-job progress at {amount} the job's points.", "times"),
    Rule("tips", "tip_value", grid(0, 2, 0.25), "spending and keeping tips",
         "Count a tip in hand as {amount}: spend it only when the move gains more.",
         "points"),
    Rule("cities", "w_city", grid(0, 3, 0.5), "where to travel (city bonus)",
         "Weigh the end-of-game city bonus at {amount} its points.", "times"),
    Rule("look ahead", "look", grid(0, 1.5, 0.25), "where to travel (next turn)",
         "Weigh what you could shoot from where you end at {amount} its value.",
         "times"),
)
assert len(RULES) <= 10  # a person remembers at most ten
