"""Shared helpers for the Snapshot rule and play tests.

Situations are built by poking the int64 state vector of a `SnapshotGame` (field offsets
from `engine`), then played through the public step API (`apply`), so every rule is checked
through the same path a user takes. Dice are predicted by running a copy of the game's chance
stream (`peek_rolls`): the engine rolls with `engine.roll` on stream 0, so a copy of that
stream tells exactly which faces the next rolls show.
"""

from __future__ import annotations

import numpy as np

from snapsim.games.snapshot import SnapshotConfig, SnapshotGame
from snapsim.games.snapshot import engine as E
from snapsim.games.snapshot import policies as P
from snapsim.sim.kernel import game_rngs, root_keys

HAB = {"Shoreline": 0, "Savannah": 1, "Mountain": 2, "Rainforest": 3}
SHORE, SAV, MOUNT, RAIN = 0, 1, 2, 3


def code(kind: int, arg: int = 0) -> int:
    """Action code of `kind` with argument `arg` (the engine's encoding)."""
    return int(E.act(kind, arg))


DRAW, STOP, OFFER, PASS = code(E.A_DRAW), code(E.A_STOP), code(E.A_OFFER), code(E.A_PASS)
RESERVE, ACCEPT = code(E.A_RESERVE), code(E.A_ACCEPT)
RESERVED_DONE, DICE_DONE = code(E.A_RESERVED_DONE), code(E.A_DICE_DONE)
TOKENS_DONE, GIVE_UP = code(E.A_TOKENS_DONE), code(E.A_GIVE_UP)
REROLL_SUPPLY = code(E.A_REROLL, E.SUPPLY)


def place(h):
    return code(E.A_PLACE, h)


def spook(h):
    return code(E.A_SPOOK, h)


def die_hab(h):
    return code(E.A_DIE_HABITAT, h)


def die_on(c):
    return code(E.A_DIE_ANIMAL, c)


def token_on(c):
    return code(E.A_TOKEN, c)


def resolve(h):
    return code(E.A_RESOLVE, h)


def reroll_from(c):
    return code(E.A_REROLL, c)


def place_reserved(c):
    return code(E.A_PLACE_RESERVED, c)


# ---------------------------------------------------------------- building games


def new(config: SnapshotConfig | None = None, seed: int = 0, game: int = 0,
        policies=None) -> SnapshotGame:
    config = config or SnapshotConfig()
    return SnapshotGame(config, seed=seed, game=game,
                        policies=policies or ["random"] * config.players)


def cid(g: SnapshotGame, name: str) -> int:
    return g.config.components.card_index(name)


def in_game_cards(g: SnapshotGame) -> list[int]:
    return list(range(E.N_CARDS if g.config.raccoon else E.N_CARDS - 1))


