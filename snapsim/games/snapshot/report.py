"""The Snapshot balance report: eight studies, each a section with findings, figures, tables.

Every number shown is computed here from seeded simulations; every finding is generated
from those numbers (nothing is written by hand). Each study can be re-run on its own
(`analyses/`), which rewrites its section and re-renders the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ...analysis import balance as B
from ...analysis.labels import Estimate
from ...analysis.stats import wilson_interval
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
    seat_advantage,
    seat_spread,
    win_rate,
)
from .api import details
from .config import FIVE_PLAYER_NOTE, RULEBOOK_TARGET, players_label

POLICIES = ("greedy", "cautious", "aggressive", "collector", "random")
RESTRICTIONS = {"reserving": "allow_reserve", "offers": "allow_offers",
                "tracking tokens": "allow_tokens", "explore re-rolls": "allow_rerolls"}
SCHEDULES = {3: [(2, 3, 4), (3, 3, 3), (2, 3, 3), (3, 3, 4)],
             4: [(2, 3, 4, 5), (3, 3, 3, 3), (2, 3, 3, 4), (3, 3, 4, 4)]}
SENSITIVITY = {"photo_target": (RULEBOOK_TARGET[4], (6, 8)), "reroll_cost": (2, (1, 3)),
               "experience_tokens": (3, (2, 4)), "reserve_limit": (2, (1, 3))}
GREEDY = ["greedy"]
COMPONENTS = ("prestige", "awards", "cover", "article")
TOKEN_SOURCES = ("tokens_from_placing", "tokens_from_experience", "tokens_from_offers",
                 "tokens_paid_offers", "tokens_spent_photos", "tokens_spent_rerolls")


class Ctx(Runs):
    """The shared run cache plus Snapshot's per-card and award-timing statistics."""

    def players_label(self, players: int) -> str:
        return players_label(players)

    def details(self, players=4, policy: str = "greedy", games: int | None = None):
        games = games or self.games
        key = ("details", players, policy, games)
        if key not in self.cache:
            self.cache[key] = details(self.config(players=players), [policy] * players,
                                      games, self.seed)
            self.tick()
        return self.cache[key]


def percent(table: pd.DataFrame) -> pd.DataFrame:
    """A win-rate table with its rate and interval in percent, for a figure."""
    return table.assign(**{c: 100 * table[c] for c in ("win_rate", "ci_low", "ci_high")})


