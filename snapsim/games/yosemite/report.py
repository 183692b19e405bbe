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
from ...analysis.stats import slope_intervals
from ...report import Section
from ...report import figures as F
from ...report.studies import (
    STRONG,
    Effect,
    Problem,
    Runs,
    build_report,
    estimate,
    fixes_section,
    knob_effect,
    knob_table,
    ladder_section,
    pct,
    pp,
    proportion,
    ratio,
    win_rate,
)
from .api import ANIMAL_KEYS
from .components import ANIMALS
from .config import YosemiteConfig

PARTS = ("photo_points", "camping", "judges", "landmarks")
ICONS = ("bonus_fish", "bonus_tent", "bonus_camera")
MIRROR = ["greedy"]
KNOBS = {"tiles_dealt": (3, (5,)), "photos_removed": (10, (8, 12)), "judges": (2, (1, 3)),
         "hand_limit": (10, (8, 12)), "wilds": (True, (False,))}
SEARCH_SHARE = 20  # the search player is slow: it plays games/20 games (at least 40)


class Ctx(Runs):
    """The shared run cache; Yosemite's runs are greedy against greedy unless told."""

    def sim(self, policies=("greedy", "greedy"), games=None, **knobs) -> pd.DataFrame:
        return super().sim(policies, games, **knobs)


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("game")
    return pd.DataFrame({"turns": g.turns.first(), "mean_score": g.score.mean()})


def slopes(df: pd.DataFrame, cols: list[str], name: str) -> pd.DataFrame:
    """Least-squares points per unit of each column (with an intercept), over player-games,
    as `name` with its 95% Student-t interval."""
    fit = slope_intervals(df.score.to_numpy(float), df[cols].to_numpy(float))
    return fit.rename(columns={"slope": name, "ci_low": f"{name}_ci_low",
                               "ci_high": f"{name}_ci_high"})


def win_rates(ctx: Ctx, t: pd.DataFrame, x: str, title: str, what: str, policies,
              hue: str | None = None, xlabel: str = "") -> tuple[bytes, str]:
    """The figure of a win-rate table (`B.rates` columns), in percent against the fair 50%,
    and its caption."""
    plot = t.assign(**{c: 100 * t[c] for c in ("win_rate", "ci_low", "ci_high")})
    return F.bars(plot, x, "win_rate", "ci_low", "ci_high", title, ctx.note(), hue=hue,
                  ref=50, ylabel="win rate (%, fair 50%)", legend=str, xlabel=xlabel), \
        ctx.caption(what + "; dashed line: the fair 50%", policies, 2)


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
    s.figure("first_player", *win_rates(ctx, t, "order",
                                        "Win rate by turn order", "Win rate of the first and "
                                        "the second player, per mirror match-up",
                                        "greedy in both seats; random in both seats",
                                        hue="policy", xlabel="turn order"))
    for r in t[t.order == "first"].itertuples():
        s.findings.append(f"{r.policy} mirror: the first player wins {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] "
                          f"({'significant' if r.significant else 'not significant'} after "
                          "Holm correction).")
    ctx.label(s, "first player's win rate minus the fair 50%",
              owner_win_rate(lambda df: df["first"] == 1), 2)
    return s


def owner_win_rate(rows):
    """The measure "win rate of the players `rows(df)` selects minus the fair 50%", in the
    line-up's mirror match."""
    def measure(side) -> Effect:
        df = side.sim(2)
        return Effect(((1.0, win_rate(df, rows(df))),), ref=0.5)
    return measure


# ---------------------------------------------------------------- 2 animals


