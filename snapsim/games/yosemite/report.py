"""The Yosemite balance report: its studies, each a section with findings, figures, tables.

Every number shown is computed here from seeded simulations and every finding is generated
from those numbers; every claim is tested under the report's one standard against the
smallest effects of interest (report.studies). Each study can be re-run alone
(`analyses/yosemite_*.py`), which rewrites its section and re-renders the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...analysis import balance as B
from ...analysis.effects import MEANINGFUL, Estimate, classed, names_text, said, show
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
    luck_section,
    paired_mean,
    pct,
    proportion,
    ratio,
    win_rate,
)
from ...report.words import in_words
from .api import ANIMAL_KEYS
from .components import ANIMALS

PARTS = ("photo_points", "camping", "judges", "landmarks")
ICONS = ("bonus_fish", "bonus_tent", "bonus_camera")
MIRROR = ["greedy"]
KNOBS = {"tiles_dealt": (3, (5,)), "photos_removed": (10, (8, 12)), "judges": (2, (1, 3)),
         "hand_limit": (10, (8, 12)), "wilds": (True, (False,))}
SEARCH_SHARE = 20  # the search player is slow: it plays games/20 games (at least 40)
# Plain words for the rule knobs and table columns a designer reads (raw name in brackets).
WORDS = {"tiles_dealt": "animal tiles dealt at set-up", "photos_removed":
         "photo cards removed at set-up", "judges": "judge cards in play", "hand_limit":
         "hand limit (tiles)", "wilds": "camera pairs as wilds", "start_fish": "starting fish",
         "turns": "turns per game", "first_win_rate": "first player's win rate",
         "uses_per_game": "uses per player-game", "score_per_use": "points per use",
         "score_per_icon": "points per collected icon", "per_game": "tiles per player-game",
         "mean_points": "mean points to the owner", "taken": "games it is taken",
         "in_play": "games it is in play", "decided": "games it decides (not tied)",
         "d_turns": "change in turns", "d_first_win_rate": "change in first player's win rate"}


def knob(name: str) -> str:
    """A rule knob in plain words, its name in brackets."""
    return in_words(name, WORDS)


def rate_estimates(t: pd.DataFrame, fair: float) -> list[Estimate]:
    """Each row's win rate minus `fair` (its Wilson interval as the error)."""
    return [Estimate.from_ci(r.win_rate - fair, r.ci_low - fair, r.ci_high - fair, int(r.n))
            for r in t.itertuples()]


def from_ci(t: pd.DataFrame, col: str, games: int) -> list[Estimate]:
    """Each row's `col` with its `col_ci_low`/`col_ci_high` interval as an estimate."""
    return [Estimate.from_ci(getattr(r, col), getattr(r, f"{col}_ci_low"),
                             getattr(r, f"{col}_ci_high"), games) for r in t.itertuples()]


