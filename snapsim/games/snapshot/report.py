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
from ...report import Section
from ...report import figures as F
from ...report.studies import Runs, build_report, pct, seat_finding
from ...report.studies import study_main as shared_study_main
from .api import details
from .config import FIVE_PLAYER_NOTE, RULEBOOK_TARGET, players_label

POLICIES = ("greedy", "cautious", "aggressive", "collector", "random")
RESTRICTIONS = {"reserving": "allow_reserve", "offers": "allow_offers",
                "tracking tokens": "allow_tokens", "explore re-rolls": "allow_rerolls"}
SCHEDULES = {3: [(2, 3, 4), (3, 3, 3), (2, 3, 3), (3, 3, 4)],
             4: [(2, 3, 4, 5), (3, 3, 3, 3), (2, 3, 3, 4), (3, 3, 4, 4)]}
SENSITIVITY = {"photo_target": (6, 8), "reroll_cost": (1, 3), "experience_tokens": (2, 4),
               "reserve_limit": (1, 3)}
COMPONENTS = ("prestige", "awards", "cover", "article")
TOKEN_SOURCES = ("tokens_from_placing", "tokens_from_experience", "tokens_from_offers",
                 "tokens_paid_offers", "tokens_spent_photos", "tokens_spent_rerolls")


class Ctx(Runs):
    """The shared run cache plus Snapshot's per-card and award-timing statistics."""

    def details(self, players=4):
        key = ("details", players)
        if key not in self.cache:
            self.cache[key] = details(self.config(players=players), ["greedy"] * players,
                                      self.games, self.seed)
            self.tick()
        return self.cache[key]


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
    runs = {n: ctx.sim(["greedy"], players=n) for n in sorted(RULEBOOK_TARGET)}
    seats = B.seat_advantage(pd.concat(runs.values(), ignore_index=True))
    seats["vs_fair"] = seats.win_rate - seats.fair_share
    seats["cards"] = np.where(seats.players == 5, FIVE_PLAYER_NOTE, "rulebook")
    s.tables["seat_advantage"] = seats
    plot = seats.assign(lo=seats.ci_low - seats.fair_share, hi=seats.ci_high - seats.fair_share,
                        seat=seats.seat + 1)
    s.figures["seat_advantage"] = F.bars(plot, "seat", "vs_fair", "lo", "hi",
                                         "Win rate minus fair share, by seat", ctx.note(),
                                         hue="players", ref=0.0, ylabel="win rate - 1/players")
    s.captions["seat_advantage"] = (f"Seat advantage (95% Wilson CIs) for 2-5 players (5 "
                                    f"players: {FIVE_PLAYER_NOTE})")
    # the main player count first
    s.findings += [seat_finding(seats, n).replace(f"{n} players", players_label(n), 1)
                   for n in sorted(runs, key=lambda k: (k != 4, k))]
    rows = []
    for n, schedules in SCHEDULES.items():
        for sched in schedules:
            df = runs[n] if sched == SCHEDULES[n][0] else ctx.sim(["greedy"], players=n,
                                                                 start_tokens=sched)
            wins = df.groupby("seat").won.sum().to_numpy()
            chi = stats.chisquare(wins)
            rates = wins / df.game.nunique()
            rows.append({"players": n, "start_tokens": "-".join(map(str, sched)),
                         "rulebook": sched == SCHEDULES[n][0],
                         "max_abs_deviation": float(np.max(np.abs(rates - 1 / n))),
                         "chi2": float(chi.statistic), "p_value": float(chi.pvalue),
                         **{f"seat{i + 1}": r for i, r in enumerate(rates)}})
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
    s.figures["matchups"] = F.heatmap(matrix, "P(row policy beats column policy), 2 players",
                                      ctx.note())
    s.captions["matchups"] = "Policy matchup matrix (two-player games, seats rotated)"
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
    s.figures["restricted_play"] = F.bars(table, "forbidden", "win_rate", "ci_low", "ci_high",
                                          "Win rate of a greedy player forbidden an action",
                                          ctx.note(), ref=0.25, ylabel="win rate (fair 25%)")
    s.captions["restricted_play"] = "Restricted play: value of each action (95% CIs)"
    for r in table.sort_values("win_rate").itertuples():
        s.findings.append(f"Without {r.forbidden} a greedy player wins {pct(r.win_rate)} "
                          f"[{pct(r.ci_low)}, {pct(r.ci_high)}] instead of 25% "
                          f"({'significant' if r.significant else 'not significant'}).")
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
        row = {"variant": label, "rounds": g.rounds.mean(), "score_sd": g.score_sd.mean(),
               "mean_score": g.mean_score.mean()}
        for m in ("rounds", "score_sd"):
            row[f"p_{m}"] = B.compare_runs(base, g, m)["p_value"] if knobs else 1.0
        vrows.append(row)
    vt = B.flag_columns(pd.DataFrame(vrows), ["p_rounds", "p_score_sd"])
    s.tables["simpler_variants"] = vt
    s.figures["simpler_variants"] = F.bars(vt, "variant", "rounds", None, None,
                                           "Game length under the Simpler Variants", ctx.note(),
                                           ylabel="mean rounds")
    s.captions["simpler_variants"] = "Mean game length per variant (greedy players)"
    for r in vt.iloc[1:].itertuples():
        sig = "significant" if r.p_rounds_significant else "not significant"
        s.findings.append(f"Variant {r.variant}: {r.rounds:.2f} rounds vs {vt.rounds.iloc[0]:.2f}"
                          f" (Welch p = {r.p_rounds:.3g}, {sig}), score spread within a game "
                          f"{r.score_sd:.1f} vs {vt.score_sd.iloc[0]:.1f}.")
    return s


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
    grp = cards.groupby("habitat").prestige_per_die
    med = grp.transform("median")
    mad = grp.transform(lambda x: stats.median_abs_deviation(x, nan_policy="omit",
                                                             scale="normal"))
    cards["robust_z"] = (cards.prestige_per_die - med) / mad.replace(0, np.nan)
    cards["outlier"] = cards.robust_z.abs() > 2.5
    s.tables["card_value"] = cards
    plot = cards.sort_values(["habitat", "difficulty"])
    s.figures["card_value"] = F.bars(plot, "card", "prestige_per_die", None, None,
                                     "Prestige per die rolled, by animal", ctx.note(),
                                     hue="habitat", ylabel="prestige / die", dodge=False)
    s.captions["card_value"] = "Prestige per die by animal (grouped by habitat)"
    top = cards.loc[cards.prestige_per_die.idxmax()]
    low = cards.loc[cards.prestige_per_die.idxmin()]
    s.findings.append(f"Best value: {top.card} ({top.habitat}, difficulty {top.difficulty}) "
                      f"with {top.prestige_per_die:.2f} prestige per die; worst: {low.card} "
                      f"({low.prestige_per_die:.2f}).")
    flagged = cards[cards.outlier]
    s.findings.append("Outliers: " + (", ".join(f"{r.card} (z = {r.robust_z:.1f})"
                                                for r in flagged.itertuples())
                                      if len(flagged) else "none."))
    return s


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
    extra = df.groupby("assignment").agg(cover_rate=("cover", lambda x: (x > 0).mean()),
                                         article_points=("article", "mean"))
    extra.index = [names[i] for i in extra.index]
    by = by.merge(extra, left_on="assignment_name", right_index=True)
    by["flagged"] = (by.ci_low > 0.25) | (by.ci_high < 0.25)
    s.tables["assignments"] = by
    s.figures["assignments"] = F.bars(by, "assignment_name", "win_rate", "ci_low", "ci_high",
                                      "Win rate by assignment card", ctx.note(), ref=0.25,
                                      ylabel="win rate (fair 25%)")
    s.captions["assignments"] = "Assignment balance (95% CIs; dashed line = fair share)"
    first = awards[awards.place == 1]
    s.findings.append(
        f"Awards make {pct(share.awards_share.iloc[0])} of scores; first-place tokens are "
        f"claimed in rounds {first.mean_round.min():.1f}-{first.mean_round.max():.1f} on "
        f"average, {pct(first.claimed.min() / ctx.games)}-"
        f"{pct(first.claimed.max() / ctx.games)} of games claim them.")
    flagged = by[by.flagged]
    s.findings.append(
        ("Unbalanced assignments: " + ", ".join(f"{r.assignment_name} wins {pct(r.win_rate)}"
                                                f" [{pct(r.ci_low)}, {pct(r.ci_high)}]"
                                                for r in flagged.itertuples()))
        if len(flagged) else "No assignment's win-rate CI excludes the fair 25%.")
    s.findings.append(f"Cover photo completed in {pct((df.cover > 0).mean())} of player-games;"
                      f" feature articles average {df.article.mean():.1f} prestige.")
    return s


