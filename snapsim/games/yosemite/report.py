"""The Yosemite balance report: eight studies, each a section with findings, figures, tables.

Every number shown is computed here from seeded simulations and every finding is generated
from those numbers. Each study can be re-run alone (`analyses/yosemite_*.py`), which rewrites
its section and re-renders the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...analysis import balance as B
from ...report import Section
from ...report import figures as F
from ...report.studies import Runs, build_report, pct
from ...report.studies import study_main as shared_study_main
from .api import ANIMAL_KEYS
from .components import ANIMALS
from .config import YosemiteConfig

PARTS = ("photo_points", "camping", "judges", "landmarks")
ICONS = ("bonus_fish", "bonus_tent", "bonus_camera")
KNOBS = {"tiles_dealt": (3, (5,)), "photos_removed": (10, (8, 12)), "judges": (2, (1, 3)),
         "hand_limit": (10, (8, 12)), "wilds": (True, (False,))}
ROLLOUT_SHARE = 20  # the rollout player is slow: it plays games/20 games (at least 40)


class Ctx(Runs):
    """The shared run cache; Yosemite's runs are greedy against greedy unless told."""

    def sim(self, policies=("greedy", "greedy"), games=None, **knobs) -> pd.DataFrame:
        return super().sim(policies, games, **knobs)


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("game")
    return pd.DataFrame({"turns": g.turns.first(), "mean_score": g.score.mean()})


def slopes(df: pd.DataFrame, cols: list[str]) -> np.ndarray:
    """Least-squares points per unit of each column (with an intercept), over player-games."""
    x = np.column_stack([np.ones(len(df)), df[cols].to_numpy(float)])
    return np.linalg.lstsq(x, df.score.to_numpy(float), rcond=None)[0][1:]


# ---------------------------------------------------------------- 1 first player


def study_first(ctx: Ctx) -> Section:
    s = Section("1-first-player", 1, "1. First-player advantage",
                "Win rate of the player who placed a pawn first and moves first, tested against "
                "the fair 50% (Wilson 95% CIs; ties shared), for each mirror match-up.")
    rows = []
    for pol in ("greedy", "random"):
        df = ctx.sim((pol, pol))
        r = B.rates(df.assign(order=np.where(df["first"] == 1, "first", "second")), "order",
                    fair=0.5)
        rows.append(r.assign(policy=pol))
    t = B.with_flags(pd.concat(rows, ignore_index=True))
    s.tables["first_player"] = t
    s.figures["first_player"] = F.bars(t, "order", "win_rate", "ci_low", "ci_high",
                                       "Win rate by turn order", ctx.note(), hue="policy",
                                       ref=0.5, ylabel="win rate")
    s.captions["first_player"] = "First vs second player (95% Wilson CIs)"
    for r in t[t.order == "first"].itertuples():
        s.findings.append(f"{r.policy} mirror: the first player wins {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] "
                          f"({'significant' if r.significant else 'not significant'} after "
                          "Holm correction).")
    return s


# ---------------------------------------------------------------- 2 animals


def study_animals(ctx: Ctx) -> Section:
    s = Section("2-animals", 2, "2. Value of each animal's movement",
                "How often each movement is used per player-game (greedy mirror), the photo "
                "points taken on turns that used it (via the camera bonus) per use, and the "
                "score each use is worth by least squares over all player-games.")
    df = ctx.sim()
    uses = [f"use_{a}" for a in ANIMAL_KEYS]
    slope = slopes(df, uses)
    t = pd.DataFrame({
        "animal": ANIMALS,
        "uses_per_game": [df[u].mean() for u in uses],
        "share_of_moves": [df[u].sum() / df[uses].to_numpy().sum() for u in uses],
        "photo_points_per_use": [df[f"use_points_{a}"].sum() / max(df[f"use_{a}"].sum(), 1)
                                 for a in ANIMAL_KEYS],
        "score_per_use": slope})
    s.tables["animal_movements"] = t
    s.figures["animal_movements"] = F.bars(t, "animal", "score_per_use", None, None,
                                           "Score per use of each movement (least squares)",
                                           ctx.note(), ylabel="points per use")
    s.captions["animal_movements"] = "Marginal score per use of each animal's movement"
    most = t.loc[t.uses_per_game.idxmax()]
    best = t.loc[t.score_per_use.idxmax()]
    worst = t.loc[t.score_per_use.idxmin()]
    s.findings.append(f"Most used: {most.animal} ({most.uses_per_game:.2f} uses a game, "
                      f"{pct(most.share_of_moves)} of animal moves).")
    s.findings.append(f"Worth most per use: {best.animal} ({best.score_per_use:.2f} points); "
                      f"least: {worst.animal} ({worst.score_per_use:.2f}).")
    return s