def game_measures(ctx: Ctx, df: pd.DataFrame, base: pd.DataFrame) -> dict:
    """Game length, mean score, spooks and seat spread of a run with their 95% CIs, the
    last seat's win rate, and Welch p-values of length and score against `base`."""
    g, bg = per_game(df), per_game(base)
    last = df[df.seat == df.seat.max()]
    return {**estimate("rounds", g.rounds), **estimate("mean_score", g.mean_score),
            **estimate("spooks_per_game", g.spooks), **seat_spread(df, ctx.seed),
            **proportion("last_seat_win_rate", last.won.sum(), len(last)),
            "p_rounds": B.compare_runs(bg, g, "rounds")["p_value"] if df is not base else 1.0,
            "p_score": B.compare_runs(bg, g, "mean_score")["p_value"] if df is not base
            else 1.0}


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game: length, score spread, spooks."""
    g = df.groupby("game")
    return pd.DataFrame({"rounds": g.rounds.first(), "score_sd": g.score.std(ddof=0),
                         "mean_score": g.score.mean(), "spooks": g.spooks.sum(),
                         "truncated": g.truncated.first()})


# ---------------------------------------------------------------- 1 seats


def study_seats(ctx: Ctx) -> Section:
    s = Section("1-seats", 1, "1. Seat advantage",
                "Win rate by seat with the rulebook's starting tokens (2, 3, 4, ...), every "
                "seat played by the greedy policy, tested against the fair share 1/players; "
                "then alternative starting-token schedules for 3 and 4 players. The rulebook "
                f"plays five with the Flora Expansion: 5-player games use the {FIVE_PLAYER_NOTE}"
                ".")
    seats = seat_advantage(ctx, s, sorted(RULEBOOK_TARGET))
    seats["cards"] = np.where(seats.players == 5, FIVE_PLAYER_NOTE, "rulebook")
    rows = []
    for n, schedules in SCHEDULES.items():
        for sched in schedules:
            knobs = {} if sched == SCHEDULES[n][0] else {"start_tokens": sched}
            df = ctx.sim(["greedy"], players=n, **knobs)
            wins = df.groupby("seat").won.sum().to_numpy()
            chi = stats.chisquare(wins)
            games = df.game.nunique()
            rates = wins / games
            rows.append({"players": n, "start_tokens": "-".join(map(str, sched)),
                         "rulebook": sched == SCHEDULES[n][0],
                         "max_abs_deviation": float(np.max(np.abs(rates - 1 / n))),
                         "chi2": float(chi.statistic), "p_value": float(chi.pvalue),
                         **{k: v for i, w in enumerate(wins)
                            for k, v in proportion(f"seat{i + 1}", w, games).items()}})
    sched = pd.DataFrame(rows)
    s.tables["start_token_schedules"] = sched
    for n, sub in sched.groupby("players"):
        fair = sub.loc[sub.chi2.idxmin()]
        rule = sub[sub.rulebook].iloc[0]
        s.findings.insert(1 if n == 4 else len(s.findings),
            f"{n} players: the fairest starting tokens tried are {fair.start_tokens} (largest "
            f"seat deviation {pct(fair.max_abs_deviation)}, chi-square p = {fair.p_value:.3g}) "
            f"vs the rulebook's {rule.start_tokens} ({pct(rule.max_abs_deviation)}, "
            f"p = {rule.p_value:.3g}).")
    return s


# ---------------------------------------------------------------- 2 policies


def study_policies(ctx: Ctx) -> Section:
    s = Section("2-policies", 2, "2. Policy strength",
                "Two-player matchups between the heuristic policies (seats rotated): the "
                "matrix gives P(row beats column); the stronger side's win rate says how much "
                "skill decides a game and how much luck.")
    parts = []
    for i, a in enumerate(POLICIES):
        for b in POLICIES[i + 1:]:
            parts.append(ctx.sim([a, b], players=2))
    runs = pd.concat([p.assign(game=p.game + k * ctx.games) for k, p in enumerate(parts)],
                     ignore_index=True)
    runs["policy"] = runs.policy.astype(str)
    table = B.matchup_table(runs)
    matrix = B.matchup_matrix(runs).reindex(index=list(POLICIES), columns=list(POLICIES))
    s.tables["matchups"] = table
    lo, hi = (table.pivot(index="policy", columns="opponent", values=c)
              .reindex(index=list(POLICIES), columns=list(POLICIES)) * 100
              for c in ("ci_low", "ci_high"))
    s.figure("matchups", F.heatmap((matrix * 100).rename_axis(index="policy",
                                                              columns="opponent"),
                                   lo, hi, "P(row policy beats column policy), 2 players",
                                   ctx.note(), "row policy's win rate (%)"),
             ctx.caption("Win rate (%) of the row policy against the column policy, 95% CI "
                         "in brackets", "each pair of " + ", ".join(POLICIES)
                         + " (seats rotated)", 2))
    strength = matrix.mean(axis=1, skipna=True).sort_values(ascending=False)
    s.findings.append(f"Strongest policy: {strength.index[0]} (mean win rate "
                      f"{pct(strength.iloc[0])} against the others); weakest: "
                      f"{strength.index[-1]} ({pct(strength.iloc[-1])}).")
    skilled = table[(table.win_rate > 0.5) & (table.policy != "random")
                    & (table.opponent != "random")]
    if len(skilled):
        s.findings.append(
            f"Between non-random policies the stronger side wins {pct(skilled.win_rate.min())}"
            f" to {pct(skilled.win_rate.max())} of games (median "
            f"{pct(skilled.win_rate.median())}): luck still decides many games.")
    return s


# ---------------------------------------------------------------- 3 restricted play


def study_restricted(ctx: Ctx) -> Section:
    s = Section("3-restricted", 3, "3. Restricted play and Simpler Variants",
                "One greedy player forbidden an action against three unrestricted greedy "
                "players (seats rotated): the drop below the fair 25% is what the action is "
                "worth. Then the rulebook's Simpler Variants, played by all four.")
    rows = []
    for action, param in RESTRICTIONS.items():
        name = f"greedy:{param}=0"
        df = ctx.sim([name, "greedy", "greedy", "greedy"], players=4)
        rows.append({"forbidden": action, **B.restricted_play(df, name, 4)})
    table = B.with_flags(pd.DataFrame(rows))
    s.tables["restricted_play"] = table
    s.figure("restricted_play",
             F.bars(percent(table), "forbidden", "win_rate", "ci_low", "ci_high",
                    "Win rate of a greedy player forbidden an action", ctx.note(), ref=25,
                    ylabel="win rate (%, fair 25%)", xlabel="action forbidden"),
             ctx.caption("Win rate of one greedy player forbidden an action; dashed line: "
                         "the fair 25%", "greedy without the action, greedy x3 (seats "
                         "rotated)", 4))
    for r in table.sort_values("win_rate").itertuples():
        s.findings.append(f"Without {r.forbidden} a greedy player wins {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] instead of 25% "
                          f"({pp(r.win_rate - 0.25)}, "
                          f"{'significant' if r.significant else 'not significant'}).")
    for action, param in RESTRICTIONS.items():
        ctx.label(s, f"win rate without {action} minus the fair 25%", restricted(param), 4)
    base = per_game(ctx.sim(["greedy"], players=4))
    variants = {"full game": {}, "1: no assignments/raccoon": dict(assignments=False,
                                                                   raccoon=False),
                "2: no tracking tokens": dict(tracking_tokens=False),
                "3: no reserving": dict(reserving=False),
                "1+2+3": dict(assignments=False, raccoon=False, tracking_tokens=False,
                              reserving=False)}
    vrows = []
    for label, knobs in variants.items():
        g = per_game(ctx.sim(["greedy"], players=4, **knobs))
        row = {"variant": label, **estimate("rounds", g.rounds),
               **estimate("score_sd", g.score_sd), **estimate("mean_score", g.mean_score)}
        for m in ("rounds", "score_sd"):
            row[f"p_{m}"] = B.compare_runs(base, g, m)["p_value"] if knobs else 1.0
        vrows.append(row)
    vt = B.flag_columns(pd.DataFrame(vrows), ["p_rounds", "p_score_sd"])
    s.tables["simpler_variants"] = vt
    s.figure("simpler_variants",
             F.bars(vt, "variant", "rounds", "rounds_ci_low", "rounds_ci_high",
                    "Game length under the Simpler Variants", ctx.note(),
                    ylabel="mean rounds per game"),
             ctx.caption("Mean game length per Simpler Variant", GREEDY, 4,
                         interval="95% Student-t CIs over games"))
    for r in vt.iloc[1:].itertuples():
        sig = "significant" if r.p_rounds_significant else "not significant"
        s.findings.append(f"Variant {r.variant}: {r.rounds:.2f} rounds vs {vt.rounds.iloc[0]:.2f}"
                          f" (Welch p = {r.p_rounds:.3g}, {sig}), score spread within a game "
                          f"{r.score_sd:.1f} vs {vt.score_sd.iloc[0]:.1f}.")
    ctx.label(s, "Simpler Variants 1+2+3: change in game length", knob_effect(
        "rounds", 4, variants["1+2+3"]), 4, unit="rounds")
    return s


def restricted(param: str):
    """The measure "win rate of one player forbidden `param`, among three unrestricted
    players of the same line-up, minus the fair 25%"."""
    def measure(side) -> Effect:
        name = f"{side.policy(4)}:{param}=0"
        df = side.sim(4, seats=lambda p: [name, p, p, p])
        return Effect(((1.0, win_rate(df, df.policy.astype(str) == name)),), ref=0.25)
    return measure


