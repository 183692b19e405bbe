"""Bootstrap counts: a resample's count of each game is what drawing games by index from
the seed's generator gives, whether the counts were kept for reuse or drawn afresh, and a
resampled sum is the sum over the drawn games."""

from __future__ import annotations

import numpy as np
import pytest

from snapsim.analysis import bootstrap, paired


def drawn(n: int, reps: int, seed: int, block: int, streams: int) -> list[np.ndarray]:
    """Each stream's games drawn by index, block by block, streams in turn: (reps, n)."""
    rng = np.random.default_rng(seed)
    out: list[list[np.ndarray]] = [[] for _ in range(streams)]
    for start in range(0, reps, block):
        for part in out:
            part.append(rng.integers(0, n, (min(block, reps - start), n)))
    return [np.vstack(p) for p in out]


@pytest.mark.parametrize("kept", [True, False])
@pytest.mark.parametrize("streams", [1, 2])
def test_counts_are_the_games_drawn_by_index(monkeypatch, kept, streams):
    if not kept:
        monkeypatch.setattr(bootstrap, "KEPT_BYTES", 0)
    n, reps, block = 200, 30, 7
    idx = drawn(n, reps, 11, block, streams)
    seen = 0
    for start, counts in bootstrap.count_blocks(n, reps, 11, block, streams):
        assert start == seen and len(counts) == streams
        for c, i in zip(counts, idx, strict=True):
            rows = i[start:start + len(c)]
            assert c.dtype == float and c.shape == (len(rows), n)
            np.testing.assert_array_equal(c, [np.bincount(r, minlength=n) for r in rows])
        seen += len(counts[0])
    assert seen == reps


def test_a_resampled_sum_is_the_sum_over_the_drawn_games():
    rng = np.random.default_rng(4)
    num, den = rng.random((200, 4)), np.ones((200, 4))
    (idx,) = drawn(200, 30, 1, 30, 1)
    ((_, (counts,)),) = bootstrap.count_blocks(200, 30, 1, 30)
    s_num, s_den = paired._Stacked(num, den).sums(counts)
    np.testing.assert_allclose(s_num, num[idx].sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(s_den, den[idx].sum(axis=1), rtol=1e-12)


def test_kept_counts_are_read_only_and_reused():
    first = bootstrap._kept(50, 10, 3, 4, 1)
    assert bootstrap._kept(50, 10, 3, 4, 1) is first
    with pytest.raises(ValueError):
        first[0][0, 0] = 9