# ---------------------------------------------------------------- 6 raccoon


def study_raccoon(ctx: Ctx) -> Section:
    s = Section("6-raccoon", 6, "6. The raccoon",
                "Four greedy players with and without the raccoon expansion card.")
    rows = []
    base = None
    for label, on in (("with raccoon", True), ("without raccoon", False)):
        df = ctx.sim(["greedy"], players=4, raccoon=on)
        g = per_game(df)
        seat = df.groupby("seat").won.mean()
        rows.append({"setting": label, "rounds": g.rounds.mean(), "mean_score": g.mean_score.mean(),
                     "spooks_per_game": g.spooks.mean(),
                     "seat_spread": float(seat.max() - seat.min()),
                     "p_rounds": 1.0 if base is None else B.compare_runs(base, g, "rounds")[
                         "p_value"],
                     "p_score": 1.0 if base is None else B.compare_runs(base, g, "mean_score")[
                         "p_value"]})
        base = g if base is None else base
    t = B.flag_columns(pd.DataFrame(rows), ["p_rounds", "p_score"])
    s.tables["raccoon"] = t
    s.figures["raccoon"] = F.bars(t, "setting", "mean_score", None, None,
                                  "Mean score per player", ctx.note(), ylabel="prestige")
    s.captions["raccoon"] = "Mean score with and without the raccoon"
    a, b = t.iloc[0], t.iloc[1]
    s.findings.append(f"The raccoon changes the mean score from {b.mean_score:.1f} to "
                      f"{a.mean_score:.1f} (Welch p = {b.p_score:.3g}) and game length from "
                      f"{b.rounds:.2f} to {a.rounds:.2f} rounds (p = {b.p_rounds:.3g}).")
    s.findings.append(f"Spooks per game: {a.spooks_per_game:.2f} with it, "
                      f"{b.spooks_per_game:.2f} without.")
    return s


