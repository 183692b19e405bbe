"""The ShutterBug balance report: its studies, each a section with findings, figures, tables.

Every number shown is computed here from seeded simulations and every finding is generated
from those numbers; every claim is tested under the report's one standard against the
smallest effects of interest (report.studies). Each study can be re-run on its own
(`analyses/shutterbug_*.py`), which rewrites its section and re-renders the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ...analysis import balance as B
from ...analysis.effects import MEANINGFUL, NEGLIGIBLE, Estimate, names_text, said
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
    game_ratio,
    knob_effect,
    ladder_section,
    luck_section,
    paired_mean,
    pct,
    proportion,
    seat_advantage,
    win_rate,
)

PLAYERS = (2, 3, 4, 5, 6)
POLICIES = ("greedy", "trader", "lookahead", "random")
COMPONENTS = ("assignment_points", "side_job_points", "city_points")
TIPS = ("tips_drawn", "tips_paid", "tips_discarded", "trades", "traded_with", "swaps")
VARIANTS = "variants from other public sources, not rulebook rules"
GREEDY = ["greedy"]
# Plain words for the rule knobs and table columns a designer reads (raw name in brackets).
WORDS = {"mean_points": "mean assignment points", "full_side_rate": "whole side completed",
         "right_side_rate": "better side chosen", "completion": "completion rate",
         "points_per_player": "points per player", "city_points": "city bonus points",
         "share_of_score": "share of the score", "in_city": "players ending in a city",
         "winner_changes": "games whose winner it decides", "tips_per_photo":
         "tips paid per photo", "seat1_win_rate": "seat 1's win rate", "goal_side_jobs":
         "side jobs required", "side_met": "chosen side complete", "team_game": "team game",
         "trading": "trading allowed", "start_tips": "starting tips"}


def winners_without(df: pd.DataFrame, col: str) -> pd.Series:
    """Per game: whether its winner set changes when `col` is taken out of the scores
    (ties on the reduced score broken by photo quality, as the rulebook does)."""
    key = (df.score - df[col]) * 1000 + df.quality
    best = key.groupby(df.game).transform("max")
    alt = (key == best).astype(float)
    alt = alt / alt.groupby(df.game).transform("sum")
    return ((alt - df.won).abs() > 1e-9).groupby(df.game).any()


# ---------------------------------------------------------------- 1 seats


def study_seats(ctx: Runs) -> Section:
    s = Section("1-seats", 1, "1. Seat advantage",
                "Win rate by seat (seat 1 plays first every round) with greedy players in "
                "every seat, each seat's distance from the fair share 1/players classed "
                "against the smallest effect of interest. Two players play the rulebook's "
                "team game.")
    _, claims = seat_advantage(ctx, s, PLAYERS, labelled=(4,))

    def key() -> list:
        four = {seat: c for (n, seat), c in claims.items() if n == 4}
        off = [f"seat {seat}" for seat, c in four.items() if c.cls == MEANINGFUL]
        close = sum(c.cls == NEGLIGIBLE for c in four.values())
        meaning = (f"at 4 players {names_text(off)} lie meaningfully off the fair share"
                   if off else f"at 4 players no seat lies meaningfully off the fair share "
                   f"({close} of 4 within ±{ctx.smallest.rate:g} pp)")
        fix = ctx.fix("seat spread, 4 players")
        first = next(f for f in s.findings if f.startswith("4 players"))
        return [(first, meaning + (f"; {fix}" if fix else "") + ".")]
    s.key_findings(key)
    return s


# ---------------------------------------------------------------- 2 assignments


def _assignment_table(df: pd.DataFrame, comp, overall: np.ndarray) -> pd.DataFrame:
    """Each assignment card: its points scored (mean, interval, spread, a Welch test
    against every card's), how often a side is completed and chosen right, the win rate."""
    rows = []
    for a, sub in df.groupby("assignment"):
        x = sub.assignment_points.to_numpy(float)
        p = stats.ttest_ind(x, overall, equal_var=False).pvalue if len(x) > 2 else 1.0
        rows.append({"card": comp.assignments[a].name, "n": len(x),
                     **estimate("mean_points", x),
                     "sd": x.std(ddof=1) if len(x) > 1 else np.nan,
                     "full_side_rate": float((sub.creatures_met == 3).mean()),
                     "right_side_rate": float(sub.side.mean()),
                     "win_rate": float(sub.won.mean()),
                     "p_value": float(p) if np.isfinite(p) else 1.0})
    return pd.DataFrame(rows)


def _assignment_figure(ctx: Runs, s: Section, table: pd.DataFrame, mean: float) -> None:
    s.figure("assignment_points",
             F.bars(table.sort_values("mean_points"), "card", "mean_points",
                    "mean_points_ci_low", "mean_points_ci_high",
                    "Mean assignment points per card", ctx.note(), ref=mean,
                    ylabel="assignment points per player-game", xlabel="assignment card"),
             ctx.caption("Mean assignment points scored with each card, lowest first; dashed "
                         "line: the mean over all cards", GREEDY, 4,
                         interval="95% Student-t CIs over the player-games dealt the card"))


def study_assignments(ctx: Runs) -> Section:
    s = Section("2-assignments", 2, "2. Secret assignment balance",
                "Assignment points scored with each card (4 greedy players, the better side "
                "taken exactly at the end). A card is an outlier when its mean lies "
                "meaningfully far from the mean over all cards (its difference classed against "
                "the smallest effect of interest under the report's standard).")
    df = ctx.sim(["greedy"], players=4)
    comp = ctx.config().components
    overall = df.assignment_points.to_numpy(float)
    table = _assignment_table(df, comp, overall)
    means = [Estimate.from_ci(r.mean_points, r.mean_points_ci_low, r.mean_points_ci_high,
                              int(r.n)) for r in table.itertuples()]
    off = ctx.classes(s, "assignment_balance", table, table.card.tolist(),
                      [Estimate(m.effect - overall.mean(), m.se, m.games) for m in means],
                      "points")
    ctx.after.append(lambda: s.tables["assignment_balance"].insert(
        len(table.columns), "outlier", [c.cls == MEANINGFUL for c in off]))
    _assignment_figure(ctx, s, table, overall.mean())
    names = table.card.tolist()
    best = ctx.rank(s, "most assignment points", names, means)
    worst = ctx.rank(s, "fewest assignment points", names, means, highest=False)

    def ends() -> str:
        return (f"Cards average {table.mean_points.min():.1f}-{table.mean_points.max():.1f} "
                f"assignment points (overall {overall.mean():.1f}); most: "
                f"{best.text(lambda i: f' ({table.mean_points[i]:.1f})')}; fewest: "
                f"{worst.text(lambda i: f' ({table.mean_points[i]:.1f})')}.")

    def outliers() -> str:
        far = [i for i, c in enumerate(off) if c.cls == MEANINGFUL]
        close = sum(c.cls == NEGLIGIBLE for c in off)
        return ("Outlier cards (meaningfully more than "
                f"{ctx.smallest.points:g} points from the mean): "
                + (", ".join(f"{names[i]} ({table.mean_points[i]:.1f}, {said(off[i], 'points')})"
                             for i in far) if far else "none")
                + f"; {close} of {len(names)} cards within ±{ctx.smallest.points:g} points of it.")
    s.later(ends)
    s.later(outliers)
    s.findings.append(f"Players complete all three creatures of their chosen side in "
                      f"{pct((df.creatures_met == 3).mean())} of player-games.")
    width = ctx.smallest.points
    picked = (names[int(np.argmax(table.mean_points))], names[int(np.argmin(table.mean_points))],
              *[names[i] for i, m in enumerate(means)
                if abs(m.effect - overall.mean()) - 1.96 * m.se > width])
    all_names = [a.name for a in comp.assignments]
    for card in dict.fromkeys(picked):
        ctx.label(s, f"{card}: mean assignment points minus the mean over all cards",
                  card_points(all_names.index(card)), 4, unit="points")

    def key() -> list:
        far = [names[i] for i, c in enumerate(off) if c.cls == MEANINGFUL]
        meaning = (f"the assignments of {names_text(far)} score meaningfully off the mean: "
                   "the candidates for a change to their creature requirements" if far else
                   "no assignment card is shown to score meaningfully off the mean")
        return [(outliers(), meaning + " (the cards are reconstructed, so this shows the "
                 "method).")]
    s.key_findings(key)
    return s


def card_points(index: int):
    """The measure "mean assignment points of the players dealt card `index` minus the mean
    over every player" (4 players)."""
    def measure(side) -> Effect:
        df = side.sim(4)
        mine = (df.assignment == index).to_numpy()
        return Effect(((1.0, game_ratio(df, np.where(mine, df.assignment_points, 0), mine)),
                       (-1.0, game_ratio(df, df.assignment_points))))
    return measure


# ---------------------------------------------------------------- 3 side jobs


def study_side_jobs(ctx: Runs) -> Section:
    s = Section("3-side-jobs", 3, "3. Side jobs",
                "Completion rate of each side job per player-game and the points it adds on "
                "average, by player count (greedy players).")
    jobs = ctx.config().components.side_jobs
    rows = []
    for n in PLAYERS:
        df = ctx.sim(["greedy"], players=n)
        for j, job in enumerate(jobs):
            done = ((df.jobs_mask.to_numpy() >> j) & 1).astype(float)
            rows.append({"players": n, "job": job.name, "points": job.points,
                         **proportion("completion", done.sum(), len(done)),
                         "points_per_player": done.mean() * job.points})
    table = pd.DataFrame(rows)
    s.tables["side_jobs"] = table
    plot = table.assign(**{c: 100 * table[c] for c in ("completion", "completion_ci_low",
                                                       "completion_ci_high")})
    s.figure("side_jobs",
             F.bars(plot, "job", "completion", "completion_ci_low", "completion_ci_high",
                    "Side-job completion rate", ctx.note(), hue="players",
                    ylabel="player-games completing it (%)", legend=ctx.players_label,
                    xlabel="side job"),
             ctx.caption("Share of player-games that complete each side job", GREEDY, PLAYERS))
    four = table[table.players == 4]
    for r in four.itertuples():
        s.findings.append(f"4 players: {r.job} ({r.points} points) completed in "
                          f"{pct(r.completion)}, worth {r.points_per_player:.2f} points per "
                          f"player on average.")
    s.key_findings()  # a description: no balance claim
    return s


# ---------------------------------------------------------------- 4 trading


def study_trading(ctx: Runs) -> Section:
    s = Section("4-trading", 4, "4. Value of trading",
                "One trading-aware player against three greedy players who never start a "
                "trade (seats rotated), and a table of four traders with trading switched off "
                "by rule, on the same deals.")
    mixed = ctx.sim(["trader", "greedy", "greedy", "greedy"], players=4)
    mixed = mixed.assign(policy=mixed.policy.astype(str).str.split("#").str[0])
    table = B.rates(mixed, "policy", fair=0.25).drop(columns=["p_adjusted", "significant"])
    table = table.merge(mixed.groupby("policy").agg(mean_score=("score", "mean"),
                                                    trades=("trades", "mean")).reset_index())
    claims = ctx.classes(s, "trader_vs_greedy", table, table.policy.tolist(),
                         [Estimate.from_ci(r.win_rate - 0.25, r.ci_low - 0.25, r.ci_high - 0.25,
                                           int(r.n)) if r.policy == "trader" else None
                          for r in table.itertuples()], "pp")
    plot = table.assign(**{c: 100 * table[c] for c in ("win_rate", "ci_low", "ci_high")})
    s.figure("trader_vs_greedy",
             F.bars(plot, "policy", "win_rate", "ci_low", "ci_high",
                    "Trader vs greedy (4 players)", ctx.note(), ref=25,
                    ylabel="win rate (%, fair 25%)"),
             ctx.caption("Win rate of one trading-aware player and of the greedy players; "
                         "dashed line: the fair 25%", ["trader", "greedy", "greedy", "greedy"],
                         4))
    k = table.index[table.policy == "trader"][0]
    t = table.loc[k]

    def trader() -> str:
        return (f"A trader wins {pct(t.win_rate)} [{pct(t.ci_low)}, {pct(t.ci_high)}] against "
                f"greedy players ({said(claims[k], 'pp')} from the fair 25%) with "
                f"{t.trades:.1f} trades a game.")
    s.later(trader)
    on = ctx.sim(["trader"], players=4)
    off = ctx.sim(["trader"], players=4, trading=False)
    d = paired_mean(per_game_score(off), per_game_score(on))
    rule = pd.DataFrame([{"setting": "trading allowed minus not allowed", "mean_a":
                          off.score.mean(), "mean_b": on.score.mean(), "diff": d.effect,
                          "ci_low": d.ci[0], "ci_high": d.ci[1]}])
    score = ctx.classes(s, "trading_rule", rule, ["four traders"], [d], "points")

    def switched() -> str:
        return (f"Four traders score {on.score.mean():.2f} a player with trading and "
                f"{off.score.mean():.2f} without: {said(score[0], 'points')}.")
    s.later(switched)
    ctx.label(s, "trading allowed (trading): change in mean score", knob_effect(
        "score", 4, {"trading": True}, {"trading": False}, action="trades"), 4, unit="points",
        base="trader")

    def key() -> list:
        c = claims[k]
        worth = (f"trading is worth {said(c, 'pp')} of win rate to the one player who "
                 "trades" if c.cls == MEANINGFUL else
                 f"trading gives its player no edge worth a change ({said(c, 'pp')})"
                 if c.cls == NEGLIGIBLE else "whether trading gives its player an edge is not "
                 f"settled at this n ({said(c, 'pp')})")
        return [(trader(), f"{worth}; switching trading off changes four traders' scores by "
                 f"{said(score[0], 'points')}.")]
    s.key_findings(key)
    return s


def per_game_score(df: pd.DataFrame) -> np.ndarray:
    """Mean score per player of each game, in game order."""
    return df.groupby("game").score.mean().sort_index().to_numpy(float)


# ---------------------------------------------------------------- 5 city bonus


def study_city(ctx: Runs) -> Section:
    s = Section("5-city", 5, "5. Value of the city bonus",
                "Share of players ending in a city, the bonus's share of scores, and the share "
                "of games whose winner would change without it (greedy players).")
    rows = []
    for n in PLAYERS:
        df = ctx.sim(["greedy"], players=n)
        changed = winners_without(df, "city_points")
        rows.append({"players": n, **estimate("city_points", df.city_points),
                     "share_of_score": df.city_points.sum() / df.score.sum(),
                     **proportion("in_city", (df.city_points > 0).sum(), len(df)),
                     **proportion("winner_changes", changed.sum(), len(changed))})
    table = pd.DataFrame(rows)
    s.tables["city_bonus"] = table
    plot = table.assign(**{c: 100 * table[c] for c in ("winner_changes",
                                                       "winner_changes_ci_low",
                                                       "winner_changes_ci_high")})
    s.figure("city_bonus",
             F.bars(plot, "players", "winner_changes", "winner_changes_ci_low",
                    "winner_changes_ci_high", "Games whose winner the city bonus decides",
                    ctx.note(), ylabel="games (%)", xlabel="players"),
             ctx.caption("Share of games whose winner changes without the city bonus", GREEDY,
                         PLAYERS))
    for r in table.itertuples():
        s.findings.append(f"{r.players} players: {r.city_points:.2f} bonus points a player "
                          f"({pct(r.share_of_score)} of scores); it decides "
                          f"{pct(r.winner_changes)} of games.")
    s.key_findings()  # a description: no balance claim
    return s


# ---------------------------------------------------------------- 6 tip economy


def study_tips(ctx: Runs) -> Section:
    s = Section("6-tips", 6, "6. Tip economy",
                "Tips drawn from cities, paid for photos, discarded to the hand limit and "
                "traded, per player and game (greedy, and a table of traders).")
    rows = []
    for n in PLAYERS:
        for pol in ("greedy", "trader"):
            df = ctx.sim([pol], players=n)
            row = {"players": n, "policy": pol}
            for c in (*TIPS, "photos"):
                row |= estimate(c, df[c])
            row["tips_per_photo"] = df.tips_paid.sum() / max(df.photos.sum(), 1)
            rows.append(row)
    table = pd.DataFrame(rows)
    s.tables["tip_economy"] = table
    g = table[table.policy == "greedy"]
    flows = ("tips_drawn", "tips_paid", "tips_discarded", "photos")
    long = pd.concat([g[["players"]].assign(flow=c.replace("_", " "), value=g[c],
                                            lo=g[f"{c}_ci_low"], hi=g[f"{c}_ci_high"])
                      for c in flows], ignore_index=True)
    s.figure("tip_economy",
             F.lines(long, "players", "value", "lo", "hi",
                     "Tips and photos per player and game (greedy)", ctx.note(), hue="flow",
                     ylabel="tips or photos per player per game", legend=str),
             ctx.caption("Tips drawn, paid and discarded and photos taken per player and game, "
                         "by player count", GREEDY, PLAYERS,
                         interval="95% Student-t CIs over player-games"))
    for r in g.itertuples():
        s.findings.append(f"{r.players} players: {r.tips_drawn:.1f} tips drawn, "
                          f"{r.tips_paid:.1f} paid for {r.photos:.1f} photos "
                          f"({r.tips_per_photo:.2f} a photo), {r.tips_discarded:.1f} "
                          f"discarded.")
    s.key_findings()  # a description: no balance claim
    return s


# ---------------------------------------------------------------- 7 team game


def study_team(ctx: Runs) -> Section:
    s = Section("7-team", 7, "7. Two players: team game vs standard",
                "The rulebook's two-player team game (two pawns each, 1 point per pawn in a "
                "city) against two players with one pawn each (greedy players).")
    team = ctx.sim(["greedy"], players=2)
    solo = ctx.sim(["greedy"], players=2, team_game=False)
    rows = []
    for label, df in (("team game", team), ("one pawn each", solo)):
        seat0 = df[df.seat == 0]
        rows.append({"mode": label, **estimate("score", df.score),
                     **estimate("photos", df.photos), **estimate("tips_drawn", df.tips_drawn),
                     **estimate("city_points", df.city_points),
                     **proportion("seat1_win_rate", seat0.won.sum(), len(seat0))})
    table = pd.DataFrame(rows)
    s.tables["team_game"] = table
    s.figure("team_game",
             F.bars(table, "mode", "score", "score_ci_low", "score_ci_high",
                    "Mean score per player, two players", ctx.note(), ylabel="score (points)",
                    xlabel=""),
             ctx.caption("Mean score per player: the team game against one pawn each", GREEDY,
                         2, interval="95% Student-t CIs over player-games"))
    d = paired_mean(per_game_score(solo), per_game_score(team))
    diff = ctx.claim(s, "team game: change in score", d, "points")
    seat = ctx.classes(s, "team_game", table, table["mode"].tolist(),
                       [Estimate.from_ci(r.seat1_win_rate - 0.5, r.seat1_win_rate_ci_low - 0.5,
                                         r.seat1_win_rate_ci_high - 0.5, ctx.games)
                        for r in table.itertuples()], "pp")

    def scores() -> str:
        return (f"The team game scores {team.score.mean():.2f} a player against "
                f"{solo.score.mean():.2f} with one pawn each ({said(diff, 'points')}); photos "
                f"{table.photos[0]:.1f} against {table.photos[1]:.1f}.")
    s.later(scores)
    for k, r in enumerate(table.itertuples()):
        def seat_one_line(r=r, k=k) -> str:
            return (f"{r.mode}: seat 1 wins {pct(r.seat1_win_rate)} "
                    f"[{pct(r.seat1_win_rate_ci_low)}, {pct(r.seat1_win_rate_ci_high)}]: "
                    f"{said(seat[k], 'pp')} from the fair 50%.")
        s.later(seat_one_line)
    ctx.label(s, "team game: seat 1's win rate minus the fair 50%", seat_one, 2)

    def key() -> list:
        c = seat[0]
        edge = f"seat 1's edge in the team game is {said(c, 'pp')} from the fair 50%"
        game = ("the team game is a different game in score" if diff.cls == MEANINGFUL else
                "the team game scores like one pawn each" if diff.cls == NEGLIGIBLE else
                "whether the team game scores differently is not settled at this n")
        return [(scores(), f"{game} (a player's score changes by {said(diff, 'points')}); {edge}.")]
    s.key_findings(key)
    return s


def seat_one(side) -> Effect:
    """The measure "seat 1's win rate in the two-player team game minus the fair 50%"."""
    df = side.sim(2)
    return Effect(((1.0, win_rate(df, df.seat == 0)),), ref=0.5)


# ---------------------------------------------------------------- 8 solo


def study_solo(ctx: Runs) -> Section:
    s = Section("8-solo", 8, f"8. Solo and cooperative variants ({VARIANTS})",
                f"Both variants are {VARIANTS}. Win rate of the solo variant (all-or-nothing: "
                "every creature of the chosen side at its minimum and the side jobs required) "
                "by policy, and by the number of side jobs required (greedy).")
    def row(policy: str, jobs: str, df: pd.DataFrame) -> dict:
        return {"policy": policy, "goal_side_jobs": jobs,
                **proportion("win_rate", df.won.sum(), len(df)),
                **proportion("side_met", (df.creatures_met == 3).sum(), len(df)),
                **estimate("jobs", df.side_jobs)}

    rows = [row(pol, "all", ctx.sim([pol], players=1)) for pol in POLICIES]
    rows += [row("greedy", str(k), ctx.sim(GREEDY, players=1, goal_side_jobs=k))
             for k in range(ctx.config().markable_jobs)]
    table = pd.DataFrame(rows)
    s.tables["solo"] = table
    plot = table.assign(label=table.policy + " / jobs " + table.goal_side_jobs)
    plot = plot.assign(**{c: 100 * plot[c] for c in ("win_rate", "win_rate_ci_low",
                                                     "win_rate_ci_high")})
    s.figure("solo",
             F.bars(plot, "label", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
                    "Solo win rate", ctx.note(), ylabel="win rate (%)",
                    xlabel="policy / side jobs required"),
             ctx.caption("Solo variant win rate (not a rulebook rule) by policy and by side "
                         "jobs required", ", ".join(POLICIES) + ", one at a time", 1))
    for r in table[table.goal_side_jobs == "all"].itertuples():
        s.findings.append(f"{r.policy}: wins {pct(r.win_rate)} [{pct(r.win_rate_ci_low)}, "
                          f"{pct(r.win_rate_ci_high)}]; chosen side complete in "
                          f"{pct(r.side_met)}, "
                          f"{r.jobs:.2f} side jobs.")
    easy = table[table.goal_side_jobs != "all"]
    s.findings.append("Greedy win rate when only k side jobs are required: " + ", ".join(
        f"k={r.goal_side_jobs}: {pct(r.win_rate)}" for r in easy.itertuples()) + ".")
    coop = ctx.sim(["greedy"], players=3, cooperative=True)
    s.findings.append(f"Cooperative variant (not a rulebook rule), 3 greedy players: the team wins "
                      f"{pct(coop.groupby('game').won.first().mean())} of games.")
    s.key_findings()  # variants from other sources, described: no balance claim
    return s


# The worst findings rebalancing looks for a fix of ("Smallest fixes found").
FIXES = [Problem("seat spread, 4 players", "seat_spread", ("start_tips",), (4,))]

STUDIES = {
    "luck": (lambda ctx: luck_section(ctx, 0, PLAYERS), 2 * sum(PLAYERS)),
    "seats": (study_seats, 5), "assignments": (study_assignments, 1),
    "side_jobs": (study_side_jobs, 5), "trading": (study_trading, 3), "city": (study_city, 5),
    "tips": (study_tips, 10), "team": (study_team, 2), "solo": (study_solo, 9),
    "ladder": (lambda ctx: ladder_section(ctx, 9, 4), 1),
    "fixes": (lambda ctx: fixes_section(ctx, 10, FIXES, 3_000), len(FIXES)),
}


def build(out="reports/shutterbug", games: int = 3000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True,
          strong: str | None = STRONG, strong_games: int | None = None,
          ladder_games: int | None = None, smallest=None, tolerances=None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (default: a tuned policy if bundled, else the lookahead player), test every claim
    under one standard against the smallest effects of interest, render the report."""
    source = "reconstructed (see data/standard.toml)" if components is None \
        else Path(components.path).name
    return build_report("shutterbug", "ShutterBug - balance report", STUDIES, out, games, seed,
                        studies, threads, components, progress, meta={"components": source},
                        strong=strong, strong_games=strong_games,
                        ladder_games=ladder_games, smallest=smallest, words=WORDS,
                        tolerances=tolerances)