# ---------------------------------------------------------------- 4 cards


def study_cards(ctx: Ctx) -> Section:
    s = Section("4-cards", 4, "4. Card value",
                "For every animal (4 greedy players): attempts and photographs per game, the "
                "prestige it brings and prestige per die rolled at it. Outliers: prestige per "
                "die more than 2.5 robust standard deviations (MAD) from its habitat's median.")
    cards, _ = ctx.details()
    cards = cards.copy()
    cards["attempts_per_game"] = cards.attempts / cards.games
    cards["photo_rate"] = cards.photos / cards.attempts.where(cards.attempts > 0)
    cards["prestige_per_game"] = cards.photos * cards.prestige / cards.games
    cards["prestige_per_die"] = cards.photos * cards.prestige / cards.dice.where(cards.dice > 0)
    lo, hi = wilson_interval(cards.photos, cards.dice)
    cards["prestige_per_die_ci_low"] = lo * cards.prestige
    cards["prestige_per_die_ci_high"] = hi * cards.prestige
    grp = cards.groupby("habitat").prestige_per_die
    med = grp.transform("median")
    mad = grp.transform(lambda x: stats.median_abs_deviation(x, nan_policy="omit",
                                                             scale="normal"))
    cards["robust_z"] = (cards.prestige_per_die - med) / mad.replace(0, np.nan)
    cards["outlier"] = cards.robust_z.abs() > 2.5
    s.tables["card_value"] = cards
    plot = cards.sort_values(["habitat", "difficulty"])
    s.figure("card_value",
             F.bars(plot, "card", "prestige_per_die", "prestige_per_die_ci_low",
                    "prestige_per_die_ci_high", "Prestige per die rolled, by animal",
                    ctx.note(), hue="habitat", ylabel="prestige per die rolled",
                    dodge=False, legend=str, xlabel="animal"),
             ctx.caption("Prestige per die rolled at each animal, grouped by habitat",
                         GREEDY, 4, interval="95% Wilson CIs of photographs per die, times "
                         "the card's prestige"))
    top = cards.loc[cards.prestige_per_die.idxmax()]
    low = cards.loc[cards.prestige_per_die.idxmin()]
    s.findings.append(f"Best value: {top.card} ({top.habitat}, difficulty {top.difficulty}) "
                      f"with {top.prestige_per_die:.2f} prestige per die; worst: {low.card} "
                      f"({low.prestige_per_die:.2f}).")
    flagged = cards[cards.outlier]
    s.findings.append("Outliers: " + (", ".join(f"{r.card} (z = {r.robust_z:.1f})"
                                                for r in flagged.itertuples())
                                      if len(flagged) else "none."))
    for card in dict.fromkeys((top.card, low.card, *flagged.card)):
        ctx.label(s, f"{card}: prestige per die minus its habitat's median",
                  card_value(ctx, card), 4, unit="prestige per die")
    return s


