"""Shared helpers for the Yosemite tests: situations are built by poking the state vector of a
`YosemiteGame` (offsets from `engine`), keeping every tile in exactly one place, then played
through the public step API."""

from __future__ import annotations

from snapsim.games.yosemite import YosemiteConfig, YosemiteGame
from snapsim.games.yosemite import engine as E

FOX, SHEEP, BEAR, SNAKE, COUGAR = range(5)
NONE, FISH, TENT, CAMERA = range(4)


def sq(r: int, c: int) -> int:
    return r * 5 + c


def code(kind: int, arg: int = 0) -> int:
    return E.act(kind, arg)


def game_in_turn(seed: int = 0, config: YosemiteConfig | None = None, p0=0, p1=24,
                 fish=(0, 0)) -> YosemiteGame:
    """A game whose pawns stand on p0 and p1, with player 0 to explore (no fish to eat)."""
    g = YosemiteGame(config or YosemiteConfig(), seed=seed)
    s = g.state
    s[E.POS], s[E.POS + 1] = p0, p1
    s[E.FISH], s[E.FISH + 1] = fish
    s[E.CUR] = 0
    E.start_turn(s)
    return g


def _find(g: YosemiteGame, animal: int, bonus: int | None, avoid) -> tuple[int, int, int]:
    """A tile of that animal (and bonus) in the deck or the park: (tile, place, index)."""
    s, comp = g.state, g._comp

    def fits(t):
        return comp[E.K_TILE_ANIMAL + t] == animal and (bonus is None or
                                                        comp[E.K_TILE_BONUS + t] == bonus)

    for i in range(int(s[E.N_DECK])):
        if fits(s[E.DECK + i]):
            return int(s[E.DECK + i]), E.L_DECK, i
    for q in range(E.N_SQ):
        if q not in avoid and q not in (s[E.POS], s[E.POS + 1]) and fits(s[E.PARK + q]):
            return int(s[E.PARK + q]), E.L_PARK, q
    raise LookupError("no such tile in the deck or park")


def put(g: YosemiteGame, square: int, animal: int, bonus: int | None = None) -> int:
    """Move a tile of that animal (and bonus) onto the square; the old tile takes its place."""
    s = g.state
    t, where, i = _find(g, animal, bonus, (square,))
    old = int(s[E.PARK + square])
    if where == E.L_DECK:
        s[E.DECK + i] = old
    else:
        s[E.PARK + i] = old
    s[E.TILE_LOC + old] = where
    s[E.PARK + square] = t
    s[E.TILE_LOC + t] = E.L_PARK
    return t


def put_landmark(g: YosemiteGame, square: int, lm: int, token: bool = True) -> None:
    s = g.state
    t = E.N_TILES + lm
    i = next(i for i in range(int(s[E.N_DECK])) if s[E.DECK + i] == t)
    old = int(s[E.PARK + square])
    s[E.DECK + i] = old
    s[E.TILE_LOC + old] = E.L_DECK
    s[E.PARK + square] = t
    s[E.TILE_LOC + t] = E.L_PARK
    s[E.LM_TOKEN_ON + lm] = int(token)


def give(g: YosemiteGame, p: int, animal: int, k: int = 1) -> None:
    """Hand p k tiles of the animal from the deck or park (a park square is refilled from the
    deck)."""
    s = g.state
    for _ in range(k):
        t, where, i = _find(g, animal, None, ())
        s[E.N_DECK] -= 1
        top = int(s[E.DECK + s[E.N_DECK]])
        if where == E.L_DECK:
            s[E.DECK + i] = top
        else:
            s[E.PARK + i] = top
            s[E.TILE_LOC + top] = E.L_PARK
        E.give_tile(s, g._comp, t, p)


def codes(g: YosemiteGame) -> set[int]:
    return {a.code for a in g.legal_actions()}


def animal_dests(g: YosemiteGame) -> set[int]:
    return {a.square for a in g.legal_actions() if a.kind == "animal move"}


def push_dests(g: YosemiteGame) -> set[int]:
    return {a.square for a in g.legal_actions() if a.kind == "push"}