# ---------------------------------------------------------------- 7 rule sensitivity


def study_sensitivity(ctx: Ctx) -> Section:
    s = Section("7-sensitivity", 7, "7. Rule sensitivity",
                "Each knob moved alone from the rulebook value (4 greedy players; the photo "
                "target's default is 7): game length, seat advantage (win-rate spread between "
                "the best and worst seat) and mean score. Same seed: common random numbers.")
    defaults = {"photo_target": RULEBOOK_TARGET[4], "reroll_cost": 2, "experience_tokens": 3,
                "reserve_limit": 2}
    base = ctx.sim(["greedy"], players=4)
    bg = per_game(base)
    rows = []
    for knob, values in SENSITIVITY.items():
        for v in sorted((*values, defaults[knob])):
            df = base if v == defaults[knob] else ctx.sim(["greedy"], players=4, **{knob: v})
            g = per_game(df)
            seat = df.groupby("seat").won.mean()
            rows.append({"knob": knob, "value": v, "default": v == defaults[knob],
                         "rounds": g.rounds.mean(), "mean_score": g.mean_score.mean(),
                         "seat_spread": float(seat.max() - seat.min()),
                         "last_seat_win_rate": float(seat.iloc[-1]),
                         "p_rounds": 1.0 if v == defaults[knob] else
                         B.compare_runs(bg, g, "rounds")["p_value"],
                         "p_score": 1.0 if v == defaults[knob] else
                         B.compare_runs(bg, g, "mean_score")["p_value"]})
    t = B.flag_columns(pd.DataFrame(rows), ["p_rounds", "p_score"])
    s.tables["rule_sensitivity"] = t
    s.figures["rule_sensitivity_length"] = F.lines(t, "value", ["rounds"],
                                                   "Game length by rule knob", ctx.note(),
                                                   panels="knob", ylabel="mean rounds")
    s.captions["rule_sensitivity_length"] = "Mean game length as each knob moves"
    s.figures["rule_sensitivity_seats"] = F.lines(t, "value", ["seat_spread"],
                                                  "Seat win-rate spread by rule knob", ctx.note(),
                                                  panels="knob", ylabel="best - worst seat")
    s.captions["rule_sensitivity_seats"] = "Seat advantage as each knob moves"
    moved = t[~t.default].copy()
    moved["effect"] = (moved.rounds - bg.rounds.mean()).abs()
    big = moved.loc[moved.effect.idxmax()]
    s.findings.append(f"Game length reacts most to {big.knob} = {big.value}: {big.rounds:.2f} "
                      f"rounds vs {bg.rounds.mean():.2f} (p = {big.p_rounds:.3g}).")
    fair = t.loc[t.seat_spread.idxmin()]
    s.findings.append(f"The smallest seat spread is with {fair.knob} = {fair.value} "
                      f"({pct(fair.seat_spread)} between best and worst seat).")
    return s