def arrange(g: SnapshotGame, table=(), deck=(), discard=(), reserves=None, portfolios=None,
            tokens=None, cur: int = 0, rest: str = "deck") -> SnapshotGame:
    """Put the game at the start of player `cur`'s Research phase in a chosen situation.

    table: card names (natural habitat) or (name, habitat) pairs; deck: names in draw order
    (first drawn first); discard: names; reserves / portfolios: {player: [names]};
    tokens: one count per player; rest: where every other card of the game goes
    ("deck": under the named deck cards, "discard", or "box": out of the game).
    """
    st, cfg, comp = g.state, g._cfg, g._comp
    cards = g.config.components.cards
    for c in range(E.N_CARDS):
        st[E.LOC + c] = E.L_BOX
        st[E.OWNER + c] = -1
        st[E.ON_HAB + c] = -1
        st[E.SIDEWAYS + c] = 0
        st[E.DICE_ON + c] = 0
        st[E.TOK_ON + c] = 0
    for h in range(E.N_HAB):
        st[E.HAB_DICE + h] = 0
        st[E.RESOLVED + h] = 0
    n = g.config.players
    for p in range(E.MAX_PLAYERS):
        st[E.N_RESERVED + p] = 0
        st[E.PHOTOS + p] = 0
        st[E.SYM_COUNT + p] = 0
        st[E.COVER_DONE + p] = 0
        st[E.S_PRESTIGE + p] = 0
        st[E.S_AWARDS + p] = 0
        st[E.S_COVER + p] = 0
        st[E.S_ARTICLE + p] = 0
        for h in range(E.N_HAB):
            st[E.HAB_COUNT + p * E.N_HAB + h] = 0
        for k in range(E.N_CAT):
            st[E.AWARDS_WON + p * E.N_CAT + k] = 0
    for k in range(E.N_CAT):
        st[E.AWARD_NEXT + k] = 0
    used: set[int] = set()

    def take(name):
        c = cid(g, name)
        assert c not in used, f"{name} used twice in the arrangement"
        used.add(c)
        return c

    for item in table:
        name, h = (item, None) if isinstance(item, str) else item
        c = take(name)
        st[E.LOC + c] = E.L_TABLE
        st[E.ON_HAB + c] = cards[c].habitat if h is None else h
    for name in discard:
        st[E.LOC + take(name)] = E.L_DISCARD
    for p, names in (reserves or {}).items():
        for name in names:
            c = take(name)
            st[E.LOC + c] = E.L_RESERVE
            st[E.OWNER + c] = p
            st[E.N_RESERVED + p] += 1
    for p, names in (portfolios or {}).items():
        for name in names:
            c = take(name)
            st[E.LOC + c] = E.L_PORTFOLIO
            st[E.OWNER + c] = p
            E.add_photo(st, cfg, comp, p, c)
    top = [take(name) for name in deck]
    others = [c for c in in_game_cards(g) if c not in used]
    if rest == "discard":
        for c in others:
            st[E.LOC + c] = E.L_DISCARD
        others = []
    elif rest == "box":
        others = []
    order = others + top[::-1]  # the deck is drawn from its end
    for i, c in enumerate(order):
        st[E.DECK + i] = c
        st[E.LOC + c] = E.L_DECK
    st[E.N_DECK] = len(order)
    if tokens is not None:
        assert len(tokens) == n
        for p in range(n):
            st[E.TOKENS + p] = tokens[p]
    st[E.CUR] = cur
    st[E.DRAWN] = -1
    st[E.OFFERER] = -1
    st[E.ASKED] = -1
    st[E.RES_HAB] = -1
    st[E.POT] = 0
    st[E.PHASE] = E.PH_RESEARCH
    st[E.PLACED_TURN] = 0
    st[E.PHOTOS_TURN] = 0
    E.index_cards(st, comp)
    P.clear_memory(g._memory)  # no plan for the arranged turn yet
    st[E.DICE_LEFT] = cfg[E.C_DICE]
    st[E.END_TRIGGERED] = 0
    return g


def legal(g: SnapshotGame) -> set[int]:
    return {a.code for a in g.legal_actions()}


def kinds(g: SnapshotGame) -> set[int]:
    return {int(E.act_kind(a.code)) for a in g.legal_actions()}


def play(g: SnapshotGame, *codes: int) -> SnapshotGame:
    """Apply scripted actions through the step API (each must be legal)."""
    for c in codes:
        g.apply(c)
    return g


def loc(g: SnapshotGame, name: str) -> int:
    return int(g.state[E.LOC + cid(g, name)])


def tok(g: SnapshotGame, p: int) -> int:
    return int(g.state[E.TOKENS + p])


def on_table(g: SnapshotGame, h: int | None = None) -> set[str]:
    comp = g.config.components
    return {comp.cards[c].name for c in range(E.N_CARDS)
            if g.state[E.LOC + c] == E.L_TABLE and (h is None or g.state[E.ON_HAB + c] == h)}


# ---------------------------------------------------------------- dice


def peek_rolls(g: SnapshotGame, n: int) -> list[int]:
    """The next n die faces the game will roll (a copy of its chance stream)."""
    rng = g._rng.copy()
    return [int(E.roll(rng)) for _ in range(n)]


def rolls_of(seed: int, game: int, n: int) -> list[int]:
    """The first n die faces of game `game` of seed `seed`, without building the game."""
    k0, k1 = root_keys(seed)
    rng = game_rngs(np.uint64(k0), np.uint64(k1), game)
    return [int(E.roll(rng)) for _ in range(n)]


def reseed(g: SnapshotGame, seed: int, game: int) -> None:
    """Give g the chance and policy streams of game `game` of seed `seed`."""
    k0, k1 = root_keys(seed)
    g._rng[:] = game_rngs(np.uint64(k0), np.uint64(k1), game)


def find_game(pred, n: int, seed: int = 0, start: int = 0, limit: int = 20000) -> int:
    """First game index whose first n die faces satisfy pred (for scripted dice)."""
    for i in range(start, start + limit):
        if pred(rolls_of(seed, i, n)):
            return i
    raise AssertionError("no game index gives the wanted dice")


