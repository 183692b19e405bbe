"""Matplotlib figures for reports; each carries its sample size and seed in a footnote."""

from __future__ import annotations

import functools
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from ..analysis.stats import wilson_interval  # noqa: E402

DPI = 80
# One palette for every figure of every game (Paul Tol's "bright" and "muted" schemes, safe
# for colour-blind readers): the same seat or player count has the same colour everywhere.
PALETTE = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb",
           "#332288", "#882255", "#117733", "#999933", "#ddcc77")
BY_NUMBER = ("players", "seat")  # groups whose n-th value takes the n-th colour
POLICY_ORDER = ("greedy", "cautious", "aggressive", "collector", "random", "trader",
                "lookahead", "rollout")
NEUTRAL = "0.3"  # reference lines and single series of a measure that is no group


def colour(group: str | None, key, index: int = 0) -> str:
    """The colour of one group value: player count and seat n take colour n (seat 1 and 1
    player the first); a policy keeps its colour in every figure; anything else is
    coloured in order of appearance."""
    if group in BY_NUMBER:
        return PALETTE[(int(key) - 1) % len(PALETTE)]
    if str(key) in POLICY_ORDER:
        return PALETTE[POLICY_ORDER.index(str(key)) % len(PALETTE)]
    return PALETTE[index % len(PALETTE)]


def _plain_text(draw):
    """Draw with every text shown as written: names come from designers' component files,
    and one holding `$` or a backslash (a card named `$\\frac{`) must not be read as a
    mathtext formula, which fails to parse or turns the name into other text."""
    @functools.wraps(draw)
    def plain(*args, **kwargs):
        with plt.rc_context({"text.parse_math": False, "text.usetex": False}):
            return draw(*args, **kwargs)
    return plain


def _finish(fig, note: str) -> bytes:
    fig.text(0.99, 0.01, note, ha="right", va="bottom", fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    return buf.getvalue()


def _whiskers(values, lo, hi) -> np.ndarray:
    """Error-bar lengths below and above each value (a missing bound draws none)."""
    v = np.asarray(values, float)
    return np.vstack([np.nan_to_num(v - np.asarray(lo, float)),
                      np.nan_to_num(np.asarray(hi, float) - v)]).clip(min=0)


def _xticks(ax, xs: list[str]) -> None:
    long = max(map(len, xs)) > 6
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, rotation=30 if long else 0, ha="right" if long else "center",
                       fontsize=8)


def _label(hue: str | None, legend):
    return legend if legend is not None else (lambda g: f"{hue} = {g}")


@_plain_text
def bars(df: pd.DataFrame, x: str, y: str, lo: str | None, hi: str | None, title: str,
         note: str, ylabel: str, hue: str | None = None, ref: float | None = None,
         dodge: bool = True, legend=None, xlabel: str = "") -> bytes:
    """Bars with their confidence-interval whiskers (`lo`, `hi`), coloured by `hue` (side by
    side when `dodge`) or, without one, by `x` when it is a seat or player count; `ref`
    draws a reference line (e.g. the fair share). `lo` = `hi` = None only for exact values
    (no sampling error), which the caption must say."""
    xs = list(dict.fromkeys(df[x].astype(str)))
    fig, ax = plt.subplots(figsize=(max(7, 0.28 * len(xs)), 3.8))
    groups = [None] if hue is None else list(dict.fromkeys(df[hue]))
    width = 0.8 / len(groups) if dodge else 0.8
    name = _label(hue, legend)
    for k, g in enumerate(groups):
        sub = df if g is None else df[df[hue] == g]
        shift = (k - (len(groups) - 1) / 2) * width if dodge else 0.0
        pos = np.array([xs.index(v) for v in sub[x].astype(str)]) + shift
        err = None if lo is None else _whiskers(sub[y], sub[lo], sub[hi])
        colours: str | list[str]
        if g is not None:
            colours = colour(hue, g, k)
        elif x in BY_NUMBER:
            colours = [colour(x, v) for v in sub[x]]
        else:
            colours = PALETTE[0]
        ax.bar(pos, sub[y], width=width * 0.95, color=colours, yerr=err, capsize=2,
               ecolor="black", label=None if g is None else name(g))
    if ref is not None:
        ax.axhline(ref, color=NEUTRAL, lw=1, ls="--")
    _xticks(ax, xs)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel or x.replace("_", " "))
    if hue is not None:
        ax.legend(fontsize=7, ncol=min(len(groups), 4))
    return _finish(fig, note)


