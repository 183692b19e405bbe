"""Yosemite's parts of the play screen (`snapsim play`), registered as GameSpec.screen: the
one-line rule reminders (rulebook, Gameplay and Animal Movement; CLAUSES.md YO-*) and why
an Explore option that looks possible is not offered."""

from __future__ import annotations

# one line of the rulebook for each kind of move, shown under the first move of that kind
REMINDERS = {
    "start": "start: put your pawn on any animal tile of the Park, not the other pawn's; the "
             "first player places first (Setup 13-14)",
    "eat fish": "eat fish: each fish eaten moves your pawn one space up, down, left or right, "
                "never through or onto the other pawn (1. Eat Fish, optional)",
    "stop eating": "stop eating: keep the fish left on your track and go on to Explore",
    "step": "A: move one space in any direction and add a fish (at most 5); your Explore ends "
            "there, and no tile is taken",
    "animal move": "B: move as the animal tile you stand on allows (red fox 1-3 spaces; "
                   "bighorn sheep any number in one line; black bear exactly 2 in one line; "
                   "rattlesnake 1-2; cougar to the edge), then take that tile into your hand "
                   "and use its bonus (fish, tent or camera)",
    "take landmark": "C: take the landmark token of the landmark tile you stand on and do not "
                     "move; it scores 2, 5, 9 or 14 by your photos of that landmark at the end",
    "push": "move your opponent: the black bear (1 space, optional), the rattlesnake landing "
            "on them (1) or the cougar passing them (up to 2); you choose where",
    "no push": "leave your opponent where they are",
    "photo": "take the photo: the camera bonus lets you discard animal tiles matching an "
             "available photo's animals to take it; two tiles of one animal stand for any one",
    "no photo": "take no photo: the camera bonus is optional",
    "pay": "pay: the animal tiles you give for the photo (two of one animal stand for any one)",
    "discard": "discard: with more than 10 animal tiles in your hand, discard down to 10 "
               "(3. Reset)",
}


def _standing_on(game, seat: int) -> str | None:
    """The tile under the seat's pawn, as the Park shows it ('red fox (fish)', 'Yosemite
    Valley (landmark)'); None before the pawn is placed."""
    obs = game.observation(seat)
    at = obs["pawns"][seat]
    if at is None:
        return None
    return obs["park"]["abcde".index(at[0])][int(at[1:]) - 1]


def unavailable(game, seat: int, kinds: set[str]) -> list[str]:
    """Why an Explore option is not offered: B needs an animal tile and a move its animal
    allows; C needs the landmark's token still on its tile; A needs a free neighbouring
    space (Explore A, B and C; Animal Movement)."""
    if game.phase != "explore":
        return []
    tile = _standing_on(game, seat)
    if tile is None:
        return []
    landmark = tile.endswith("(landmark)")
    out = []
    if "step" not in kinds:
        out.append("A: no neighbouring space is free (the Park's edge or the other pawn)")
    if "animal move" not in kinds:
        if landmark:
            out.append("B: you stand on a landmark tile; only an animal tile gives a move "
                       "(B)")
        else:
            animal = tile.split(" (")[0]
            out.append(f"B: the {animal}'s move is blocked here: it must move at least one "
                       "space as the animal allows, and only the rattlesnake and the cougar "
                       "may reach the other pawn's space")
    if landmark and "take landmark" not in kinds:
        name = tile.split(" (")[0]
        out.append(f"C: the {name} token has been taken already; the empty tile stays in "
                   "play (eat fish onto an animal tile, or take A)")
    return out
