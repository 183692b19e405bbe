"""analysis.normal gives scipy.stats' normal and t values to the last bit (it calls the
functions they call), on arrays and scalars, in the tails and at the usual levels."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from snapsim.analysis.normal import norm_cdf, norm_isf, norm_ppf, norm_sf, t_ppf
from snapsim.analysis.stats import mean_interval

RNG = np.random.default_rng(7)
Q = np.concatenate([RNG.random(5000), [1e-300, 1e-12, 0.025, 0.5, 0.8, 0.975, 1 - 1e-12]])
X = np.concatenate([RNG.normal(size=5000) * 5, [-40.0, -8.0, 0.0, 1.959963984540054, 38.0]])


def test_the_normal_functions_are_scipy_stats_values_bit_for_bit():
    np.testing.assert_array_equal(norm_ppf(Q), stats.norm.ppf(Q))
    np.testing.assert_array_equal(norm_isf(Q), stats.norm.isf(Q))
    np.testing.assert_array_equal(norm_cdf(X), stats.norm.cdf(X))
    np.testing.assert_array_equal(norm_sf(X), stats.norm.sf(X))
    assert norm_ppf(0.975) == stats.norm.ppf(0.975) and norm_sf(2.0) == stats.norm.sf(2.0)


@pytest.mark.parametrize("df", [1, 2, 7, 30, 999])
def test_t_quantiles_are_scipy_stats_values_bit_for_bit(df):
    np.testing.assert_array_equal(t_ppf(Q[:-2], df), stats.t.ppf(Q[:-2], df))


@pytest.mark.parametrize("n,level", [(2, 0.95), (9, 0.9), (400, 0.99)])
def test_a_mean_interval_is_scipy_stats_t_interval(n, level):
    x = RNG.normal(3.0, 2.0, n)
    mean, lo, hi = mean_interval(x, level)
    want = stats.t.interval(level, n - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean == x.mean() and (lo, hi) == (float(want[0]), float(want[1]))