def with_rolls(g: SnapshotGame, pred, n: int, seed: int = 0) -> list[int]:
    """Reseed g so its next n faces satisfy pred; return those faces."""
    i = find_game(pred, n, seed)
    reseed(g, seed, i)
    return peek_rolls(g, n)


# ---------------------------------------------------------------- invariants


def card_places(st) -> np.ndarray:
    return np.asarray(st[E.LOC:E.LOC + E.N_CARDS])


CARD_BITS = np.int64(1) << np.arange(E.N_CARDS, dtype=np.int64)  # card c's bit in a card set


def check_invariants(g: SnapshotGame) -> None:
    """Every card in exactly one place, the deck list agrees with LOC, tokens never negative,
    reserves within the limit and equal to the reserved cards."""
    st = g.state
    cfg = g.config
    n = cfg.players
    locs = card_places(st)
    n_in_game = 37 if cfg.raccoon else 36
    assert ((locs >= E.L_DECK) & (locs <= E.L_BOX)).all()
    assert (locs != E.L_BOX).sum() == n_in_game
    if not cfg.raccoon:
        assert locs[E.RACCOON] == E.L_BOX
    n_deck = int(st[E.N_DECK])
    deck = sorted(int(c) for c in st[E.DECK:E.DECK + n_deck])
    assert deck == sorted(np.flatnonzero(locs == E.L_DECK).tolist()), "deck list != LOC"
    counts = np.bincount(locs, minlength=E.L_BOX + 1)
    assert counts[:E.L_BOX].sum() == n_in_game
    ons = np.asarray(st[E.ON_HAB:E.ON_HAB + E.N_CARDS])
    for where in range(E.N_LOC):  # the card sets the rules keep agree with LOC and ON_HAB
        assert int(st[E.AT + where]) == int(CARD_BITS[locs == where].sum())
    for h in range(E.N_HAB):
        on = np.flatnonzero((locs == E.L_TABLE) & (ons == h))
        assert int(st[E.HAB_CARDS + h]) == int(CARD_BITS[on].sum())
        tops = [int(E.card_difficulty(st, g._comp, c)) for c in on]
        assert int(st[E.HAB_TOP + h]) == max(tops, default=0)
    drawn = np.flatnonzero(locs == E.L_DRAWN).tolist()
    assert len(drawn) <= 1
    if drawn:
        assert drawn[0] == st[E.DRAWN]
    tok = np.asarray(st[E.TOKENS:E.TOKENS + n])
    assert (tok >= 0).all(), f"negative tokens {tok}"
    assert (np.asarray(st[E.TOK_ON:E.TOK_ON + E.N_CARDS]) >= 0).all()
    assert st[E.POT] >= 0
    owners = np.asarray(st[E.OWNER:E.OWNER + E.N_CARDS])
    for p in range(n):
        held = int(((locs == E.L_RESERVE) & (owners == p)).sum())
        assert held == st[E.N_RESERVED + p]
        assert held <= (cfg.reserve_limit if cfg.reserving else 0)
        photos = int(((locs == E.L_PORTFOLIO) & (owners == p)).sum())
        assert photos == st[E.PHOTOS + p]
    on_table = locs == E.L_TABLE
    assert (np.asarray(st[E.ON_HAB:E.ON_HAB + E.N_CARDS])[on_table] >= 0).all()
    # tokens and dice only on table cards
    assert (np.asarray(st[E.TOK_ON:E.TOK_ON + E.N_CARDS])[~on_table] == 0).all()
    assert (np.asarray(st[E.DICE_ON:E.DICE_ON + E.N_CARDS])[~on_table] == 0).all()
    if not cfg.tracking_tokens:
        assert (tok == 0).all()


def done_tokens(g: SnapshotGame) -> None:
    """End the token step if it is still open (placing the last token ends it by itself)."""
    if g.phase == "prepare: tokens":
        g.apply(TOKENS_DONE)


def finish_turn(g: SnapshotGame) -> None:
    """Resolve every remaining habitat (first one first), giving up failed explorations."""
    cur = int(g.state[E.CUR])
    while not g.is_over() and int(g.state[E.CUR]) == cur and g.phase in (
            "prepare: tokens", "photograph", "re-roll"):
        if g.phase == "prepare: tokens":
            g.apply(TOKENS_DONE)
        elif g.phase == "re-roll":
            g.apply(GIVE_UP)
        else:
            g.apply(min(legal(g)))
