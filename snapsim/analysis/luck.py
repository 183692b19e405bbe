"""Luck and skill: how much of a game's result the players' skill decides, and how much the
deal.

**Duplicate play.** A line-up plays every deal once in each of its cyclic seat rotations: game
i of every rotation's run is dealt from the same random streams (the runner keys them by the
game index), as a duplicate bridge board is played at every table. A seat's result (a win
counts 1, a shared win 1/k) then splits into three parts:

- *skill*: which policy sits there (the policy's effect, the same on every deal);
- *the deal*: what this deal gives this seat whoever plays it (the seat's mean over the
  deal's rotations);
- *the rest*: how the deal's chance and the players' decisions play out together (dice
  rolled during play, draws that depend on earlier choices).

Each share is an omega squared (Hays 1963; Olejnik and Algina 2003, Psychological Methods
8(4)): (SS_part - df_part MS_rest) / (SS_total + MS_rest) from the two-way analysis of
variance with deal-seat cells and policies, which takes out the part of each sum of squares
that chance alone would give; its 95% interval is a percentile bootstrap over whole deals
(every rotation of a deal together). Taking that part out can leave a share below 0 (or the
rest's above 1) when the true share is near 0: a share is a proportion of variance, so the
estimate and each bootstrap replicate are read as 0 there (the usual convention for omega
squared), and every printed share lies within [0, 1]. Policies that play alike give a skill
share near 0 whatever the game; a game whose result the deal fixes gives a deal share near 1.

Win rates of the strongest policy against weaker line-ups (Duersch, Lambrecht and Oechssler
2020, "Measuring skill and chance in games", European Economic Review 127) say the same in a
designer's words: how often skill beats the fair share.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .bootstrap import count_blocks
from .effects import pct
from .normal import norm_ppf
from .paired import ALPHA, Ratio, rate_interval

PARTS = ("skill", "deal", "rest")
REPS = 1000


def rotations(lineup) -> list[list]:
    """The distinct cyclic seat rotations of a line-up, the line-up itself first."""
    lineup = list(lineup)
    out: list[list] = []
    for k in range(len(lineup)):
        rot = lineup[k:] + lineup[:k]
        if rot not in out:
            out.append(rot)
    return out


@dataclass(frozen=True)
class Decomposition:
    """Shares of a seat result's variance: `share[part]` with its 95% interval
    `ci[part]`, over `deals` deals and `results` seat results."""

    share: dict
    ci: dict
    deals: int
    results: int

    def text(self, part: str) -> str:
        lo, hi = self.ci[part]
        return f"{pct(self.share[part])} [{pct(lo)}, {pct(hi)}]"

    def row(self) -> dict:
        out = {"deals": self.deals, "results": self.results}
        for part in PARTS:
            out |= {f"{part}_share": self.share[part], f"{part}_share_ci_low": self.ci[part][0],
                    f"{part}_share_ci_high": self.ci[part][1]}
        return out


def _sufficient(df: pd.DataFrame, y: str) -> dict:
    """Per deal: its block, results n, sum S, sum of squares Q, sum over its cells of
    (cell sum)^2 / cell size C2, cells, and per (block, policy) level its sum and count."""
    deal = df["deal"].to_numpy()
    deals, d = np.unique(deal, return_inverse=True)
    values = df[y].to_numpy(float)
    block = df["block"].to_numpy() if "block" in df else np.zeros(len(df), int)
    blocks, b = np.unique(block, return_inverse=True)
    deal_block = np.zeros(len(deals), int)
    deal_block[d] = b
    if np.any(deal_block[d] != b):
        raise ValueError("a deal must belong to one block")
    policy = df["policy"].astype(str).to_numpy()
    levels, lv = np.unique(np.char.add(np.char.add(block.astype(str), "\x00"),
                                       policy.astype(str)), return_inverse=True)
    level_block = np.zeros(len(levels), int)
    level_block[lv] = b
    nd = len(deals)
    n = np.bincount(d, minlength=nd).astype(float)
    s = np.bincount(d, values, minlength=nd)
    q = np.bincount(d, values ** 2, minlength=nd)
    seat = df["seat"].to_numpy()
    cells, c = np.unique(d.astype(np.int64) * (int(seat.max()) + 1) + seat, return_inverse=True)
    cell_sum = np.bincount(c, values)
    cell_n = np.bincount(c).astype(float)
    cell_deal = cells // (int(seat.max()) + 1)
    c2 = np.bincount(cell_deal, cell_sum ** 2 / cell_n, minlength=nd)
    ncells = np.bincount(cell_deal, minlength=nd).astype(float)
    ps = np.zeros((nd, len(levels)))
    pn = np.zeros((nd, len(levels)))
    np.add.at(ps, (d, lv), values)
    np.add.at(pn, (d, lv), 1.0)
    onehot = np.zeros((nd, len(blocks)))
    onehot[np.arange(nd), deal_block] = 1.0
    return {"n": n, "s": s, "q": q, "c2": c2, "cells": ncells, "ps": ps, "pn": pn,
            "blocks": onehot, "level_block": level_block, "nblocks": len(blocks)}


def _shares(w: np.ndarray, st: dict) -> np.ndarray:
    """Skill, deal and rest shares for each row of deal weights `w` (reps, deals)."""
    B = st["blocks"]
    nb = w @ (st["n"][:, None] * B)
    sb = w @ (st["s"][:, None] * B)
    with np.errstate(invalid="ignore", divide="ignore"):
        base = np.nansum(sb ** 2 / nb, axis=1)
        n = nb.sum(axis=1)
        ss_tot = w @ st["q"] - base
        ss_rows = w @ st["c2"] - base
        ps, pn = w @ st["ps"], w @ st["pn"]
        ss_pol = np.nansum(ps ** 2 / pn, axis=1) - base
        live = (nb > 0).sum(axis=1)
        levels = (pn > 0).sum(axis=1)
        df_rows = w @ st["cells"] - live
        df_pol = levels - live
        df_res = n - (w @ st["cells"]) - df_pol
        ms_res = np.maximum(ss_tot - ss_rows - ss_pol, 0.0) / df_res
        total = ss_tot + ms_res
        skill = (ss_pol - df_pol * ms_res) / total
        deal = (ss_rows - df_rows * ms_res) / total
    return np.column_stack([skill, deal, 1 - skill - deal])


def decompose(results: pd.DataFrame, y: str = "won", reps: int = REPS,
              seed: int = 0) -> Decomposition:
    """Skill, deal and rest shares of the variance of `y` (omega squared) with bootstrap
    intervals over deals.

    `results` has one row per seat result: `deal` (results dealt alike), `seat`, `policy`,
    `y`, and optionally `block` (groups of deals played by the same set of policies, e.g. a
    ladder's tables: a policy's skill is measured within its block). Within a deal every seat
    must meet the policies of its block in the same proportions (every rotation, or every
    seat assignment, played), so the parts add up."""
    st = _sufficient(results, y)
    nd = len(st["n"])
    point = _shares(np.ones((1, nd)), st)[0]
    boot = [_shares(w, st)
            for _, (w,) in count_blocks(nd, reps, seed, 2_000_000 // max(nd, 1))]
    boot = np.clip(np.vstack(boot), 0.0, 1.0)
    point = np.clip(point, 0.0, 1.0)
    lo, hi = np.nanpercentile(boot, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)], axis=0)
    return Decomposition(dict(zip(PARTS, map(float, point), strict=True)),
                         {p: (float(a), float(b)) for p, a, b in zip(PARTS, lo, hi, strict=True)},
                         nd, len(results))


def duplicate_results(runs: list[pd.DataFrame]) -> pd.DataFrame:
    """One table of seat results from the runs of a line-up's rotations (each with fixed
    seats, on one seed): `deal` is the game index, shared by the rotations; a policy's
    repeated copies (greedy#2) count as one policy."""
    parts = [df[["game", "seat", "won"]].assign(
        deal=df.game.to_numpy(), policy=df.policy.astype(str).str.split("#").str[0].to_numpy())
        for df in runs]
    return pd.concat(parts, ignore_index=True)


def win_rate_over_deals(results: pd.DataFrame, policy: str) -> tuple[float, float, float]:
    """`policy`'s win rate over its seats with a 95% interval from the delta method over
    deals (the rotations of one deal are not independent), on the logit scale so that it
    stays within [0, 1]."""
    mine = (results.policy.astype(str) == policy).to_numpy()
    deals = results.deal.to_numpy()
    keys, d = np.unique(deals, return_inverse=True)
    num = np.bincount(d, np.where(mine, results.won.to_numpy(float), 0.0), len(keys))
    den = np.bincount(d, mine.astype(float), len(keys))
    r = Ratio(num, den)
    lo, hi = rate_interval(r, float(norm_ppf(1 - ALPHA / 2)))
    return r.value, lo, hi
