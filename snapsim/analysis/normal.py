"""The normal and Student t quantiles and tails behind every interval and test, from
`scipy.special`: the functions `scipy.stats.norm` and `scipy.stats.t` call, so the values are
theirs to the last bit, without importing `scipy.stats` (about a second on every command
that prints an interval)."""

from __future__ import annotations

from scipy import special


def norm_ppf(q):
    """The standard normal quantile (`scipy.stats.norm.ppf`)."""
    return special.ndtri(q)


def norm_isf(q):
    """The standard normal upper-tail quantile (`scipy.stats.norm.isf`)."""
    return -special.ndtri(q)


def norm_cdf(x):
    """The standard normal distribution function (`scipy.stats.norm.cdf`)."""
    return special.ndtr(x)


def norm_sf(x):
    """The standard normal upper tail (`scipy.stats.norm.sf`)."""
    return special.ndtr(-x)


def t_ppf(q, df):
    """Student's t quantile with `df` degrees of freedom (`scipy.stats.t.ppf`)."""
    return special.stdtrit(df, q)