class Ctx(Runs):
    """The shared run cache; Yosemite's runs are greedy against greedy unless told."""

    def sim(self, policies=("greedy", "greedy"), games: int | None = None, rotate: bool = True,
            **knobs) -> pd.DataFrame:
        return super().sim(policies, games, rotate, **knobs)


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
                "Win rate of the player who placed a pawn first and moves first, against the "
                "fair 50% (Wilson 95% CIs; ties shared), for each mirror match-up, classed "
                "against the smallest effect of interest.")
    rows = []
    for pol in ("greedy", "random"):
        df = ctx.sim((pol, pol))
        r = B.rates(df.assign(order=np.where(df["first"] == 1, "first", "second")), "order",
                    fair=0.5)
        rows.append(r.assign(policy=pol))
    t = pd.concat(rows, ignore_index=True).drop(columns=["p_adjusted", "significant"])
    # the second player's rate is the first's complement: one claim per match-up
    claims = ctx.classes(s, "first_player", t, [f"{r.policy} mirror" for r in t.itertuples()],
                         [e if r.order == "first" else None
                          for e, r in zip(rate_estimates(t, 0.5), t.itertuples(), strict=True)],
                         "pp")
    s.figure("first_player", *win_rates(ctx, t, "order",
                                        "Win rate by turn order", "Win rate of the first and "
                                        "the second player, per mirror match-up",
                                        "greedy in both seats; random in both seats",
                                        hue="policy", xlabel="turn order"))
    firsts = [(r, c) for r, c in zip(t.itertuples(), claims, strict=True) if c is not None]
    for r, c in firsts:
        def mirror(r=r, c=c) -> str:
            return (f"{r.policy} mirror: the first player wins {pct(r.win_rate)} "
                    f"[{pct(r.ci_low)}, {pct(r.ci_high)}]: {said(c, 'pp')} from the fair 50%.")
        s.later(mirror)
    ctx.label(s, "first player's win rate minus the fair 50%",
              owner_win_rate(lambda df: df["first"] == 1), 2)

    def key() -> list:
        r, c = firsts[0]
        if c.cls == MEANINGFUL:
            meaning = (f"moving first is worth {show(c.estimate.effect, 'pp')} of win rate to a "
                       "greedy player: the second player needs compensation")
        elif c.cls == "negligible":
            meaning = "no first-player edge worth a change"
        else:
            meaning = "whether the first player's edge needs a change is not settled at this n"
        fix = ctx.fix("first player")
        return [(f"{r.policy} mirror: the first player wins {pct(r.win_rate)} [{pct(r.ci_low)}, "
                 f"{pct(r.ci_high)}]: {said(c, 'pp')} from the fair 50%.",
                 meaning + (f"; {fix}" if fix else "") + ".")]
    s.key_findings(key)
    return s


def owner_win_rate(rows):
    """The measure "win rate of the players `rows(df)` selects minus the fair 50%", in the
    line-up's mirror match."""
    def measure(side) -> Effect:
        df = side.sim(2)
        return Effect(((1.0, win_rate(df, rows(df))),), ref=0.5)
    return measure


def spread_claim(ctx: Ctx, s: Section, key: str, names, estimates, unit: str):
    """The rankings at both ends of a list and the claim on the gap between its two ends
    (the leader minus the last, their errors in quadrature)."""
    best = ctx.rank(s, f"{key}: most", names, estimates)
    worst = ctx.rank(s, f"{key}: least", names, estimates, highest=False)
    hi, lo = estimates[best.leader], estimates[worst.leader]
    gap = ctx.claim(s, f"{key}: gap", Estimate(hi.effect - lo.effect, float(np.hypot(hi.se,
                                                                                   lo.se)),
                                              hi.games), unit)
    return best, worst, gap


# ---------------------------------------------------------------- 2 animals


def study_animals(ctx: Ctx) -> Section:
    s = Section("2-animals", 2, "2. Value of each animal's movement",
                "How often each movement is used per player-game (greedy mirror), the photo "
                "points taken on turns that used it (via the camera bonus) per use, and the "
                "score each use is worth by least squares over all player-games (the slopes "
                "are compared as independent estimates).")
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
    names = t.animal.tolist()
    used = ctx.rank(s, "most used", names, from_ci(t, "uses_per_game", ctx.games))
    best, worst, gap = spread_claim(ctx, s, "points per use", names,
                                    from_ci(t, "score_per_use", ctx.games), "points")

    def most() -> str:
        return (f"Most used: {used.text(lambda i: f' ({t.uses_per_game[i]:.2f} a game)')}; "
                f"{names[used.leader]} makes {pct(t.share_of_moves[used.leader])} of animal "
                "moves.")

    def worth() -> str:
        return (f"Worth most per use: {best.text(lambda i: f' ({t.score_per_use[i]:.2f})')}; "
                f"least: {worst.text(lambda i: f' ({t.score_per_use[i]:.2f})')}; the gap "
                f"between them is {said(gap, 'points')}.")
    s.later(most)
    s.later(worth)
    s.key_findings(lambda: [(worth(), (
        f"the movements are not equal: a use of {names[best.leader]} is worth "
        f"{show(gap.estimate.effect, 'points', signed=False)} more than one of "
        f"{names[worst.leader]}" if gap.cls == MEANINGFUL else
        f"no movement is shown to be worth meaningfully more per use than another (the "
        f"gap: {said(gap, 'points')})") + ".")])
    return s


# ---------------------------------------------------------------- 3 bonus icons