# ---------------------------------------------------------------- 8 tokens


def study_tokens(ctx: Ctx) -> Section:
    s = Section("8-tokens", 8, "8. Token economy and push-your-luck",
                "Tracking tokens earned and spent by source, spooks and draws, per policy "
                "(one game of greedy, cautious, aggressive and collector, seats rotated).")
    df = ctx.sim(["greedy", "cautious", "aggressive", "collector"], players=4)
    df = df.assign(policy=df.policy.astype(str))
    g = df.groupby("policy")
    t = g[list(TOKEN_SOURCES)].mean()
    t["spooks_per_game"] = g.spooks.mean()
    t["draws_per_turn"] = g.draws.sum() / g.turns.sum()
    t["placed_per_turn"] = g.placed.sum() / g.turns.sum()
    t["win_rate"] = g.won.mean()
    t = t.reset_index()
    s.tables["token_economy"] = t
    long = t.melt(id_vars="policy", value_vars=list(TOKEN_SOURCES), var_name="source",
                  value_name="tokens")
    long["source"] = long.source.str.replace("tokens_", "")
    s.figures["token_economy"] = F.bars(long, "source", "tokens", None, None,
                                        "Tokens per player-game by source", ctx.note(),
                                        hue="policy", ylabel="tokens")
    s.captions["token_economy"] = "Token flows per player per game"
    s.figures["draws"] = F.bars(t, "policy", "draws_per_turn", None, None,
                                "Cards drawn per turn", ctx.note(), ylabel="draws / turn")
    s.captions["draws"] = "Push-your-luck: draws per turn by policy"
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


STUDIES = {
    "seats": (study_seats, 10), "policies": (study_policies, 10),
    "restricted": (study_restricted, 8), "cards": (study_cards, 1), "awards": (study_awards, 0),
    "raccoon": (study_raccoon, 1), "sensitivity": (study_sensitivity, 8),
    "tokens": (study_tokens, 1),
}


def build(out="reports/snapshot", games: int = 20_000, seed: int = 1, studies=None,
          threads: int | None = None, components=None, progress: bool = True) -> Path:
    """Run the chosen studies (default all), save their sections, render the report."""
    return build_report("snapshot", "Snapshot: Wildlife Photographer - balance report",
                        STUDIES, out, games, seed, studies, threads, components, progress,
                        runs_type=Ctx)


def study_main(study: str, argv=None) -> None:
    """Command line of an `analyses/` script: regenerate one study's section in place."""
    shared_study_main("snapshot", build, study, 20_000, argv)