def check_invariants(s, cfg: YosemiteConfig) -> None:
    """Tiles conserved and in one place each, fish 0-max, pawns apart, photos conserved."""
    comp = cfg.components
    locs = [int(s[E.TILE_LOC + t]) for t in range(E.N_ALL_TILES)]
    park = [int(s[E.PARK + q]) for q in range(E.N_SQ)]
    assert sorted(t for t in park) == sorted(t for t in range(E.N_ALL_TILES)
                                              if locs[t] == E.L_PARK)
    assert len(set(park)) == E.N_SQ and min(park) >= 0
    deck = [int(s[E.DECK + i]) for i in range(int(s[E.N_DECK]))]
    assert sorted(deck) == [t for t in range(E.N_ALL_TILES) if locs[t] == E.L_DECK]
    for p in range(2):
        held = [t for t in range(E.N_TILES) if locs[t] == E.L_HAND and s[E.TILE_OWNER + t] == p]
        assert len(held) == E.hand_size(s, p) <= cfg.hand_limit
        assert 0 <= s[E.FISH + p] <= comp.max_fish
    assert all(locs[t] in (E.L_DECK, E.L_PARK) for t in range(E.N_TILES, E.N_ALL_TILES))
    assert s[E.POS] != s[E.POS + 1]
    taken = sum(s[E.PHOTO_LOC + ph] == E.P_TAKEN for ph in range(E.N_PHOTOS))
    assert taken == s[E.PHOTOS] + s[E.PHOTOS + 1]
    assert abs(s[E.CAMP]) <= len(comp.camping_track)
    assert s[E.TENTS] + s[E.TENTS + 1] + s[E.TENT_SUPPLY] == comp.tent_tokens


def empty_hand(g: YosemiteGame, p: int) -> None:
    """Discard every tile in p's hand (face up, as the engine discards)."""
    s = g.state
    for a in range(5):
        while s[E.HAND + p * 5 + a]:
            E.discard_tile(s, g._comp, p, a)


def show_photo(g: YosemiteGame, slot: int, photo: int) -> None:
    """Photo `photo` face up in `slot`; the photo there goes back to the box."""
    s = g.state
    if s[E.SLOT + slot] >= 0:
        s[E.PHOTO_LOC + s[E.SLOT + slot]] = E.P_BOX
    if s[E.PHOTO_LOC + photo] == E.P_DECK:  # keep the deck whole: a box photo takes its place
        box = next(ph for ph in range(E.N_PHOTOS) if s[E.PHOTO_LOC + ph] == E.P_BOX)
        i = next(i for i in range(int(s[E.N_PHOTO_DECK])) if s[E.PHOTO_DECK + i] == photo)
        s[E.PHOTO_DECK + i] = box
        s[E.PHOTO_LOC + box] = E.P_DECK
    s[E.SLOT + slot] = photo
    s[E.PHOTO_LOC + photo] = E.P_SLOT


def photo_needing(g: YosemiteGame, animals) -> int:
    comp = g.config.components
    return next(i for i, p in enumerate(comp.photos) if sorted(p.animals) == sorted(animals))


def hand(g: YosemiteGame, p: int) -> list[int]:
    return [int(g.state[E.HAND + p * 5 + a]) for a in range(5)]


def pay_options(g: YosemiteGame) -> list[int]:
    return sorted(a.count for a in g.legal_actions() if a.kind == "pay")


def camera_turn(hand_tiles, config=None, other=None):
    """Player 0 holds `hand_tiles` ({animal: count}) and collects a fox camera tile with El
    Capitan (2 rattlesnakes, a bear, a fox; 4 points) face up in slot 0 (`other` in slot 1)."""
    g = game_in_turn(p0=sq(0, 0), p1=sq(4, 4), config=config)
    empty_hand(g, 0)
    el_cap = photo_needing(g, [SNAKE, SNAKE, BEAR, FOX])
    show_photo(g, 0, el_cap)
    if other is not None:
        show_photo(g, 1, photo_needing(g, other))
    for animal, k in hand_tiles.items():
        give(g, 0, animal, k)
    put(g, sq(0, 0), FOX, CAMERA)
    g.apply(code(E.A_ANIMAL, sq(0, 1)))
    return g, el_cap