def study_bonuses(ctx: Ctx) -> Section:
    s = Section("3-bonuses", 3, "3. Bonus icons",
                "Tiles collected per player-game by bonus icon (greedy mirror) and the score "
                "each collected icon is worth by least squares over all player-games (the "
                "slopes are compared as independent estimates).")
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
    names = t.icon.tolist()
    best, worst, gap = spread_claim(ctx, s, "points per icon", names,
                                    from_ci(t, "score_per_icon", ctx.games), "points")

    def values() -> str:
        return ("Points per collected icon: " + ", ".join(
            f"{r.icon} {r.score_per_icon:.2f} [{r.score_per_icon_ci_low:.2f}, "
            f"{r.score_per_icon_ci_high:.2f}] ({r.per_game:.1f} a game)"
            for r in t.itertuples()) + f"; worth most: {best.text()}; least: {worst.text()}.")
    s.later(values)
    s.key_findings(lambda: [(values(), (
        f"the icons are not worth the same: {names[best.leader]} earns "
        f"{show(gap.estimate.effect, 'points', signed=False)} more a tile than "
        f"{names[worst.leader]} ({said(gap, 'points')})" if gap.cls == MEANINGFUL else
        f"the gap between the icons is {said(gap, 'points')}") + ".")])
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
    s.key_findings()  # a description: no balance claim
    return s


# ---------------------------------------------------------------- 5 landmarks and judges


def _landmark_table(df: pd.DataFrame, names) -> pd.DataFrame:
    """Each landmark token: how often it is taken, its points and its owner's win rate."""
    rows = []
    for i, name in enumerate(names):
        own = df[df[f"landmark{i}"] >= 0]
        r = B.rates(own.assign(landmark=name), "landmark", fair=0.5).iloc[0].to_dict()
        rows.append({**r, **proportion("taken", len(own), df.game.nunique()),
                     **estimate("mean_points", own[f"landmark{i}"])})
    return pd.DataFrame(rows).drop(columns=["p_adjusted", "significant"])


def _judge_table(df: pd.DataFrame) -> pd.DataFrame:
    """Each judge: how often it is in play and decided, and its taker's win rate."""
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
    return pd.DataFrame(rows).drop(columns=["p_adjusted", "significant"], errors="ignore")


def _owners_line(lm: pd.DataFrame, owners: list) -> str:
    below = sum(c.cls == MEANINGFUL and c.estimate.effect < 0 for c in owners)
    above = sum(c.cls == MEANINGFUL and c.estimate.effect > 0 for c in owners)
    return (f"A landmark's owner wins {pct(lm.win_rate.min())} to {pct(lm.win_rate.max())} "
            f"of games against the fair 50% (smallest effect "
            f"±{show(owners[0].delta, 'pp', signed=False)}): {below} of {len(lm)} owners "
            f"meaningfully less, {above} meaningfully more (" + "; ".join(
                f"{r.landmark} {pct(r.win_rate)} [{pct(r.ci_low)}, {pct(r.ci_high)}]: "
                f"{classed(c, 'pp', 'from fair')}"
                for r, c in zip(lm.itertuples(), owners, strict=True)) + ").")


def _landmarks_key(lm: pd.DataFrame, owners: list) -> list:
    """The key finding: the owners that win meaningfully less than half their games."""
    below = [r.landmark for r, c in zip(lm.itertuples(), owners, strict=True)
             if c.cls == MEANINGFUL and c.estimate.effect < 0]
    meaning = (f"the owners of {names_text(below)} win meaningfully less than half their "
               "games: as the landmark tokens are valued, taking one does not pay"
               if below else "no landmark is shown to lose or win its owner games "
               "meaningfully")
    return [(_owners_line(lm, owners), meaning + ".")]


