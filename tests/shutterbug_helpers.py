"""Shared helpers for the ShutterBug rule and play tests.

Situations are built by poking the int64 state vector of a `ShutterbugGame` (field offsets
from `engine`), then played through the public step API (`apply`), so every rule is checked
through the same path a user takes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from snapsim.games.shutterbug import ShutterbugConfig, ShutterbugGame
from snapsim.games.shutterbug import engine as E
from snapsim.games.shutterbug.components import BUNDLED_PATH

CRE = {"Bigfoot": 0, "Pegasus": 1, "Jackalope": 2, "Chupacabra": 3}
TER = {"beach": 0, "mountain": 1, "forest": 2, "desert": 3, "plains": 4, "swamp": 5}


def code(kind: int, arg: int = 0) -> int:
    return int(E.act(kind, arg))


STOP, NO_TRADE, SKIP = code(E.A_STOP), code(E.A_NO_TRADE), code(E.A_SKIP)


def tip(creature: str, terrain: str) -> int:
    """Tip type of a creature-terrain pair."""
    return CRE[creature] * E.N_TERRAINS + TER[terrain]


def move(g: ShutterbugGame, space: str, pawn: int = 0) -> int:
    return code(E.A_MOVE, E.pawn_space(pawn, sid(g, space)))


def pay(creature: str, terrain: str) -> int:
    return code(E.A_PAY, tip(creature, terrain))


def sid(g: ShutterbugGame, name: str) -> int:
    return g.config.components.space_index(name)


def tiles_of(g: ShutterbugGame, space: str) -> list[int]:
    s = sid(g, space)
    return [t for t, tile in enumerate(g.config.components.tiles) if tile.space == s]


def new(config: ShutterbugConfig | None = None, seed: int = 0, game: int = 0,
        policies=None) -> ShutterbugGame:
    config = config or ShutterbugConfig()
    return ShutterbugGame(config, seed=seed, game=game,
                          policies=policies or ["random"] * config.players)


def map_listing_first(folder: Path, space: str) -> Path:
    """A components file that is the bundled set with `space` listed first on the map (the
    file names spaces, not positions, so only the order changes)."""
    lines = BUNDLED_PATH.read_text().splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.startswith(f'  {{ name = "{space}",'))
    top = lines.index("spaces = [\n") + 1
    lines.insert(top, lines.pop(row))
    path = folder / "reordered.toml"
    path.write_text("".join(lines))
    return path


def arrange(g: ShutterbugGame, pawns, hands=None, board=(), cur: int = 0,
            round_: int = 0) -> ShutterbugGame:
    """Put player `cur` at the start of their movement in a chosen situation.

    pawns: per player a space name or a list of names (team game); hands: {player: [tip
    types]} (other hands empty, every other tip in the deck); board: tile ids on the board
    (every other tile in the bag, portfolios empty).
    """
    st = g.state
    comp = g.config.components
    n = g.config.players
    for t in range(E.N_TILES):
        st[E.TILE_LOC + t] = E.T_BAG
        st[E.TILE_OWNER + t] = -1
    st[E.ON_SPACE:E.ON_SPACE + 63] = 0
    for t in board:
        st[E.TILE_LOC + t] = E.T_BOARD
        st[E.ON_SPACE + comp.tiles[t].space] += 1
    st[E.BOARD] = sum(1 << s for s in range(63) if st[E.ON_SPACE + s] > 0)
    st[E.BOARD_TILES] = sum(1 << t for t in board)
    bag = [t for t in range(E.N_TILES) if t not in set(board)]
    st[E.BAG:E.BAG + len(bag)] = bag
    st[E.N_BAG] = len(bag)
    for f in (E.QUAL, E.NPH, E.TERC, E.QC, E.HAND):
        size = {E.QUAL: 4, E.NPH: 4, E.TERC: 6, E.QC: 3, E.HAND: E.N_TYPES}[f]
        st[f:f + E.MAX_PLAYERS * size] = 0
    st[E.N_HAND:E.N_HAND + E.MAX_PLAYERS] = 0
    st[E.DISC:E.DISC + E.N_TYPES] = 0
    pool = [comp.tips[i][0] * E.N_TERRAINS + comp.tips[i][1] for i in range(E.N_TIPS)]
    for p, types in (hands or {}).items():
        for u in types:
            pool.remove(u)
            st[E.HAND + p * E.N_TYPES + u] += 1
            st[E.N_HAND + p] += 1
    st[E.DECK:E.DECK + len(pool)] = pool
    st[E.N_DECK] = len(pool)
    for p in range(n):
        where = [pawns[p]] if isinstance(pawns[p], str) else list(pawns[p])
        for k in range(E.MAX_PAWNS):
            st[E.PAWN + p * E.MAX_PAWNS + k] = sid(g, where[k]) if k < len(where) else -1
    st[E.CUR] = cur
    st[E.ROUND] = round_
    E.start_turn(st, g._cfg, g._comp, g._rng)  # populates up to the target around `board`
    return g


def give_portfolio(g: ShutterbugGame, p: int, tiles) -> None:
    """Put these tiles (from the bag) in seat p's portfolio, as if photographed earlier."""
    st, comp = g.state, g.config.components
    m = E.team(g._cfg, p)
    bag = [int(t) for t in st[E.BAG:E.BAG + st[E.N_BAG]] if t not in set(tiles)]
    st[E.BAG:E.BAG + len(bag)] = bag
    st[E.N_BAG] = len(bag)
    for t in tiles:
        assert st[E.TILE_LOC + t] == E.T_BAG
        tile = comp.tiles[t]
        st[E.TILE_LOC + t] = E.T_PORTFOLIO
        st[E.TILE_OWNER + t] = p
        st[E.QUAL + m * E.N_CREATURES + tile.creature] += tile.quality
        st[E.NPH + m * E.N_CREATURES + tile.creature] += 1
        st[E.TERC + m * E.N_TERRAINS + tile.terrain] += 1
        st[E.QC + m * E.N_Q + tile.quality - 1] += 1


