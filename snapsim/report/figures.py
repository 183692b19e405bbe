"""Matplotlib figures for reports; each carries its sample size and seed in a footnote."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DPI = 80


def _finish(fig, note: str) -> bytes:
    fig.text(0.99, 0.01, note, ha="right", va="bottom", fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    plt.close(fig)
    return buf.getvalue()


def bars(df: pd.DataFrame, x: str, y: str, lo: str | None, hi: str | None, title: str,
         note: str, hue: str | None = None, ref: float | None = None, ylabel: str = "",
         dodge: bool = True) -> bytes:
    """Bars with confidence-interval whiskers, optionally coloured by `hue` (side by side when
    `dodge`), with a reference line (e.g. the fair share)."""
    xs = list(dict.fromkeys(df[x].astype(str)))
    fig, ax = plt.subplots(figsize=(max(7, 0.28 * len(xs)), 3.8))
    groups = [None] if hue is None else list(dict.fromkeys(df[hue]))
    width = 0.8 / len(groups) if dodge else 0.8
    for k, g in enumerate(groups):
        sub = df if g is None else df[df[hue] == g]
        shift = (k - (len(groups) - 1) / 2) * width if dodge else 0.0
        pos = np.array([xs.index(v) for v in sub[x].astype(str)]) + shift
        err = None
        if lo is not None:
            err = np.vstack([sub[y] - sub[lo], sub[hi] - sub[y]]).clip(min=0)
        ax.bar(pos, sub[y], width=width * 0.95, yerr=err, capsize=2,
               label=None if g is None else f"{hue}={g}")
    if ref is not None and np.isscalar(ref):
        ax.axhline(ref, color="0.3", lw=1, ls="--")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, rotation=30 if max(len(s) for s in xs) > 6 else 0, ha="right"
                       if max(len(s) for s in xs) > 6 else "center", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel or y)
    if hue is not None:
        ax.legend(fontsize=7, ncol=min(len(groups), 4))
    return _finish(fig, note)


def heatmap(matrix: pd.DataFrame, title: str, note: str, fmt: str = "{:.2f}") -> bytes:
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    data = matrix.to_numpy(dtype=float)
    im = ax.imshow(data, cmap="RdBu_r", vmin=0, vmax=1)
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_xticklabels(matrix.columns, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(matrix.shape[0]))
    ax.set_yticklabels(matrix.index, fontsize=8)
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if np.isfinite(data[i, j]):
                ax.text(j, i, fmt.format(data[i, j]), ha="center", va="center", fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046)
    return _finish(fig, note)


def lines(df: pd.DataFrame, x: str, ys: list[str], title: str, note: str,
          panels: str | None = None, ylabel: str = "") -> bytes:
    """One panel per value of `panels` (or one panel), a line per column in `ys`."""
    keys = [None] if panels is None else list(dict.fromkeys(df[panels]))
    fig, axes = plt.subplots(1, len(keys), figsize=(min(3.2 * len(keys), 12), 3.2),
                             squeeze=False)
    for ax, key in zip(axes[0], keys, strict=True):
        sub = df if key is None else df[df[panels] == key]
        for y in ys:
            ax.plot(sub[x].astype(str), sub[y], marker="o", label=y)
        ax.set_title(str(key) if key is not None else title, fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0][0].set_ylabel(ylabel)
    axes[0][0].legend(fontsize=7)
    if panels is not None:
        fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


def histogram(values: pd.Series, title: str, note: str, xlabel: str) -> bytes:
    fig, ax = plt.subplots(figsize=(6, 3.2))
    counts = values.value_counts(normalize=True).sort_index()
    ax.bar(counts.index.astype(str), counts.to_numpy())
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    return _finish(fig, note)


def _by_unit(rows: pd.DataFrame):
    """A figure with one panel per unit: rates (shown in percent) and each other unit."""
    units = list(dict.fromkeys(rows["unit"]))
    fig, axes = plt.subplots(1, len(units), figsize=(min(6.5 * len(units), 13),
                                                     max(2.4, 0.32 * len(rows) + 1.2)),
                             squeeze=False)
    panels = [(ax, rows[rows["unit"] == unit], 100.0 if unit == "rate" else 1.0, unit)
              for ax, unit in zip(axes[0], units, strict=True)]
    return fig, panels


def differences(rows: pd.DataFrame, title: str, note: str) -> bytes:
    """Forest plot of variant - baseline with 95% CIs; filled markers are significant."""
    fig, panels = _by_unit(rows)
    for ax, sub, scale, unit in panels:
        y = np.arange(len(sub))[::-1]
        d = sub["diff"].to_numpy() * scale
        err = np.vstack([d - sub["ci_low"].to_numpy() * scale,
                         sub["ci_high"].to_numpy() * scale - d]).clip(min=0)
        sig = sub["significant"].to_numpy(bool)
        ax.errorbar(d, y, xerr=err, fmt="none", ecolor="0.3", capsize=2)
        ax.scatter(d[sig], y[sig], color="C3", zorder=3, label="significant")
        ax.scatter(d[~sig], y[~sig], facecolor="white", edgecolor="C0", zorder=3,
                   label="not significant")
        ax.axvline(0, color="0.5", lw=1, ls="--")
        ax.set_yticks(y)
        ax.set_yticklabels(sub["measure"], fontsize=7)
        ax.set_xlabel("difference (percentage points)" if unit == "rate"
                      else f"difference ({unit})")
        ax.legend(fontsize=6, loc="best")
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


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
                    color=f"C{k}", label=side)
        ax.set_yticks(y)
        ax.set_yticklabels(sub["measure"], fontsize=7)
        ax.set_xlabel("percent" if unit == "rate" else unit)
        ax.legend(fontsize=6, loc="best")
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


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
                        marker="o", ms=3, capsize=2, label=g)
        ax.set_title(name, fontsize=8)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, fontsize=7, rotation=30 if max(map(len, xs)) > 6 else 0)
        ax.set_ylabel("percent" if rate else sub["unit"].iloc[0], fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
    for ax in axes.flat[len(names):]:
        ax.axis("off")
    if hue is not None:
        axes[0][0].legend(fontsize=6)
    fig.suptitle(title, fontsize=10)
    return _finish(fig, note)


def value_heatmap(matrix: pd.DataFrame, title: str, note: str, fmt: str = "{:.3g}",
                  mark: tuple[int, int] | None = None) -> bytes:
    """One measure over two knobs (rows x columns), coloured on its own range; `mark`
    outlines one cell (row, column), e.g. the best setting."""
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
                ax.text(j, i, fmt.format(data[i, j]), ha="center", va="center", fontsize=8,
                        color="white" if data[i, j] < middle else "black")
    if mark is not None:
        ax.add_patch(plt.Rectangle((mark[1] - 0.5, mark[0] - 0.5), 1, 1, fill=False,
                                   edgecolor="red", lw=2.5))
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046)
    return _finish(fig, note)
