"""Pieces every game engine shares: state-vector layouts, counter-based random streams,
seeding by game index, seat rotation, and policies as a kind plus a parameter vector.

Engines keep their whole state in one int64 vector (fields at fixed offsets) and draw
randomness from splitmix64 streams held in a small uint64 array, so a game is a pure
function of (config, policies, seed, game index) on any thread, process or machine.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import event, ir_utils
from numba.extending import intrinsic, overload

from ..errors import InputError
from .checks import number, whole


def kernel(fn=None, **options):
    """numba's `njit` as the hot game kernels use it: cached, and numpy's error model (an
    integer division compiles no ZeroDivisionError path: the kernels' divisors are counts and
    knobs validated >= 1). `@kernel` or `@kernel(inline="always")`."""
    jit = njit(cache=True, error_model="numpy", **options)
    return jit if fn is None else jit(fn)


# ---------------------------------------------------------------- raw views
# The hot kernels take their arrays as raw pointers (`pointer`). numba counts a reference to
# every array argument of a function that calls another, on entry and on exit (two calls of
# its runtime, one atomic each): with a rule of a few operations called hundreds of times a
# game, with five or six arrays each, that counting was most of the engine's time. A pointer
# is not counted. The kernels only index what they are given (no slicing, no shape), so the
# same source runs on arrays: on the interpreted path (NUMBA_DISABLE_JIT=1) `pointer` and its
# companions return flat numpy views instead. The caller keeps the arrays alive; a pointer is
# valid only while the call that made it runs, and the arrays must be C-contiguous.


def pointer(arr):
    """A flat, uncounted view of `arr` (compiled: its data pointer; a pointer stays itself)."""
    if not arr.flags.c_contiguous:
        raise ValueError("pointer() needs a C-contiguous array")
    return arr.reshape(-1)


def shifted(view, k):
    """The memory of `view` from element k on."""
    return view[k:]


def as_floats(view):
    """The 8-byte integers of `view` read and written as float64."""
    return view.view(np.float64)


def as_uints(view):
    """The 8-byte integers of `view` read and written as uint64 (random streams)."""
    return view.view(np.uint64)


@intrinsic
def _data_pointer(typingctx, arr):
    if isinstance(arr, types.CPointer):
        return arr(arr), lambda context, builder, sig, args: args[0]
    if not isinstance(arr, types.Array) or arr.layout != "C":
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen


@intrinsic
def _shifted(typingctx, ptr, k):
    if not isinstance(ptr, types.CPointer) or not isinstance(k, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.gep(args[0], [args[1]])

    return ptr(ptr, k), codegen


def _bitcast(ptr, dtype):
    """The typing and codegen of a pointer to 8-byte items read as one to `dtype` items."""
    if not isinstance(ptr, types.CPointer) or ptr.dtype.bitwidth != 64:
        return None
    sig = types.CPointer(dtype)(ptr)

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(sig.return_type))

    return sig, codegen


@intrinsic
def _as_floats(typingctx, ptr):
    return _bitcast(ptr, types.float64)


@intrinsic
def _as_uints(typingctx, ptr):
    return _bitcast(ptr, types.uint64)


def _aliases_its_first_argument(lhs, args, alias_map, arg_aliases):
    """numba's alias analysis: the result of `pointer` and its companions is the memory of
    their first argument. numba's dead-code pass runs on a kernel after it inlines an
    overload into it, and takes a write through a view made there for a write to a fresh
    local object, dropped when the view is not used again. The overloads below are not
    inlined (LLVM inlines them, at no cost), so that pass does not run on the kernels for
    them; where it runs for another reason, this keeps such writes (through a view assigned
    directly, not unpacked from a tuple)."""
    rhs = args[0].name
    if rhs in arg_aliases:
        arg_aliases.add(lhs)
    else:
        alias_map.setdefault(rhs, set()).add(lhs)
        alias_map.setdefault(lhs, set()).add(rhs)


for _view in ("pointer", "shifted", "as_floats", "as_uints", "_data_pointer", "_shifted",
              "_as_floats", "_as_uints"):
    ir_utils.alias_func_extensions[(_view, __name__)] = _aliases_its_first_argument


@overload(pointer)
def _pointer_jit(arr):
    return lambda arr: _data_pointer(arr)


@overload(shifted)
def _shifted_jit(view, k):
    return lambda view, k: _shifted(_data_pointer(view), k)


@overload(as_floats)
def _as_floats_jit(view):
    return lambda view: _as_floats(_data_pointer(view))


@overload(as_uints)
def _as_uints_jit(view):
    return lambda view: _as_uints(_data_pointer(view))


# ---------------------------------------------------------------- bit masks
# Card sets as int64 bit masks (bit c: card c): one machine instruction to count them or to
# find the first, compiled; plain Python on the interpreted path. Plain overloads, not
# inlined, for the reason given at `_aliases_its_first_argument` (LLVM inlines them).


def bit_count(m):
    """The number of set bits of a non-negative integer."""
    return bin(int(m)).count("1")


def low_bit(m):
    """The index of the lowest set bit of a nonzero non-negative integer."""
    m = int(m)
    return (m & -m).bit_length() - 1


def _integer_op(x, op):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return op(builder, args[0])

    return x(x), codegen


@intrinsic
def _ctpop(typingctx, x):
    return _integer_op(x, lambda builder, v: builder.ctpop(v))


@intrinsic
def _cttz(typingctx, x):  # zero is undefined: callers pass a nonzero mask
    return _integer_op(x, lambda builder, v: builder.cttz(v, ir.Constant(ir.IntType(1), 1)))


@overload(bit_count)
def _bit_count_jit(m):
    return lambda m: _ctpop(m)


@overload(low_bit)
def _low_bit_jit(m):
    return lambda m: _cttz(m)


class Layout:
    """Allocates named fields of an int64 state vector: `X = layout.field("X", size)`."""

    def __init__(self):
        self.sizes: dict[str, int] = {}

    def field(self, name: str, size: int = 1) -> int:
        """Reserve `size` slots for `name` after the fields so far; returns its offset."""
        start = sum(self.sizes.values())
        self.sizes[name] = size
        return start

    @property
    def size(self) -> int:
        """Slots allocated so far: the length of the state vector."""
        return sum(self.sizes.values())


# ---------------------------------------------------------------- random streams

_U64 = (1 << 64) - 1


def wrapping_add(a, b):
    """a + b modulo 2**64: what compiled uint64 arithmetic does, spelled out for the
    interpreted path (NUMBA_DISABLE_JIT=1), where numpy scalars would warn of overflow."""
    return np.uint64((int(a) + int(b)) & _U64)


def wrapping_mul(a, b):
    """a * b modulo 2**64 (see wrapping_add)."""
    return np.uint64((int(a) * int(b)) & _U64)


@overload(wrapping_add, inline="always")
def _wrapping_add_jit(a, b):
    return lambda a, b: np.uint64(a) + np.uint64(b)  # machine uint64: wraps by itself


@overload(wrapping_mul, inline="always")
def _wrapping_mul_jit(a, b):
    return lambda a, b: np.uint64(a) * np.uint64(b)


# The streams by number, as numpy scalars: a plain 0 or 1 passed to a compiled call is a
# constant numba compiles a version of the call for, one per stream.
CHANCE, POLICY = np.int64(0), np.int64(1)


@njit(cache=True)
def next_u64(rng, stream):
    """splitmix64: a tiny counter-based generator whose whole state is one uint64."""
    rng[stream] = wrapping_add(rng[stream], np.uint64(0x9E3779B97F4A7C15))
    z = rng[stream]
    z = wrapping_mul(z ^ (z >> np.uint64(30)), np.uint64(0xBF58476D1CE4E5B9))
    z = wrapping_mul(z ^ (z >> np.uint64(27)), np.uint64(0x94D049BB133111EB))
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def randint(rng, stream, n):
    """Uniform integer in 0..n-1 (53-bit multiply-shift; bias below 1e-15)."""
    return np.int64(((next_u64(rng, stream) >> np.uint64(11)) * np.uint64(n)) >> np.uint64(53))


@njit(cache=True)
def shuffle(rng, items, n):
    """Fisher-Yates over items[:n] on the chance stream (stream 0)."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, CHANCE, i + 1)
        items[i], items[j] = items[j], items[i]