@_plain_text
def heatmap(matrix: pd.DataFrame, lo: pd.DataFrame | None, hi: pd.DataFrame | None,
            title: str, note: str, label: str, fmt: str = "{:.0f}", vmin: float = 0,
            vmax: float = 100) -> bytes:
    """A matrix of estimates, each cell written with its interval [lo, hi] (same shape;
    None only for exact values); `label` names the colour scale and its unit."""
    fig, ax = plt.subplots(figsize=(6, 4.8))
    data = matrix.to_numpy(dtype=float)
    im = ax.imshow(data, cmap="RdBu_r", vmin=vmin, vmax=vmax)
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_xticklabels(matrix.columns, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(matrix.shape[0]))
    ax.set_yticklabels(matrix.index, fontsize=8)
    ax.set_xlabel(str(matrix.columns.name or ""))
    ax.set_ylabel(str(matrix.index.name or ""))
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if np.isfinite(data[i, j]):
                text = fmt.format(data[i, j])
                if lo is not None and hi is not None:
                    text += "\n[" + fmt.format(lo.iat[i, j]) + ", " + fmt.format(hi.iat[i, j]) + "]"
                ax.text(j, i, text, ha="center", va="center", fontsize=7)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046, label=label)
    return _finish(fig, note)


@_plain_text
def lines(df: pd.DataFrame, x: str, y: str, lo: str | None, hi: str | None, title: str,
          note: str, ylabel: str, panels: str | None = None, hue: str | None = None,
          legend=None, xlabel: str = "") -> bytes:
    """One panel per value of `panels` (or one panel), a line per value of `hue`, each point
    with its interval drawn as whiskers and a shaded band (`lo` = `hi` = None only for exact
    values, which the caption must say)."""
    keys = [None] if panels is None else list(dict.fromkeys(df[panels]))
    fig, axes = plt.subplots(1, len(keys), figsize=(min(3.2 * len(keys), 12) + 0.6, 3.3),
                             squeeze=False)
    name = _label(hue, legend)
    for ax, key in zip(axes[0], keys, strict=True):
        sub = df if key is None else df[df[panels] == key]
        xs = list(dict.fromkeys(sub[x].astype(str)))
        groups = [None] if hue is None else list(dict.fromkeys(sub[hue]))
        for k, g in enumerate(groups):
            s = sub if g is None else sub[sub[hue] == g]
            pos = [xs.index(v) for v in s[x].astype(str)]
            c = PALETTE[0] if g is None else colour(hue, g, k)
            err = None if lo is None else _whiskers(s[y], s[lo], s[hi])
            ax.errorbar(pos, s[y], yerr=err, marker="o", ms=3, capsize=2, color=c,
                        label=None if g is None else name(g))
            if lo is not None:
                ax.fill_between(pos, s[lo].to_numpy(float), s[hi].to_numpy(float), color=c,
                                alpha=0.2, lw=0)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, fontsize=7)
        ax.set_title(str(key) if key is not None else title, fontsize=9)
        ax.set_xlabel(xlabel or x.replace("_", " "), fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0][0].set_ylabel(ylabel)
    if hue is not None:
        axes[0][0].legend(fontsize=7)
    if panels is not None:
        fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


@_plain_text
def histogram(values: pd.Series, title: str, note: str, xlabel: str) -> bytes:
    """Share of games per value, in percent, with each share's 95% Wilson interval."""
    counts = values.value_counts().sort_index()
    n = int(counts.sum())
    lo, hi = wilson_interval(counts.to_numpy(), n)
    share = 100 * counts.to_numpy() / n
    fig, ax = plt.subplots(figsize=(6.5, 3.3))
    ax.bar(counts.index.astype(str), share, color=PALETTE[0],
           yerr=_whiskers(share, 100 * lo, 100 * hi), capsize=1.5, ecolor="black")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games (%)")
    if len(counts) > 20:
        ax.xaxis.set_major_locator(MaxNLocator(12))
    return _finish(fig, note)


def knob_lines(t: pd.DataFrame, measure: str, title: str, note: str, ylabel: str,
               percent: bool = False) -> bytes:
    """A knob sweep's `measure` (with its `_ci_low` and `_ci_high` columns) by knob value, a
    panel per knob (`lines`); a rate shown in percent (points) when `percent`."""
    cols = (measure, f"{measure}_ci_low", f"{measure}_ci_high")
    if percent:
        t = t.assign(**{c: 100 * t[c] for c in cols})
    return lines(t, "value", *cols, title, note, panels="knob", ylabel=ylabel,
                 xlabel="knob value")