def card_value(ctx: Ctx, card: str):
    """The measure "prestige per die rolled at `card` minus its habitat's median", with the
    card's Wilson interval (the median taken as known; per-card totals are not per game, so
    the line-ups compare as independent)."""
    def measure(side) -> Estimate:
        cards, _ = ctx.details(4, side.policy(4), side.games)
        c = cards.set_index("card")
        value = c.photos * c.prestige / c.dice.where(c.dice > 0)
        median = value.groupby(c.habitat).transform("median")
        lo, hi = wilson_interval(c.photos[card], c.dice[card])
        return Estimate.from_ci(value[card] - median[card], lo * c.prestige[card] - median[card],
                                hi * c.prestige[card] - median[card], side.games)
    return measure


# ---------------------------------------------------------------- 5 awards and assignments


def study_awards(ctx: Ctx) -> Section:
    s = Section("5-awards", 5, "5. Awards and assignments",
                "When award tokens are claimed, their share of scores, and win rate by "
                "assignment card (4 greedy players, fair share 25%; a card whose CI excludes "
                "it is flagged), with cover-photo completion and feature-article points.")
    df = ctx.sim(["greedy"], players=4)
    _, awards = ctx.details()
    s.tables["award_timing"] = awards
    share = B.score_breakdown(df.assign(all="all"), COMPONENTS, by="all")
    s.tables["score_components"] = share
    names = [a.name for a in ctx.config().components.assignments]
    by = B.rates(df.assign(assignment_name=df.assignment.map(dict(enumerate(names)))),
                 "assignment_name", fair=0.25)
    extra = pd.DataFrame([{**proportion("cover_rate", (sub.cover > 0).sum(), len(sub)),
                           **estimate("article_points", sub.article)}
                          for _, sub in df.groupby("assignment")])
    extra.index = [names[i] for i in sorted(df.assignment.unique())]
    by = by.merge(extra, left_on="assignment_name", right_index=True)
    by["flagged"] = (by.ci_low > 0.25) | (by.ci_high < 0.25)
    s.tables["assignments"] = by
    s.figure("assignments",
             F.bars(percent(by), "assignment_name", "win_rate", "ci_low", "ci_high",
                    "Win rate by assignment card", ctx.note(), ref=25,
                    ylabel="win rate (%, fair 25%)", xlabel="assignment card"),
             ctx.caption("Win rate by assignment card; dashed line: the fair 25%", GREEDY,
                         4))
    first = awards[awards.place == 1]
    s.findings.append(
        f"Awards make {pct(share.awards_share.iloc[0])} of scores; first-place tokens are "
        f"claimed in rounds {first.mean_round.min():.1f}-{first.mean_round.max():.1f} on "
        f"average, {pct(first.claimed.min() / ctx.games)}-"
        f"{pct(first.claimed.max() / ctx.games)} of games claim them.")
    for name in dict.fromkeys((by.loc[by.win_rate.idxmax()].assignment_name,
                               by.loc[by.win_rate.idxmin()].assignment_name,
                               *by[by.flagged].assignment_name)):
        ctx.label(s, f"win rate with {name} minus the fair 25%",
                  assignment_win_rate(names.index(name)), 4)
    flagged = by[by.flagged]
    s.findings.append(
        ("Unbalanced assignments: " + ", ".join(f"{r.assignment_name} wins {pct(r.win_rate)}"
                                                f" [{pct(r.ci_low)}, {pct(r.ci_high)}]"
                                                for r in flagged.itertuples()))
        if len(flagged) else "No assignment's win-rate CI excludes the fair 25%.")
    s.findings.append(f"Cover photo completed in {pct((df.cover > 0).mean())} of player-games;"
                      f" feature articles average {df.article.mean():.1f} prestige.")
    return s


