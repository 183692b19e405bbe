"""ShutterBug's parts of the play screen (`snapsim play`), registered as GameSpec.screen: the
one-line rule reminders (rulebook, Step 2 and Step 3; CLAUSES.md SB-*), the map around the
seat's pawns, and why a photo tile where a pawn stands offers no photograph."""

from __future__ import annotations

# one line of the rulebook for each kind of move, shown under the first move of that kind
REMINDERS = {
    "start": "start: put your pawn on a starting city; several pawns may share one (with two "
             "players, your two pawns start in separate cities)",
    "move": "move: one space at a time, 1, 2 or 3 spaces a turn (with two players, split "
            "between your pawns), never back onto a space you occupied this turn; passing "
            "through a city draws 1 tip, ending in one draws 2 (Step 2)",
    "stop": "stop: end your movement here (at least one space a turn)",
    "trade": "trade: on a space with other pawns you may trade once with each player: give "
             "one tip of your choice face down, take one of theirs at random (Step 2 A)",
    "no trade": "no trade: trading is optional",
    "photograph": "photograph: discard as many tips as the tile's quality, the first showing "
                  "its creature, the rest its creature or the space's terrain; one tile per "
                  "space a visit (Step 2 C)",
    "skip": "skip: take no photograph here; the tile stays on the board",
    "pay": "pay: the tip you discard toward the photograph (the first must show the creature; "
           "each tip counts one way only)",
    "discard": "discard: at the end of your turn you keep at most 7 tips (Step 3)",
    "keep": "keep: the one of three assignments you keep (solo variant); at the end you "
            "score one of its two tabloid sides",
}


def board(game, seat: int) -> list[str]:
    """Around each of the seat's pawns: its space, the neighbouring spaces (terrain and
    creature, or city) with the photo tiles on them, and the photo tiles a turn's move
    reaches."""
    comp, obs = game.config.components, game.observation(seat)
    names = [sp.name for sp in comp.spaces]

    def space(i):
        sp, tiles = comp.spaces[i], obs["board"].get(names[i])
        what = "city" if sp.city else f"{comp.terrains[sp.terrain]}, {comp.creatures[sp.creature]}"
        return f"{sp.name} ({what}" + (f"; photo tiles of quality {', '.join(map(str, tiles))}"
                                       if tiles else "") + ")"

    out = ["map:"]
    reach = game.config.max_steps
    for at in obs["pawns"][seat]:
        if at is None:
            continue
        i = names.index(at)
        out.append(f"  your pawn at {space(i)}; next to it: "
                   + "; ".join(space(j) for j in comp.spaces[i].adjacent))
        steps, ring = {i: 0}, [i]
        for d in range(1, reach + 1):
            ring = [j for k in ring for j in comp.spaces[k].adjacent if j not in steps]
            for j in ring:
                steps.setdefault(j, d)
        near = [f"{names[j]} {f'{steps[j]} away' if steps[j] else 'here'} "
                f"({', '.join(map(str, obs['board'][names[j]]))})"
                for j in sorted(steps, key=lambda j: steps[j]) if names[j] in obs["board"]]
        out.append(f"  photo tiles within {reach} spaces (a turn's move): "
                   + ("; ".join(near) or "none"))
    return out


def unavailable(game, seat: int, kinds: set[str]) -> list[str]:
    """Why a photo tile where the seat's pawn stands offers no photograph: the first tip
    discarded must show its creature, and as many tips as its quality must show the creature
    or the space's terrain (rulebook, C. Take a Photograph). Asked only where the pawn's
    next move is chosen."""
    if "photograph" in kinds or not kinds & {"move", "stop"}:
        return []
    comp, obs = game.config.components, game.observation(seat)
    hand = obs["hand"]  # tip name "creature/terrain" -> cards
    out = []
    for at in obs["pawns"][seat]:
        if at not in obs["board"]:
            continue
        sp = comp.spaces[comp.space_index(at)]  # its tiles show its creature and terrain
        creature, terrain = comp.creatures[sp.creature], comp.terrains[sp.terrain]
        shows = sum(k for name, k in hand.items() if name.split("/")[0] == creature)
        fits = sum(k for name, k in hand.items() if creature in name.split("/")
                   or terrain in name.split("/"))
        for quality in obs["board"][at]:
            if shows == 0:
                why = f"you hold no tip showing the {creature} (the first tip must)"
            elif fits < quality:
                why = f"it takes {quality} tips showing the {creature} or {terrain}; you " \
                      f"hold {fits}"
            else:
                why = "not at this moment of the turn (or a photo was taken here this turn)"
            out.append(f"photograph the {creature} (quality {quality}) at {at}: {why}")
    return out