def last_turn(g: ShutterbugGame, pawns, portfolios, hands=None, board=()) -> ShutterbugGame:
    """The last player's turn of the last round, with these portfolios: the next move that
    ends the turn ends the game and scores it."""
    n = g.config.players
    arrange(g, pawns, hands=hands, board=board, cur=n - 1, round_=g.config.rounds - 1)
    for p, tiles in portfolios.items():
        give_portfolio(g, p, tiles)
    return g


def set_side(g: ShutterbugGame, a: int, side: int, pairs) -> None:
    """Overwrite one tabloid side of assignment card a in the game's component vector."""
    for i, (creature, need) in enumerate(pairs):
        at = g._comp[E.K_ASSIGN_AT] + ((a * 2 + side) * E.SIDE_N + i) * 2
        g._comp[at] = CRE[creature]
        g._comp[at + 1] = need


def tile_with(g: ShutterbugGame, space: str, quality: int) -> int:
    return next(t for t in tiles_of(g, space)
                if g.config.components.tiles[t].quality == quality)


def deck_top(g: ShutterbugGame, types) -> None:
    """Put these tip types on top of the deck (first drawn first), keeping the deck's cards."""
    st = g.state
    n = int(st[E.N_DECK])
    deck = list(st[E.DECK:E.DECK + n])
    for u in types:
        deck.remove(u)
    deck = deck + list(types)[::-1]
    st[E.DECK:E.DECK + n] = deck


def bag_top(g: ShutterbugGame, tiles) -> None:
    """Put these tiles (in the bag) on top of it, first drawn first."""
    st = g.state
    n = int(st[E.N_BAG])
    bag = [int(t) for t in st[E.BAG:E.BAG + n] if t not in set(tiles)]
    st[E.BAG:E.BAG + n] = bag + list(tiles)[::-1]


def hand(g: ShutterbugGame, p: int) -> np.ndarray:
    return g.state[E.HAND + p * E.N_TYPES:E.HAND + (p + 1) * E.N_TYPES].copy()


def legal(g: ShutterbugGame) -> set[int]:
    return {a.code for a in g.legal_actions()}


def play(g: ShutterbugGame, *codes: int) -> ShutterbugGame:
    for c in codes:
        g.apply(c)
    return g


def place_cities(g: ShutterbugGame) -> ShutterbugGame:
    """Play set-up's starting-city choices (and a solo keep) with the seats' policies."""
    while g.phase in ("keep an assignment", "choose a starting city"):
        g.apply(g.policy_action())
    return g


def check_invariants(g: ShutterbugGame) -> None:
    """Tips and tiles are conserved; hands stay within bounds between turns."""
    st, comp = g.state, g.config.components
    n = g.config.players
    hands = sum(int(st[E.N_HAND + p]) for p in range(n))
    per_type = sum(int(x) for x in st[E.HAND:E.HAND + n * E.N_TYPES])
    assert hands == per_type
    assert hands + int(st[E.N_DECK]) + int(st[E.DISC:E.DISC + E.N_TYPES].sum()) == E.N_TIPS
    locs = st[E.TILE_LOC:E.TILE_LOC + E.N_TILES]
    assert (locs == E.T_BAG).sum() == st[E.N_BAG]
    board = [t for t in range(E.N_TILES) if locs[t] == E.T_BOARD]
    assert st[E.BOARD_TILES] == sum(1 << t for t in board)
    for s in range(len(comp.spaces)):
        assert st[E.ON_SPACE + s] == sum(comp.tiles[t].space == s for t in board)
        assert (st[E.BOARD] >> s) & 1 == (st[E.ON_SPACE + s] > 0)
    assert all(not comp.spaces[comp.tiles[t].space].city for t in board)
    if g.phase == "move" and st[E.STEPS] == 0 and not g.is_over():
        for p in range(n):
            assert st[E.N_HAND + p] <= g.config.hand_limit