def study_animals(ctx: Ctx) -> Section:
    s = Section("2-animals", 2, "2. Value of each animal's movement",
                "How often each movement is used per player-game (greedy mirror), the photo "
                "points taken on turns that used it (via the camera bonus) per use, and the "
                "score each use is worth by least squares over all player-games.")
    df = ctx.sim()
    uses = [f"use_{a}" for a in ANIMAL_KEYS]
    t = pd.concat([pd.DataFrame([{
        "animal": a, **estimate("uses_per_game", df[u]),
        "share_of_moves": df[u].sum() / df[uses].to_numpy().sum(),
        "photo_points_per_use": df[f"use_points_{k}"].sum() / max(df[u].sum(), 1)}
        for a, k, u in zip(ANIMALS, ANIMAL_KEYS, uses, strict=True)]),
        slopes(df, uses, "score_per_use")], axis=1)
    s.tables["animal_movements"] = t
    s.figure("animal_movements",
             F.bars(t, "animal", "score_per_use", "score_per_use_ci_low",
                    "score_per_use_ci_high", "Score per use of each movement (least squares)",
                    ctx.note(), ylabel="points per use"),
             ctx.caption("Marginal score per use of each animal's movement (least squares over "
                         "player-games)", MIRROR, 2, interval="95% Student-t CIs of the slopes"))
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
    t = pd.concat([pd.DataFrame([{"icon": i.removeprefix("bonus_"), **estimate("per_game", df[i])}
                                 for i in ICONS]),
                   slopes(df, list(ICONS), "score_per_icon")], axis=1)
    s.tables["bonus_icons"] = t
    s.figure("bonus_icons",
             F.bars(t, "icon", "score_per_icon", "score_per_icon_ci_low",
                    "score_per_icon_ci_high", "Score per collected bonus icon", ctx.note(),
                    ylabel="points per tile", xlabel="bonus icon"),
             ctx.caption("Marginal score per collected bonus icon (least squares over "
                         "player-games)", MIRROR, 2, interval="95% Student-t CIs of the slopes"))
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
    for part in PARTS:  # each share with its delta-method interval over player-games
        fits = [ratio(f"{part}_share", df[part], df[list(PARTS)].sum(axis=1)) for df in parts]
        for col in (f"{part}_share_ci_low", f"{part}_share_ci_high"):
            t.insert(t.columns.get_loc(f"{part}_share") + 1 + col.endswith("high"), col,
                     [f[col] for f in fits])
    s.tables["score_parts"] = t
    long = pd.concat([t[["policy"]].assign(part=p, share=100 * t[f"{p}_share"],
                                           lo=100 * t[f"{p}_share_ci_low"],
                                           hi=100 * t[f"{p}_share_ci_high"]) for p in PARTS],
                     ignore_index=True)
    s.figure("score_parts",
             F.bars(long, "part", "share", "lo", "hi", "Share of the score by part",
                    ctx.note(), hue="policy", ylabel="share of points (%)", legend=str,
                    xlabel="score part"),
             ctx.caption("Each part's share of the points scored", "greedy in both seats; "
                         "random in both seats", 2,
                         interval="95% delta-method CIs over player-games"))
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
        rows.append({**r, **proportion("taken", len(own), df.game.nunique()),
                     **estimate("mean_points", own[f"landmark{i}"])})
    lm = B.with_flags(pd.DataFrame(rows))
    s.tables["landmarks"] = lm
    s.figure("landmarks",
             F.bars(lm, "landmark", "mean_points", "mean_points_ci_low", "mean_points_ci_high",
                    "Points a landmark token scores its owner", ctx.note(), ylabel="points"),
             ctx.caption("Points a landmark token scores its owner", MIRROR, 2,
                         interval="95% Student-t CIs over owners"))
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
    s.figure("judges", *win_rates(ctx, jd, "judge",
                                  "Win rate of the player who takes each judge",
                                  "Win rate of the player who takes each judge", MIRROR))
    top = lm.loc[lm.mean_points.idxmax()]
    low = lm.loc[lm.mean_points.idxmin()]
    best = int(np.argmax(lm.win_rate.to_numpy()))
    ctx.label(s, f"win rate of {lm.landmark[best]}'s owner minus the fair 50%",
              owner_win_rate(lambda df: df[f"landmark{best}"] >= 0), 2)
    decided = jd[jd.n > 0]
    if len(decided):
        judge = decided.loc[decided.win_rate.idxmax()].judge
        key = ANIMAL_KEYS[list(ANIMALS).index(judge)]
        ctx.label(s, f"win rate of the player who takes the {judge} judge minus the fair 50%",
                  owner_win_rate(lambda df: df[f"judge_{key}"] == 1), 2)
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
    s.figure("game_length", F.histogram(g.turns, "Turns per game (greedy mirror)",
                                        ctx.note(), "turns per game (both players)"),
             ctx.caption("Distribution of game length: share of games per number of turns",
                         MIRROR, 2))
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
    def row(df, base):
        g, first = per_game(df), df[df["first"] == 1]
        return {**estimate("turns", g.turns), **estimate("mean_score", g.mean_score),
                **proportion("first_win_rate", first.won.sum(), len(first)),
                "p_turns": 1.0 if df is base else
                B.compare_runs(per_game(base), g, "turns")["p_value"]}

    t = knob_table(ctx, KNOBS, row)
    bg = per_game(ctx.sim())
    s.tables["setup_knobs"] = t
    s.figure("setup_knobs_length",
             F.lines(t, "value", "turns", "turns_ci_low", "turns_ci_high",
                     "Game length by knob", ctx.note(), panels="knob", ylabel="turns per game",
                     xlabel="knob value"),
             ctx.caption("Mean turns per game as each knob moves alone", MIRROR, 2,
                         interval="95% Student-t CIs over games"))
    first = t.assign(**{c: 100 * t[c] for c in ("first_win_rate", "first_win_rate_ci_low",
                                                "first_win_rate_ci_high")})
    s.figure("setup_knobs_first",
             F.lines(first, "value", "first_win_rate", "first_win_rate_ci_low",
                     "first_win_rate_ci_high", "First player's win rate by knob", ctx.note(),
                     panels="knob", ylabel="first player's win rate (%)",
                     xlabel="knob value"),
             ctx.caption("The first player's win rate as each knob moves alone", MIRROR, 2))
    moved = t[~t.default].copy()
    moved["effect"] = (moved.turns - bg.turns.mean()).abs()
    big = moved.loc[moved.effect.idxmax()]
    s.findings.append(f"Game length reacts most to {big.knob} = {big.value}: {big.turns:.1f} "
                      f"turns vs {bg.turns.mean():.1f} (p = {big.p_turns:.3g}).")
    value = next(v for v in KNOBS[big.knob][1] if str(v) == big.value)
    ctx.label(s, f"{big.knob} = {big.value}: change in turns per game",
              knob_effect("turns", 2, {big.knob: value}), 2, unit="turns")
    ctx.label(s, "tiles_dealt = 5: change in the first player's win rate",
              knob_effect("won", 2, {"tiles_dealt": 5}, rows=lambda df: df["first"] == 1), 2)
    dealt = t[(t.knob == "tiles_dealt") & ~t.default].iloc[0]
    s.findings.append(f"Dealing 5 tiles instead of 3: mean score {dealt.mean_score:.1f} vs "
                      f"{t[t.default].mean_score.iloc[0]:.1f}, first player wins "
                      f"{pct(dealt.first_win_rate)} [{pct(dealt.first_win_rate_ci_low)}, "
                      f"{pct(dealt.first_win_rate_ci_high)}], "
                      f"{pp(dealt.first_win_rate - t[t.default].first_win_rate.iloc[0])} "
                      "against the rulebook's 3.")
    return s