def _by_unit(rows: pd.DataFrame):
    """A figure with one panel per unit: rates (shown in percent) and each other unit."""
    units = list(dict.fromkeys(rows["unit"]))
    fig, axes = plt.subplots(1, len(units), figsize=(min(6.5 * len(units), 13),
                                                     max(2.4, 0.32 * len(rows) + 1.2)),
                             squeeze=False)
    panels = [(ax, rows[rows["unit"] == unit], 100.0 if unit == "rate" else 1.0, unit)
              for ax, unit in zip(axes[0], units, strict=True)]
    return fig, panels


@_plain_text
def differences(rows: pd.DataFrame, title: str, note: str) -> bytes:
    """Forest plot of variant - baseline with 95% CIs; filled markers are meaningful changes
    (the `class` column), open ones the rest."""
    fig, panels = _by_unit(rows)
    for ax, sub, scale, unit in panels:
        y = np.arange(len(sub))[::-1]
        d = sub["diff"].to_numpy() * scale
        err = np.vstack([d - sub["ci_low"].to_numpy() * scale,
                         sub["ci_high"].to_numpy() * scale - d]).clip(min=0)
        sig = (sub["class"] == "meaningful").to_numpy(bool)
        ax.errorbar(d, y, xerr=err, fmt="none", ecolor=NEUTRAL, capsize=2)
        ax.scatter(d[sig], y[sig], color=PALETTE[1], zorder=3, label="meaningful")
        ax.scatter(d[~sig], y[~sig], facecolor="white", edgecolor=PALETTE[0], zorder=3,
                   label="negligible or unresolved")
        ax.axvline(0, color="0.5", lw=1, ls="--")
        ax.set_yticks(y)
        ax.set_yticklabels(sub["measure"], fontsize=7)
        ax.set_xlabel("difference (pp)" if unit == "rate"
                      else f"difference ({unit})")
        ax.legend(fontsize=6, loc="best")
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


@_plain_text
def sides(rows: pd.DataFrame, title: str, note: str) -> bytes:
    """Baseline and variant side by side, with 95% CIs where the measure has one."""
    fig, panels = _by_unit(rows)
    for ax, sub, scale, unit in panels:
        y = np.arange(len(sub))[::-1]
        for k, (side, value) in enumerate((("baseline", "baseline"),
                                           ("variant", "variant_value"))):
            v = sub[value].to_numpy() * scale
            lo = sub[f"{side}_ci_low"].to_numpy() * scale
            hi = sub[f"{side}_ci_high"].to_numpy() * scale
            err = np.vstack([np.nan_to_num(v - lo), np.nan_to_num(hi - v)]).clip(min=0)
            ax.barh(y + (0.2 if k == 0 else -0.2), v, height=0.38, xerr=err, capsize=2,
                    color=PALETTE[k], ecolor="black", label=side)
        ax.set_yticks(y)
        ax.set_yticklabels(sub["measure"], fontsize=7)
        ax.set_xlabel("%" if unit == "rate" else unit)
        ax.legend(fontsize=6, loc="best")
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