def assignment_win_rate(index: int):
    """The measure "win rate of the players dealt assignment `index` minus the fair 25%"."""
    def measure(side) -> Effect:
        df = side.sim(4)
        return Effect(((1.0, win_rate(df, df.assignment == index)),), ref=0.25)
    return measure


# ---------------------------------------------------------------- 6 raccoon


def study_raccoon(ctx: Ctx) -> Section:
    s = Section("6-raccoon", 6, "6. The raccoon",
                "Four greedy players with and without the raccoon expansion card.")
    base = ctx.sim(GREEDY, players=4, raccoon=True)
    rows = []
    for label, on in (("with raccoon", True), ("without raccoon", False)):
        df = ctx.sim(["greedy"], players=4, raccoon=on)
        rows.append({"setting": label, **game_measures(ctx, df, base)})
    t = B.flag_columns(pd.DataFrame(rows), ["p_rounds", "p_score"])
    s.tables["raccoon"] = t
    s.figure("raccoon",
             F.bars(t, "setting", "mean_score", "mean_score_ci_low", "mean_score_ci_high",
                    "Mean score per player", ctx.note(), ylabel="mean score (prestige)",
                    xlabel=""),
             ctx.caption("Mean score per player with and without the raccoon", GREEDY, 4,
                         interval="95% Student-t CIs over games"))
    a, b = t.iloc[0], t.iloc[1]
    s.findings.append(f"The raccoon changes the mean score from {b.mean_score:.1f} to "
                      f"{a.mean_score:.1f} (Welch p = {b.p_score:.3g}) and game length from "
                      f"{b.rounds:.2f} to {a.rounds:.2f} rounds (p = {b.p_rounds:.3g}).")
    s.findings.append(f"Spooks per game: {a.spooks_per_game:.2f} with it, "
                      f"{b.spooks_per_game:.2f} without.")
    ctx.label(s, "the raccoon's change in mean score", knob_effect(
        "score", 4, {"raccoon": True}, {"raccoon": False}), 4, unit="points")
    return s