# ---------------------------------------------------------------- 8 policies


def study_policies(ctx: Ctx) -> Section:
    n_search = max(40, ctx.games // SEARCH_SHARE)
    s = Section("8-policies", 8, "8. Policy strength",
                f"Head-to-head win rates, seats rotated: greedy and random over {ctx.games:,} "
                "games; the search (Monte Carlo) player, on the bundled tuned-2p policy, "
                f"against greedy and against tuned-2p alone over {n_search:,} games each.")
    runs, first = [], 0
    for a, b, n in (("greedy", "random", ctx.games), ("search", "greedy", n_search),
                    ("search", "tuned-2p", n_search)):
        df = ctx.sim((a, b), games=n)
        runs.append(df.assign(game=df.game + first, policy=df.policy.astype(str)))
        first += n  # each run's games numbered after the last's, whichever is longer
    t = B.matchup_table(pd.concat(runs, ignore_index=True))
    s.tables["matchups"] = t
    png, caption = win_rates(ctx, t, "policy", "Win rate against each opponent",
                             "Win rate of each policy against each opponent",
                             "greedy v random, search v greedy, search v tuned-2p (seats "
                             "rotated)", hue="opponent")
    s.figure("matchups", png, caption.replace(f"n = {ctx.games:,} games",
                                              f"n = {ctx.games:,} games (search: {n_search:,})"))
    for r in t[t.win_rate > 0.5].itertuples():
        s.findings.append(f"{r.policy} beats {r.opponent} in {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] of {r.n:,} games.")
    return s


# The worst findings rebalancing looks for a fix of ("Smallest fixes found").
FIXES = [Problem("first player", ("first_player=2",), ("start_fish",), (2,))]

STUDIES = {
    "first": (study_first, 2), "animals": (study_animals, 0), "bonuses": (study_bonuses, 0),
    "scores": (study_scores, 0), "landmarks": (study_landmarks, 0), "length": (study_length, 0),
    "knobs": (study_knobs, 8), "policies": (study_policies, 3),
    "ladder": (lambda ctx: ladder_section(ctx, 9, 2), 1),
    "fixes": (lambda ctx: fixes_section(ctx, 10, FIXES, 5_000), len(FIXES)),
}


def build(out="reports/yosemite", games: int = 5_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True,
          strong: str | None = STRONG, strong_games: int | None = None,
          ladder_games: int | None = None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (default: the bundled tuned policy), render the report."""
    return build_report("yosemite", "Yosemite - balance report", STUDIES, out, games, seed,
                        studies, threads, components, progress, runs_type=Ctx, strong=strong,
                        strong_games=strong_games, ladder_games=ladder_games)
