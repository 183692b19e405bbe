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