# ---------------------------------------------------------------- 7 rule sensitivity


def study_sensitivity(ctx: Ctx) -> Section:
    s = Section("7-sensitivity", 7, "7. Rule sensitivity",
                "Each knob moved alone from the rulebook value (4 greedy players; the photo "
                "target's default is 7): game length, seat advantage (win-rate spread between "
                "the best and worst seat) and mean score. Same seed: common random numbers.")
    t = B.flag_columns(knob_table(ctx, SENSITIVITY, lambda df, base: game_measures(ctx, df,
                                                                                  base),
                                  policies=GREEDY, players=4), ["p_rounds", "p_score"])
    bg = per_game(ctx.sim(GREEDY, players=4))
    s.tables["rule_sensitivity"] = t
    s.figure("rule_sensitivity_length",
             F.lines(t, "value", "rounds", "rounds_ci_low", "rounds_ci_high",
                     "Game length by rule knob", ctx.note(), panels="knob",
                     ylabel="mean rounds per game", xlabel="knob value"),
             ctx.caption("Mean game length as each knob moves alone", GREEDY, 4,
                         interval="95% Student-t CIs over games"))
    spread = t.assign(**{c: 100 * t[c] for c in ("seat_spread", "seat_spread_ci_low",
                                                 "seat_spread_ci_high")})
    s.figure("rule_sensitivity_seats",
             F.lines(spread, "value", "seat_spread", "seat_spread_ci_low",
                     "seat_spread_ci_high", "Seat win-rate spread by rule knob", ctx.note(),
                     panels="knob", ylabel="best - worst seat win rate (pp)",
                     xlabel="knob value"),
             ctx.caption("Win-rate spread between the best and the worst seat, in percentage "
                         "points, as each knob moves alone", GREEDY, 4,
                         interval="95% bootstrap CIs, games resampled"))
    moved = t[~t.default].copy()
    moved["effect"] = (moved.rounds - bg.rounds.mean()).abs()
    big = moved.loc[moved.effect.idxmax()]
    s.findings.append(f"Game length reacts most to {big.knob} = {big.value}: {big.rounds:.2f} "
                      f"rounds vs {bg.rounds.mean():.2f} (p = {big.p_rounds:.3g}).")
    value = type(SENSITIVITY[big.knob][0])(big.value)
    ctx.label(s, f"{big.knob} = {big.value}: change in game length", knob_effect(
        "rounds", 4, {big.knob: value}), 4, unit="rounds")
    fair = t.loc[t.seat_spread.idxmin()]
    s.findings.append(f"The smallest seat spread is with {fair.knob} = {fair.value} "
                      f"({100 * fair.seat_spread:.1f} pp [{100 * fair.seat_spread_ci_low:.1f}, "
                      f"{100 * fair.seat_spread_ci_high:.1f}] between best and worst seat).")
    return s


# ---------------------------------------------------------------- 8 tokens