def study_landmarks(ctx: Ctx) -> Section:
    s = Section("5-landmarks-judges", 5, "5. Landmark and judge balance",
                "For each landmark token: how often it is taken, what it scores its owner and "
                "the owner's win rate; for each judge: how often it is decided (not tied) when "
                "in play and the win rate of the player who takes it (greedy mirror); each "
                "win rate's distance from the fair 50% classed against the smallest effect of "
                "interest.")
    df = ctx.sim()
    names = ctx.config().components.landmarks  # the report's variant, else the bundle
    lm = _landmark_table(df, names)
    owners = ctx.classes(s, "landmarks", lm, lm.landmark.tolist(), rate_estimates(lm, 0.5),
                         "pp")
    s.figure("landmarks",
             F.bars(lm, "landmark", "mean_points", "mean_points_ci_low", "mean_points_ci_high",
                    "Points a landmark token scores its owner", ctx.note(), ylabel="points"),
             ctx.caption("Points a landmark token scores its owner", MIRROR, 2,
                         interval="95% Student-t CIs over owners"))
    jd = _judge_table(df)
    takers = ctx.classes(s, "judges", jd, jd.judge.tolist(),
                         [e if r.n > 0 else None for e, r in
                          zip(rate_estimates(jd, 0.5), jd.itertuples(), strict=True)], "pp")
    s.figure("judges", *win_rates(ctx, jd, "judge",
                                  "Win rate of the player who takes each judge",
                                  "Win rate of the player who takes each judge", MIRROR))
    points = ctx.rank(s, "scores its owner most", lm.landmark.tolist(),
                      from_ci(lm, "mean_points", ctx.games))
    least = ctx.rank(s, "scores its owner least", lm.landmark.tolist(),
                     from_ci(lm, "mean_points", ctx.games), highest=False)
    for i in range(len(names)):
        ctx.label(s, f"win rate of {lm.landmark[i]}'s owner minus the fair 50%",
                  owner_win_rate(lambda df, i=i: df[f"landmark{i}"] >= 0), 2)
    decided = jd[jd.n > 0]
    if len(decided):
        judge = decided.loc[decided.win_rate.idxmax()].judge
        key = ANIMAL_KEYS[list(ANIMALS).index(judge)]
        ctx.label(s, f"win rate of the player who takes the {judge} judge minus the fair 50%",
                  owner_win_rate(lambda df: df["judge_" + key] == 1), 2)

    def points_line() -> str:
        return (f"A landmark token is taken in {pct(lm.taken.min())} to {pct(lm.taken.max())} "
                f"of games; it scores its owner most: "
                f"{points.text(lambda i: f' ({lm.mean_points[i]:.2f} points)')}; least: "
                f"{least.text(lambda i: f' ({lm.mean_points[i]:.2f})')}.")

    def judges_line() -> str:
        live = [(r, c) for r, c in zip(jd.itertuples(), takers, strict=True) if c is not None]
        sure = [r.judge for r, c in live if c.cls == MEANINGFUL and c.estimate.effect > 0]
        return (f"Judges are decided (not tied) in {pct(jd.decided.min())} to "
                f"{pct(jd.decided.max())} of the games they are in; their takers win "
                f"{pct(jd.win_rate.min())} to {pct(jd.win_rate.max())}, meaningfully more than "
                f"50% for {names_text(sure) if sure else 'none'}.")
    s.later(lambda: _owners_line(lm, owners))
    s.later(points_line)
    s.later(judges_line)
    s.key_findings(lambda: _landmarks_key(lm, owners))
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
    s.key_findings()  # a description: no balance claim
    return s


# ---------------------------------------------------------------- 7 set-up knobs


def _knob_row(df: pd.DataFrame, base: pd.DataFrame) -> dict:
    """One knob value's length, mean score and first player's win rate, and (off the
    rulebook value) their paired changes from the rulebook game on the same deals."""
    g, first = per_game(df), df[df["first"] == 1]
    out = {**estimate("turns", g.turns), **estimate("mean_score", g.mean_score),
           **proportion("first_win_rate", first.won.sum(), len(first))}
    if df is base:
        return out
    d = paired_mean(per_game(base).turns, g.turns)
    f = paired_mean(seat_first(base), seat_first(df))
    return out | {"d_turns": d.effect, "d_turns_ci_low": d.ci[0], "d_turns_ci_high": d.ci[1],
                  "d_first_win_rate": f.effect, "d_first_win_rate_ci_low": f.ci[0],
                  "d_first_win_rate_ci_high": f.ci[1]}