# ---------------------------------------------------------------- 3 bonus icons


def study_bonuses(ctx: Ctx) -> Section:
    s = Section("3-bonuses", 3, "3. Bonus icons",
                "Tiles collected per player-game by bonus icon (greedy mirror) and the score "
                "each collected icon is worth by least squares over all player-games.")
    df = ctx.sim()
    t = pd.DataFrame({"icon": [i.removeprefix("bonus_") for i in ICONS],
                      "per_game": [df[i].mean() for i in ICONS],
                      "score_per_icon": slopes(df, list(ICONS))})
    s.tables["bonus_icons"] = t
    s.figures["bonus_icons"] = F.bars(t, "icon", "score_per_icon", None, None,
                                      "Score per collected bonus icon", ctx.note(),
                                      ylabel="points per tile")
    s.captions["bonus_icons"] = "Marginal score per bonus icon"
    order = t.sort_values("score_per_icon", ascending=False)
    s.findings.append("Icons by value: " + ", ".join(
        f"{r.icon} {r.score_per_icon:.2f} points ({r.per_game:.1f} a game)"
        for r in order.itertuples()) + ".")
    return s


# ---------------------------------------------------------------- 4 score parts


def study_scores(ctx: Ctx) -> Section:
    s = Section("4-scores", 4, "4. Where the points come from",
                "Mean points per player from photos, camping, judges and landmark tokens, and "
                "each part's share of the total, by policy (mirror matches).")
    parts = [ctx.sim((p, p)).assign(policy=p) for p in ("greedy", "random")]
    t = B.score_breakdown(pd.concat(parts, ignore_index=True), PARTS, by="policy")
    s.tables["score_parts"] = t
    long = t.melt(id_vars="policy", value_vars=[f"{p}_share" for p in PARTS], var_name="part",
                  value_name="share")
    long["part"] = long.part.str.removesuffix("_share")
    s.figures["score_parts"] = F.bars(long, "part", "share", None, None,
                                      "Share of the score by part", ctx.note(), hue="policy",
                                      ylabel="share of points")
    s.captions["score_parts"] = "Score composition"
    g = t.set_index("policy").loc["greedy"]
    s.findings.append("Greedy players score " + ", ".join(
        f"{pct(g[f'{p}_share'])} from {p.replace('_points', 's')}" for p in PARTS) + ".")
    return s


# ---------------------------------------------------------------- 5 landmarks and judges