@_plain_text
def measure_panels(df: pd.DataFrame, x: str, hue: str | None, title: str, note: str) -> bytes:
    """One small panel per measure: `value` against `x` with 95% CI whiskers (`ci_low`,
    `ci_high`), a line per value of `hue`; rates in percent."""
    names = list(dict.fromkeys(df["measure"]))
    xs = list(dict.fromkeys(df[x].astype(str)))
    cols = min(4, len(names))
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols, 2.3 * rows + 0.6),
                             squeeze=False)
    for ax, name in zip(axes.flat, names, strict=False):
        sub = df[df["measure"] == name]
        rate = sub["unit"].iloc[0] == "rate"
        scale = 100.0 if rate else 1.0
        groups = [None] if hue is None else list(dict.fromkeys(sub[hue]))
        for g in groups:
            s = sub if g is None else sub[sub[hue] == g]
            v = s["value"].to_numpy(float) * scale
            err = np.vstack([np.nan_to_num(v - s["ci_low"].to_numpy(float) * scale),
                             np.nan_to_num(s["ci_high"].to_numpy(float) * scale - v)])
            ax.errorbar([xs.index(t) for t in s[x].astype(str)], v, yerr=err.clip(min=0),
                        marker="o", ms=3, capsize=2, label=g,
                        color=PALETTE[0] if g is None else colour(hue, g, groups.index(g)))
        ax.set_title(name, fontsize=8)
        ax.set_xlabel(x, fontsize=7)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, fontsize=7, rotation=30 if max(map(len, xs)) > 6 else 0)
        ax.set_ylabel("%" if rate else sub["unit"].iloc[0], fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
    for ax in axes.flat[len(names):]:
        ax.axis("off")
    if hue is not None:
        axes[0][0].legend(fontsize=6)
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


@_plain_text
def value_heatmap(matrix: pd.DataFrame, lo: pd.DataFrame, hi: pd.DataFrame, title: str,
                  note: str, label: str, fmt: str = "{:.3g}",
                  mark: tuple[int, int] | None = None) -> bytes:
    """One measure over two knobs (rows x columns), coloured on its own range, each cell
    written with its interval [lo, hi] (same shape); `mark` outlines one cell (row,
    column), e.g. the best setting; `label` names the colour scale and its unit."""
    fig, ax = plt.subplots(figsize=(max(5.5, 0.9 * matrix.shape[1] + 2.5),
                                    max(3.5, 0.6 * matrix.shape[0] + 1.8)))
    data = matrix.to_numpy(dtype=float)
    im = ax.imshow(data, cmap="viridis", aspect="auto")
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_xticklabels(matrix.columns.astype(str), fontsize=8)
    ax.set_yticks(range(matrix.shape[0]))
    ax.set_yticklabels(matrix.index.astype(str), fontsize=8)
    ax.set_xlabel(str(matrix.columns.name or ""))
    ax.set_ylabel(str(matrix.index.name or ""))
    middle = np.nanmean(data) if np.isfinite(data).any() else 0.0
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if np.isfinite(data[i, j]):
                text = (fmt.format(data[i, j]) + "\n[" + fmt.format(lo.iat[i, j]) + ", "
                        + fmt.format(hi.iat[i, j]) + "]")
                ax.text(j, i, text, ha="center", va="center", fontsize=7,
                        color="white" if data[i, j] < middle else "black")
    if mark is not None:
        ax.add_patch(plt.Rectangle((mark[1] - 0.5, mark[0] - 0.5), 1, 1, fill=False,
                                   edgecolor="red", lw=2.5))
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046, label=label)
    return _finish(fig, note)


@_plain_text
def pareto_front(front: pd.DataFrame, played: pd.DataFrame, note: str) -> bytes:
    """Rebalancing's trade-off: worst target value over its tolerance against the edit
    cost, every candidate played (grey) and the verified front (filled where every target
    is met); the tolerance is the dashed line at 1."""
    fig, ax = plt.subplots(figsize=(7, 4))
    ok = played[played.invalid.fillna("") == ""]
    ok = ok[np.isfinite(ok.ratio.to_numpy(float))]
    ax.scatter(ok.cost, ok.ratio, s=10, color="0.75", label="played in the search", zorder=1)
    f = front.sort_values("cost")
    ax.plot(f.cost, f.verified_ratio, color=PALETTE[0], lw=1, zorder=2)
    met = f.met.to_numpy(bool)
    ax.scatter(f.cost[met], f.verified_ratio[met], color=PALETTE[0], s=40, zorder=3,
               label="verified: every target met")
    ax.scatter(f.cost[~met], f.verified_ratio[~met], facecolor="white", edgecolor=PALETTE[0],
               s=40, zorder=3, label="verified: a target missed")
    rec = f[f.recommended.to_numpy(bool)]
    if len(rec):
        ax.scatter(rec.cost, rec.verified_ratio, marker="*", s=160, color=PALETTE[1],
                   zorder=4, label="recommended patch")
    ax.axhline(1.0, color="0.4", lw=1, ls="--")
    ax.set_xlabel("printed values changed (edit cost)")
    ax.set_ylabel("worst target value / tolerance")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title("Balance against edit cost (Pareto front)", fontsize=10)
    return _finish(fig, note)


@_plain_text
def fix_targets(df: pd.DataFrame, note: str) -> bytes:
    """Each target of each problem before and after its fix, as its value over its
    tolerance so targets in different units share one axis (one row per target: columns
    `label`, `before`, `greedy`, `strong`); dashed: the tolerance."""
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * len(df)))
    y = np.arange(len(df))[::-1]
    for col, label, colour_ in (("before", "before", PALETTE[6]),
                                ("greedy", "after, greedy play", PALETTE[0]),
                                ("strong", "after, strong line-up", PALETTE[1])):
        if col in df and df[col].notna().any():
            ax.scatter(df[col], y, color=colour_, s=36, label=label, zorder=3)
    ax.axvline(1.0, color="0.4", lw=1, ls="--")
    ax.set_yticks(y)
    ax.set_yticklabels(df.label, fontsize=7)
    ax.set_ylim(-0.7, len(df) - 0.3)
    ax.set_xlabel("target value / tolerance (at most 1: met)")
    ax.set_xlim(left=0)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Targets before and after the smallest fix", fontsize=10)
    fig.tight_layout()
    return _finish(fig, note)