def _knob_figures(ctx: Ctx, s: Section, t: pd.DataFrame) -> None:
    """Game length and the first player's win rate as each knob moves alone."""
    s.figure("setup_knobs_length",
             F.knob_lines(t, "turns", "Game length by knob", ctx.note(), "turns per game"),
             ctx.caption("Mean turns per game as each knob moves alone", MIRROR, 2,
                         interval="95% Student-t CIs over games"))
    s.figure("setup_knobs_first",
             F.knob_lines(t, "first_win_rate", "First player's win rate by knob", ctx.note(),
                          "first player's win rate (%)", percent=True),
             ctx.caption("The first player's win rate as each knob moves alone", MIRROR, 2))


def study_knobs(ctx: Ctx) -> Section:
    s = Section("7-setup-knobs", 7, "7. Set-up knobs",
                "Each knob moved alone from the rulebook value (greedy mirror, on the same "
                "deals as the rulebook game: common random numbers): game length, mean score "
                "and the first player's win rate, with the paired change of length and of the "
                "first player's win rate classed against the smallest effect of interest.")
    t = knob_table(ctx, KNOBS, _knob_row)
    bg = per_game(ctx.sim())
    keys = [f"{r.knob} = {r.value}" for r in t.itertuples()]
    words = [f"{knob(r.knob)} = {r.value}" for r in t.itertuples()]
    moved = [i for i, r in enumerate(t.itertuples()) if not r.default]

    def changes(col: str) -> list:
        return [None if r.default else Estimate.from_ci(
            getattr(r, col), getattr(r, f"{col}_ci_low"), getattr(r, f"{col}_ci_high"),
            ctx.games) for r in t.itertuples()]
    length = ctx.classes(s, "setup_knobs", t, keys, changes("d_turns"), "turns", suffix="_turns")
    first = ctx.classes(s, "setup_knobs", t, keys, changes("d_first_win_rate"), "pp",
                        suffix="_first")
    _knob_figures(ctx, s, t)
    most = ctx.rank(s, "largest change in game length", [words[i] for i in moved],
                    [Estimate(abs(length[i].estimate.effect), length[i].estimate.se, ctx.games)
                     for i in moved])

    def reacts() -> str:
        i = moved[most.leader]
        return (f"Game length reacts most to {most.text()}: {t.turns[i]:.1f} turns against "
                f"{bg.turns.mean():.1f} with the rulebook's set-up, a change of "
                f"{said(length[i], 'turns')}.")

    dealt = t.index[(t.knob == "tiles_dealt") & ~t.default][0]

    def five() -> str:
        r = t.loc[dealt]
        return (f"Dealing 5 tiles instead of 3: mean score {r.mean_score:.1f} against "
                f"{t[t.default].mean_score.iloc[0]:.1f}; the first player wins "
                f"{pct(r.first_win_rate)} [{pct(r.first_win_rate_ci_low)}, "
                f"{pct(r.first_win_rate_ci_high)}], a change of {said(first[dealt], 'pp')} "
                "against the rulebook's 3.")

    def edge() -> str:
        fairer = [words[i] for i in moved if first[i].cls == MEANINGFUL
                  and first[i].estimate.effect < 0]
        return ("The first player's edge falls meaningfully with " + names_text(fairer)
                if fairer else "No set-up knob tried lowers the first player's edge "
                "meaningfully") + "."
    s.later(reacts)
    s.later(five)
    s.later(edge)
    big = t.iloc[moved[most.leader]]
    value = next(v for v in KNOBS[big.knob][1] if str(v) == big.value)
    ctx.label(s, f"{knob(big.knob)} = {big.value}: change in turns per game",
              knob_effect("turns", 2, {big.knob: value}), 2, unit="turns")
    ctx.label(s, f"{knob('tiles_dealt')} = 5: change in the first player's win rate",
              knob_effect("won", 2, {"tiles_dealt": 5}, rows=lambda df: df["first"] == 1), 2)
    s.key_findings(lambda: [(reacts(), f"{knob(big.knob)} is the lever for game length; "
                             + edge()[0].lower() + edge()[1:])])
    return s


def seat_first(df: pd.DataFrame) -> np.ndarray:
    """Per game, whether the first player won (a shared win counts its share)."""
    return df[df["first"] == 1].sort_values("game").won.to_numpy(float)


