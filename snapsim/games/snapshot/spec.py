"""What the shared tuner and strategy guide know of Snapshot's greedy policy: the
parameters the tuner searches, with their ranges, and the rules of thumb, each one of its
numbers said in words (registered in the game's GameSpec)."""

from ..rule_of_thumb import Rule, grid
from .config import FIVE_PLAYER_NOTE

TITLE = "Snapshot"

# the rulebook plays five only with the Flora Expansion, whose cards snapsim does not have
PLAYER_NOTES = {5: f"{FIVE_PLAYER_NOTE} (the rulebook adds the Flora Expansion)"}

# Searched parameters and ranges: around each default, inside the valid range.
SEARCHED = {"max_risk": (0.05, 0.6), "max_placed": (1.0, 8.0), "slot_risk": (1.0, 3.0),
            "token_value": (0.0, 1.5), "keep_min": (2.0, 12.0), "offer_min": (2.0, 12.0),
            "accept_max": (0.0, 8.0)}

RULES = (
    Rule("research cards", "max_placed", grid(1, 8, 1), "research: draw or stop",
         "Stop researching once you have placed {amount} this turn.", "cards"),
    Rule("research risk", "max_risk", grid(0.1, 0.5, 0.05), "research: draw or stop",
         "Stop researching when more than {amount} of the unseen cards could not be placed "
         "(would spook).", "%"),
    Rule("free reserve slot", "slot_risk", grid(1, 3, 0.5), "research: draw or stop",
         "With a reserve slot free, accept {amount} that risk (a reserve catches a "
         "spook).", "times"),
    Rule("token worth", "token_value", grid(0, 1.5, 0.25),
         "tokens on cards and re-rolls",
         "Count a tracking token as worth {amount}: put it on a card or spend it on a "
         "re-roll only when that gains more.", "prestige"),
    Rule("keep for later", "keep_min", grid(2, 12, 1), "research: place or reserve",
         "Reserve a card you could place now only when it is worth {amount} or more.",
         "prestige"),
    Rule("offer", "offer_min", grid(2, 12, 1), "research: offer or pass",
         "Offer a drawn card to the others only when it is worth {amount} or more.",
         "prestige"),
    Rule("accept", "accept_max", grid(0, 8, 1), "offers: accept or decline",
         "Accept another player's offer when the card you would give up is worth less "
         "than {amount}.", "prestige"),
)
assert len(RULES) <= 10  # a person remembers at most ten