@kernel
def position_digest(st, n):
    """A 32-bit digest of st[:n] (FNV-1a over its numbers), as a float that sums exactly:
    the rollouts' sums of it tell moves that reach the same position from those that do
    not."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(n):
        h = wrapping_mul(h ^ np.uint64(st[i] & 0xFFFFFFFF), np.uint64(0x100000001B3))
    return np.float64(h >> np.uint64(32))


@kernel
def is_legal(buf, n, action):
    """Whether `action` is among the legal actions buf[:n]: a policy checks its choice."""
    found = False
    for i in range(n):
        if buf[i] == action:
            found = True
            break
    return found


@njit(cache=True)
def mix_seed(key, index):
    """Seed of stream `index` under root `key`: independent of how games are chunked."""
    tmp = np.empty(1, np.uint64)
    tmp[0] = key ^ wrapping_mul(index, np.uint64(0xD1B54A32D192ED03))
    next_u64(tmp, CHANCE)
    return next_u64(tmp, CHANCE)


@njit(cache=True)
def seed_stream(rng, stream, key, index):
    """rng[stream] = `mix_seed(key, index)`, worked out in rng[stream] itself, so that
    seeding a playout's streams allocates nothing."""
    rng[stream] = key ^ wrapping_mul(index, np.uint64(0xD1B54A32D192ED03))
    next_u64(rng, stream)
    rng[stream] = next_u64(rng, stream)