# ---------------------------------------------------------------- 8 policies


def study_policies(ctx: Ctx) -> Section:
    n_search = max(40, ctx.games // SEARCH_SHARE)
    s = Section("8-policies", 8, "8. Policy strength",
                f"Head-to-head win rates, seats rotated: greedy and random over {ctx.games:,} "
                "games; the search (Monte Carlo) player, on the bundled tuned-2p policy, "
                f"against greedy and against tuned-2p alone over {n_search:,} games each; "
                "each win rate's distance from an even 50% classed against the smallest "
                "effect of interest.")
    runs, first = [], 0
    for a, b, n in (("greedy", "random", ctx.games), ("search", "greedy", n_search),
                    ("search", "tuned-2p", n_search)):
        df = ctx.sim((a, b), games=n)
        runs.append(df.assign(game=df.game + first, policy=df.policy.astype(str)))
        first += n  # each run's games numbered after the last's, whichever is longer
    t = B.matchup_table(pd.concat(runs, ignore_index=True)).drop(columns=["p_adjusted",
                                                                          "significant"])
    claims = ctx.classes(s, "matchups", t, [f"{r.policy} vs {r.opponent}" for r in t.itertuples()],
                         [e if r.win_rate >= 0.5 else None for e, r in
                          zip(rate_estimates(t, 0.5), t.itertuples(), strict=True)], "pp")
    png, caption = win_rates(ctx, t, "policy", "Win rate against each opponent",
                             "Win rate of each policy against each opponent",
                             "greedy v random, search v greedy, search v tuned-2p (seats "
                             "rotated)", hue="opponent")
    s.figure("matchups", png, caption.replace(f"n = {ctx.games:,} games",
                                              f"n = {ctx.games:,} games (search: {n_search:,})"))
    def share(r) -> str:
        return (f"{pct(r.win_rate)} [{pct(r.ci_low)}, {pct(r.ci_high)}] of {r.n:,} games head "
                f"to head (section {s.title})")
    rows = {(r.policy, r.opponent): r for r in t.itertuples()}
    for r, c in zip(t.itertuples(), claims, strict=True):
        if c is not None:  # the one claim of the pair, the skill ladder's too
            ctx.versus(2, r.policy, r.opponent, c, share(r), share(rows[r.opponent, r.policy]))
    for r, c in zip(t.itertuples(), claims, strict=True):
        if c is not None:
            def beats(r=r, c=c) -> str:
                return (f"{r.policy} beats {r.opponent} in {pct(r.win_rate)} "
                        f"[{pct(r.ci_low)}, {pct(r.ci_high)}] of {r.n:,} games: "
                        f"{said(c, 'pp')} from an even 50%.")
            s.later(beats)
    s.key_findings()  # the ladder and the luck section say how strong each policy is
    return s


# The worst findings rebalancing looks for a fix of ("Smallest fixes found").
FIXES = [Problem("first player", "first_player", ("start_fish",), (2,))]

STUDIES = {
    "luck": (lambda ctx: luck_section(ctx, 0, [2]), 4),
    "first": (study_first, 2), "animals": (study_animals, 0), "bonuses": (study_bonuses, 0),
    "scores": (study_scores, 0), "landmarks": (study_landmarks, 0), "length": (study_length, 0),
    "knobs": (study_knobs, 8), "policies": (study_policies, 3),
    "ladder": (lambda ctx: ladder_section(ctx, 9, 2), 1),
    "fixes": (lambda ctx: fixes_section(ctx, 10, FIXES, 5_000), len(FIXES)),
}


def build(out="reports/yosemite", games: int = 5_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True,
          strong: str | None = STRONG, strong_games: int | None = None,
          ladder_games: int | None = None, smallest=None, tolerances=None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (default: the bundled tuned policy), test every claim under one standard against
    the smallest effects of interest, render the report."""
    return build_report("yosemite", "Yosemite - balance report", STUDIES, out, games, seed,
                        studies, threads, components, progress, runs_type=Ctx, strong=strong,
                        strong_games=strong_games, ladder_games=ladder_games,
                        smallest=smallest, words=WORDS,
                        tolerances=tolerances)