def study_landmarks(ctx: Ctx) -> Section:
    s = Section("5-landmarks-judges", 5, "5. Landmark and judge balance",
                "For each landmark token: how often it is taken, what it scores its owner and "
                "the owner's win rate; for each judge: how often it is decided (not tied) when "
                "in play and the win rate of the player who takes it (greedy mirror; an owner "
                "whose CI excludes 50% is flagged).")
    df = ctx.sim()
    names = ctx.components.landmarks if ctx.components else YosemiteConfig().components.landmarks
    rows = []
    for i, name in enumerate(names):
        own = df[df[f"landmark{i}"] >= 0]
        r = B.rates(own.assign(landmark=name), "landmark", fair=0.5).iloc[0].to_dict()
        rows.append({**r, "taken": len(own) / df.game.nunique(),
                     "mean_points": own[f"landmark{i}"].mean()})
    lm = B.with_flags(pd.DataFrame(rows))
    s.tables["landmarks"] = lm
    s.figures["landmarks"] = F.bars(lm, "landmark", "mean_points", None, None,
                                    "Points a landmark token scores its owner", ctx.note(),
                                    ylabel="points")
    s.captions["landmarks"] = "Landmark token value"
    rows = []
    for a, key in zip(ANIMALS, ANIMAL_KEYS, strict=True):
        col = df[f"judge_{key}"]
        live = df[col >= 0]
        taken = live[live[f"judge_{key}"] == 1]
        r = B.rates(taken.assign(judge=a), "judge", fair=0.5).iloc[0].to_dict() if len(taken) \
            else {"judge": a, "n": 0, "win_rate": np.nan, "ci_low": np.nan, "ci_high": np.nan,
                  "p_value": 1.0}
        rows.append({**r, "in_play": live.game.nunique() / df.game.nunique(),
                     "decided": len(taken) / max(live.game.nunique(), 1)})
    jd = B.with_flags(pd.DataFrame(rows))
    s.tables["judges"] = jd
    s.figures["judges"] = F.bars(jd, "judge", "win_rate", "ci_low", "ci_high",
                                 "Win rate of the player who takes each judge", ctx.note(),
                                 ref=0.5, ylabel="win rate")
    s.captions["judges"] = "Judge takers' win rates (95% CIs)"
    top = lm.loc[lm.mean_points.idxmax()]
    low = lm.loc[lm.mean_points.idxmin()]
    s.findings.append(f"A landmark token is taken in {pct(lm.taken.min())} to "
                      f"{pct(lm.taken.max())} of games; {top.landmark} scores its owner most "
                      f"({top.mean_points:.2f} points), {low.landmark} least "
                      f"({low.mean_points:.2f}).")
    s.findings.append(f"Judges are decided (not tied) in {pct(jd.decided.min())} to "
                      f"{pct(jd.decided.max())} of the games they are in; their takers win "
                      f"{pct(jd.win_rate.min())} to {pct(jd.win_rate.max())}.")
    return s


# ---------------------------------------------------------------- 6 game length


def study_length(ctx: Ctx) -> Section:
    s = Section("6-length", 6, "6. Game length",
                "Turns per game (both players' turns) for each mirror match-up.")
    rows = []
    for pol in ("greedy", "random"):
        rows.append(B.game_length(ctx.sim((pol, pol)), "turns").assign(policy=pol))
    t = pd.concat(rows, ignore_index=True)
    s.tables["game_length"] = t
    g = per_game(ctx.sim())
    s.figures["game_length"] = F.histogram(g.turns, "Turns per game (greedy mirror)",
                                           ctx.note(), "turns")
    s.captions["game_length"] = "Distribution of game length"
    for pol in ("greedy", "random"):
        turns = per_game(ctx.sim((pol, pol))).turns
        s.findings.append(f"{pol} mirror: {turns.mean():.1f} turns on average (median "
                          f"{turns.median():.0f}, 90% of games within {turns.quantile(0.05):.0f}"
                          f"-{turns.quantile(0.95):.0f}).")
    return s


# ---------------------------------------------------------------- 7 set-up knobs