def study_tokens(ctx: Ctx) -> Section:
    s = Section("8-tokens", 8, "8. Token economy and push-your-luck",
                "Tracking tokens earned and spent by source, spooks and draws, per policy "
                "(one game of greedy, cautious, aggressive and collector, seats rotated).")
    df = ctx.sim(["greedy", "cautious", "aggressive", "collector"], players=4)
    df = df.assign(policy=df.policy.astype(str))
    rows = []
    for policy, sub in df.groupby("policy"):
        row = {"policy": policy}
        for col in (*TOKEN_SOURCES, "spooks"):
            row |= estimate(col, sub[col])
        row |= ratio("draws_per_turn", sub.draws, sub.turns)
        row |= ratio("placed_per_turn", sub.placed, sub.turns)
        row |= proportion("win_rate", sub.won.sum(), len(sub))
        rows.append(row)
    t = pd.DataFrame(rows).rename(columns=lambda c: c.replace("spooks", "spooks_per_game"))
    s.tables["token_economy"] = t
    long = pd.concat([t[["policy"]].assign(source=src.removeprefix("tokens_"), tokens=t[src],
                                           lo=t[f"{src}_ci_low"], hi=t[f"{src}_ci_high"])
                      for src in TOKEN_SOURCES], ignore_index=True)
    lineup = ["greedy", "cautious", "aggressive", "collector"]
    s.figure("token_economy",
             F.bars(long, "source", "tokens", "lo", "hi", "Tokens per player-game by source",
                    ctx.note(), hue="policy", ylabel="tokens per player per game",
                    legend=str, xlabel="token source"),
             ctx.caption("Tracking tokens earned and spent per player and game, by source",
                         lineup, 4, interval="95% Student-t CIs over player-games"))
    s.figure("draws",
             F.bars(t, "policy", "draws_per_turn", "draws_per_turn_ci_low",
                    "draws_per_turn_ci_high", "Cards drawn per turn", ctx.note(),
                    ylabel="cards drawn per turn"),
             ctx.caption("Push-your-luck: cards drawn per turn by policy", lineup, 4,
                         interval="95% delta-method CIs of the ratio draws / turns"))
    hi = t.loc[t.draws_per_turn.idxmax()]
    s.findings.append(f"{hi.policy} draws most ({hi.draws_per_turn:.2f} cards a turn) and "
                      f"spooks {hi.spooks_per_game:.2f} times a game; the best win rate is "
                      f"{t.loc[t.win_rate.idxmax()].policy}'s ({pct(t.win_rate.max())}).")
    main = t.set_index("policy").loc["greedy"]
    s.findings.append(f"A greedy player earns {main.tokens_from_placing:.1f} tokens a game by "
                      f"placing cards and {main.tokens_from_experience:.1f} from experience, "
                      f"spends {main.tokens_spent_photos:.1f} on photographs and "
                      f"{main.tokens_spent_rerolls:.1f} on re-rolls.")
    return s


# The worst findings rebalancing looks for a fix of ("Smallest fixes found").
FIXES = [Problem("seat spread, 4 players", ("seat_spread=2",), ("start_tokens",), (4,)),
            Problem("assignments, 4 players", ("assignments=3",), ("assignments.chart",), (4,))]

STUDIES = {
    "seats": (study_seats, 10), "policies": (study_policies, 10),
    "restricted": (study_restricted, 8), "cards": (study_cards, 1), "awards": (study_awards, 0),
    "raccoon": (study_raccoon, 1), "sensitivity": (study_sensitivity, 8),
    "tokens": (study_tokens, 1),
    "ladder": (lambda ctx: ladder_section(ctx, 9, 4), 1),
    "fixes": (lambda ctx: fixes_section(ctx, 10, FIXES, 20_000), len(FIXES)),
}


def build(out="reports/snapshot", games: int = 20_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True,
          strong: str | None = STRONG, strong_games: int | None = None,
          ladder_games: int | None = None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (default: the tuned policy for each player count), render the report."""
    return build_report("snapshot", "Snapshot: Wildlife Photographer - balance report",
                        STUDIES, out, games, seed, studies, threads, components, progress,
                        runs_type=Ctx, strong=strong, strong_games=strong_games,
                        ladder_games=ladder_games)
