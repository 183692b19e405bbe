"""Bootstrap resamples of whole games, as counts: resample r draws game i counts[r, i] times,
so a resampled sum is one matrix product (counts @ values) instead of a copy of the games.

Every interval of the analysis layer resamples the games of one run (or of runs played on
the same deals) from a seed, and a rebalance, a comparison or a report asks again for the
same (games, resamples, seed) many times: for each candidate, line-up and measure. The
counts are drawn once and kept (one byte each, at most KEPT_BYTES a set and four sets, the
last used), so every later interval reads them back: the same numbers, drawn once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np

KEPT_BYTES = 100_000_000  # a set of counts kept for reuse up to this size (a byte a count)


def count_blocks(n: int, reps: int, seed: int, block: int,
                 streams: int = 1) -> Iterator[tuple[int, list[np.ndarray]]]:
    """(first resample, counts) per block of `block` resamples of `n` games, `reps` in all,
    from the seed's generator; `streams` independent resamplings drawn side by side (each
    block draws each stream's games in turn), counts (rows, n) as floats, one per stream."""
    block = max(1, min(block, reps))
    if reps * n * streams <= KEPT_BYTES:
        kept = _kept(n, reps, seed, block, streams)
        for start in range(0, reps, block):
            yield start, [c[start:start + block].astype(float) for c in kept]
        return
    rng = np.random.default_rng(seed)
    for start in range(0, reps, block):
        k = min(block, reps - start)
        yield start, [_draw(rng, n, k).astype(float) for _ in range(streams)]


def _draw(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """k resamples of n games: each game's count of draws, (k, n)."""
    picks = rng.integers(0, n, (k, n)) + (np.arange(k) * n)[:, None]
    return np.bincount(picks.ravel(), minlength=k * n).reshape(k, n)


@functools.lru_cache(maxsize=4)
def _kept(n: int, reps: int, seed: int, block: int, streams: int) -> tuple[np.ndarray, ...]:
    """`count_blocks`' counts of every resample at once, one byte each (a game drawn more
    than 255 times in one resample of n games does not happen), read-only."""
    rng = np.random.default_rng(seed)
    out = tuple(np.empty((reps, n), np.uint8) for _ in range(streams))
    for start in range(0, reps, block):
        k = min(block, reps - start)
        for counts in out:
            counts[start:start + k] = _draw(rng, n, k)
    for counts in out:
        counts.flags.writeable = False
    return out