def study_knobs(ctx: Ctx) -> Section:
    s = Section("7-setup-knobs", 7, "7. Set-up knobs",
                "Each knob moved alone from the rulebook value (greedy mirror, same seed: "
                "common random numbers): game length, mean score and the first player's win "
                "rate; p-values from Welch's test on turns against the rulebook set-up.")
    base = ctx.sim()
    bg = per_game(base)
    rows = []
    for knob, (default, values) in KNOBS.items():
        for v in sorted((default, *values)):
            df = base if v == default else ctx.sim(**{knob: v})
            g = per_game(df)
            first = df[df["first"] == 1]
            lo, hi = B.rates(first.assign(k=0), "k")[["ci_low", "ci_high"]].iloc[0]
            rows.append({"knob": knob, "value": str(v), "default": v == default,
                         "turns": g.turns.mean(), "mean_score": g.mean_score.mean(),
                         "first_win_rate": first.won.mean(), "ci_low": lo, "ci_high": hi,
                         "p_turns": 1.0 if v == default else
                         B.compare_runs(bg, g, "turns")["p_value"]})
    t = pd.DataFrame(rows)
    s.tables["setup_knobs"] = t
    s.figures["setup_knobs_length"] = F.lines(t, "value", ["turns"], "Game length by knob",
                                              ctx.note(), panels="knob", ylabel="turns")
    s.captions["setup_knobs_length"] = "Mean turns per game as each knob moves"
    s.figures["setup_knobs_first"] = F.lines(t, "value", ["first_win_rate"],
                                             "First player's win rate by knob", ctx.note(),
                                             panels="knob", ylabel="win rate")
    s.captions["setup_knobs_first"] = "First-player advantage as each knob moves"
    moved = t[~t.default].copy()
    moved["effect"] = (moved.turns - bg.turns.mean()).abs()
    big = moved.loc[moved.effect.idxmax()]
    s.findings.append(f"Game length reacts most to {big.knob} = {big.value}: {big.turns:.1f} "
                      f"turns vs {bg.turns.mean():.1f} (p = {big.p_turns:.3g}).")
    dealt = t[(t.knob == "tiles_dealt") & ~t.default].iloc[0]
    s.findings.append(f"Dealing 5 tiles instead of 3: mean score {dealt.mean_score:.1f} vs "
                      f"{t[t.default].mean_score.iloc[0]:.1f}, first player wins "
                      f"{pct(dealt.first_win_rate)} [{pct(dealt.ci_low)}, {pct(dealt.ci_high)}].")
    return s


# ---------------------------------------------------------------- 8 policies


def study_policies(ctx: Ctx) -> Section:
    n_roll = max(40, ctx.games // ROLLOUT_SHARE)
    s = Section("8-policies", 8, "8. Policy strength",
                f"Head-to-head win rates, seats rotated: greedy and random over {ctx.games:,} "
                f"games, the rollout (Monte Carlo) player over {n_roll:,} games each.")
    runs = []
    for k, (a, b, n) in enumerate((("greedy", "random", ctx.games),
                                   ("rollout", "greedy", n_roll),
                                   ("rollout", "random", n_roll))):
        df = ctx.sim((a, b), games=n)
        runs.append(df.assign(game=df.game + k * ctx.games, policy=df.policy.astype(str)))
    t = B.matchup_table(pd.concat(runs, ignore_index=True))
    s.tables["matchups"] = t
    s.figures["matchups"] = F.bars(t, "policy", "win_rate", "ci_low", "ci_high",
                                   "Win rate against each opponent", ctx.note(), hue="opponent",
                                   ref=0.5, ylabel="win rate")
    s.captions["matchups"] = "Policy match-ups (95% CIs)"
    for r in t[t.win_rate > 0.5].itertuples():
        s.findings.append(f"{r.policy} beats {r.opponent} in {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] of {r.n:,} games.")
    return s


STUDIES = {
    "first": (study_first, 2), "animals": (study_animals, 0), "bonuses": (study_bonuses, 0),
    "scores": (study_scores, 0), "landmarks": (study_landmarks, 0), "length": (study_length, 0),
    "knobs": (study_knobs, 8), "policies": (study_policies, 3),
}


def build(out="reports/yosemite", games: int = 5_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True) -> Path:
    """Run the chosen studies (default all), save their sections, render the report."""
    return build_report("yosemite", "Yosemite - balance report", STUDIES, out, games, seed,
                        studies, threads, components, progress, runs_type=Ctx)


def study_main(study: str, argv=None) -> None:
    """Command line of an `analyses/` script: regenerate one study's section in place."""
    shared_study_main("yosemite", build, study, 5_000, argv)