@njit(cache=True)
def game_rngs(key0, key1, game):
    """Stream 0: chance (shuffles, dice); stream 1: the policies' own random choices."""
    rng = np.empty(2, np.uint64)
    seed_game(rng, key0, key1, game)
    return rng


@njit(cache=True)
def seed_game(rng, key0, key1, game):
    """`game_rngs` into the caller's rng (a batch reuses one from game to game)."""
    seed_stream(rng, CHANCE, np.uint64(key0), np.uint64(game))
    seed_stream(rng, POLICY, np.uint64(key1), np.uint64(game))


@njit(cache=True)
def seat_policies(n, n_pol, game, rotate):
    """Policy index at each seat: line-up order, rotated by the game index if asked."""
    out = np.empty(n, np.int64)
    seat_into(out, n_pol, game, rotate)
    return out


@njit(cache=True)
def seat_into(out, n_pol, game, rotate):
    """`seat_policies` into the caller's out (its length: the seats)."""
    n = out.shape[0]
    shift = game % n if rotate else 0
    for s in range(n):
        out[s] = ((s + shift) % n) % n_pol


def run_blocks(kernel, count: int, *args, compiling: str = "") -> None:
    """kernel(lo, hi, *args) over games lo..hi-1 of 0..count-1, split into one block per
    numba thread (`numba.get_num_threads()`), the blocks side by side on Python threads.

    The batch kernels are compiled `nogil`, so the threads run them in parallel; numba's
    parallel compiler (prange) would compile each kernel's whole game about once more. A
    game's result depends only on its index, never on its block. `compiling` says what a
    first run compiles and how long that takes (`compile_notice`)."""
    import numba

    if count <= 0:
        return
    per = -(-count // max(1, min(numba.get_num_threads(), count)))
    blocks = [(lo, min(count, lo + per)) for lo in range(0, count, per)]
    with compile_notice(compiling):
        if len(blocks) == 1:
            kernel(0, count, *args)
            return
        pool = _block_pool()
        for done in [pool.submit(kernel, lo, hi, *args) for lo, hi in blocks]:
            done.result()


_POOL: list = []  # (process id, the pool): a forked child starts its own


def _block_pool():
    """The Python threads `run_blocks` runs its blocks on, started once per process (a
    report or a rebalance runs a thousand batches; starting two threads for each took
    seconds). As many as numba may run; blocks beyond them wait their turn."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    import numba

    if not _POOL or _POOL[0][0] != os.getpid():
        _POOL[:] = [(os.getpid(), ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS,
                                                     thread_name_prefix="snapsim-block"))]
    return _POOL[0][1]


class _FirstCompile(event.Listener):
    """Says `text` at the first compile it hears of (see `compile_notice`)."""

    def __init__(self, text: str, say=None):
        self.text = text
        self.say = say
        self.said = False

    def on_start(self, event):
        if not self.said:
            self.said = True
            if self.say is not None:
                self.say(self.text)
                return
            from tqdm import tqdm

            if getattr(tqdm, "_instances", None):  # a progress bar on show (not --quiet)
                tqdm.write(f"snapsim: compiling {self.text} (first run only: later runs "
                           "load them from the cache)", file=sys.stderr)

    def on_end(self, event):
        pass


@contextmanager
def compile_notice(text: str, say=None):
    """Within the block, the first kernel numba compiles (one not in its on-disk cache) is
    announced on one line, `text` saying what and how long it takes, above the progress bar
    on show; without one (library calls, --quiet) nothing is said. Loading kernels from the
    cache says nothing either. `say`: where the line goes instead, as `text` itself (a game
    at the terminal, which has no progress bar)."""
    if not text:
        yield
        return
    listener = _FirstCompile(text, say)
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)


def root_keys(seed: int) -> tuple[int, int]:
    """Two independent 64-bit keys from the user's seed (numpy SeedSequence)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"seed must be a whole number >= 0, got {seed!r}")
    k = np.random.SeedSequence(int(seed)).generate_state(2, dtype=np.uint64)
    return int(k[0]), int(k[1])


# ---------------------------------------------------------------- policies


@dataclass(frozen=True)
class Policy:
    """A policy kind and its parameter vector; `name` is what tables show."""

    name: str
    kind: int
    params: tuple[float, ...]


class Param(str):
    """A policy parameter's name that carries its valid range lo..hi (`whole`: a count or a
    0/1 switch); parse_policy checks every parameter of a policy against it."""

    def __new__(cls, name: str, lo: float, hi: float, whole: bool = False):
        self = super().__new__(cls, name)
        self.lo, self.hi, self.whole = lo, hi, whole
        return self

    def __reduce__(self):
        return Param, (str(self), self.lo, self.hi, self.whole)

    def check(self, value) -> float:
        """`value` as a float when it is in range; else a one-line InputError."""
        if self.whole and isinstance(value, float) and value.is_integer():
            value = int(value)
        return float((whole if self.whole else number)(value, self, self.lo, self.hi))


def parse_policy(spec, game: str, kinds: tuple[str, ...], param_names: tuple[Param, ...],
                 defaults: dict[str, tuple[float, ...]]) -> Policy:
    """Parse "greedy" or "cautious:max_risk=0.1:token_value=0.5" into a Policy; every
    parameter (given, default or from a tuned file) must lie in its Param range."""
    if isinstance(spec, Policy):
        return spec
    text = str(spec).strip()
    base, *overrides = text.split(":")
    base = base.strip().lower()
    if base not in defaults:
        raise InputError(f"unknown {game} policy {base!r}; choose from {', '.join(kinds)}")
    params = list(defaults[base])
    for item in filter(None, (s.strip() for s in overrides)):
        key, sep, val = item.partition("=")
        key = key.strip()
        if not sep or key not in param_names:
            raise InputError(f"policy {text!r}: {item!r} is not NAME=VALUE with NAME one of "
                             f"{', '.join(param_names)}")
        try:
            params[param_names.index(key)] = float(val)
        except ValueError:
            raise InputError(f"policy {text!r}: {key} needs a number, got {val!r}") from None
    try:
        params = [name.check(v) for name, v in zip(param_names, params, strict=True)]
    except InputError as exc:
        raise InputError(f"policy {text!r}: {exc}") from None
    return Policy(text, kinds.index(base), tuple(params))


def policy_arrays(policies) -> tuple[np.ndarray, np.ndarray]:
    """Kinds (n,) and parameters (n, width), zero-padded, as the numba kernels read a line-up."""
    kinds = np.array([p.kind for p in policies], np.int64)
    width = max(len(p.params) for p in policies)
    params = np.zeros((len(policies), width), np.float64)
    for i, p in enumerate(policies):
        params[i, :len(p.params)] = p.params
    return kinds, params


_SEATING: list[np.ndarray] = []  # kinds declared by the enclosing `seating` blocks


@contextmanager
def seating(policies):
    """Within the block, each line-up's kernels are compiled as if it also seated the kinds
    of `policies`: a job playing many line-ups of one field (a ladder) compiles them once
    instead of once per combination of kinds. A kind's flag only keeps its code in the
    kernel, so the games are the same either way. Python agents (no kind) are skipped."""
    _SEATING.append(np.array([p.kind for p in policies if isinstance(p, Policy)], np.int64))
    try:
        yield
    finally:
        _SEATING.pop()


def seated_kinds(kinds) -> np.ndarray:
    """`kinds` and those of the enclosing `seating` blocks: what a line-up's compile flags
    (each game's `uses_search`) are decided from."""
    return np.concatenate([np.asarray(kinds, np.int64).ravel(), *_SEATING])


def lineup_names(policies) -> list[str]:
    """Line-up names; a repeated policy gets a seat suffix so categories stay distinct."""
    names = [p.name for p in policies]
    return [f"{n}#{i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def result_table(columns, out_i: np.ndarray, out_f: np.ndarray, policies, first: int,
                 players: int):
    """A run's table from a kernel's recorder arrays: rows (game, seat) from game `first`,
    the integer `columns` (the first being the line-up index, shown as the policy's name)
    and the win share."""
    import pandas as pd

    count = len(out_i) // players
    data = {"game": np.repeat(np.arange(first, first + count), players),
            "seat": np.tile(np.arange(players), count),
            "players": np.full(len(out_i), players, np.int64),
            "policy": pd.Categorical.from_codes(out_i[:, 0],
                                                categories=lineup_names(policies))}
    for j, name in enumerate(columns[1:], 1):
        data[name] = out_i[:, j]
    data["won"] = out_f
    return pd.DataFrame(data)  # (all columns at once: a run of few games is mostly this)
