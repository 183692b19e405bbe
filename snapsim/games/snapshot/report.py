"""The Snapshot balance report: its studies, each a section with findings, figures, tables.

Every number shown is computed here from seeded simulations; every finding is generated
from those numbers (nothing is written by hand), and every claim it makes is tested under the
report's one standard against the smallest effects of interest (report.studies). Each study
can be re-run on its own (`analyses/`), which rewrites its section and re-renders the report.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ...analysis import balance as B
from ...analysis.effects import (
    MEANINGFUL,
    NEGLIGIBLE,
    Claim,
    Estimate,
    classed,
    names_text,
    said,
    show,
)
from ...analysis.measures import seat_matrix
from ...analysis.paired import spread_difference
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
    luck_section,
    paired_mean,
    pct,
    proportion,
    ratio,
    same_games,
    seat_advantage,
    seat_spread,
    win_rate,
)
from ...report.words import in_words
from .api import details
from .config import FIVE_PLAYER_NOTE, RULEBOOK_TARGET, players_label

POLICIES = ("greedy", "cautious", "aggressive", "collector", "random")
RESTRICTIONS = {"reserving": "allow_reserve", "offers": "allow_offers",
                "tracking tokens": "allow_tokens", "explore re-rolls": "allow_rerolls"}
SCHEDULES: dict[int, list[tuple[int, ...]]] = {
    3: [(2, 3, 4), (3, 3, 3), (2, 3, 3), (3, 3, 4)],
    4: [(2, 3, 4, 5), (3, 3, 3, 3), (2, 3, 3, 4), (3, 3, 4, 4)]}
SENSITIVITY = {"photo_target": (RULEBOOK_TARGET[4], (6, 8)), "reroll_cost": (2, (1, 3)),
               "experience_tokens": (3, (2, 4)), "reserve_limit": (2, (1, 3))}
GREEDY = ["greedy"]
COMPONENTS = ("prestige", "awards", "cover", "article")
TOKEN_SOURCES = ("tokens_from_placing", "tokens_from_experience", "tokens_from_offers",
                 "tokens_paid_offers", "tokens_spent_photos", "tokens_spent_rerolls")
# Plain words for the rule knobs and table columns a designer reads (raw name in brackets).
WORDS = {"photo_target": "photographs that end the game", "reroll_cost": "tokens per re-roll",
         "experience_tokens": "tokens for a turn without a photograph",
         "reserve_limit": "cards a player may reserve", "start_tokens": "starting tokens by seat",
         "rounds": "rounds per game", "score_sd": "score spread within a game (sd)",
         "mean_score": "mean score per player", "spooks_per_game": "spooks per game",
         "last_seat_win_rate": "last seat's win rate", "prestige_per_die":
         "prestige per die rolled", "attempts_per_game": "attempts per game",
         "photo_rate": "photographs per attempt", "assignment_name": "assignment card",
         "cover_rate": "cover photo completed", "article_points": "feature-article points",
         "d_rounds": "change in rounds", "d_score_sd": "change in score spread",
         "d_mean_score": "change in mean score", "d_seat_spread": "change in seat spread"}


def knob(name: str) -> str:
    """A rule knob in plain words, its name in brackets."""
    return in_words(name, WORDS)


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


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game: length, score spread, spooks."""
    g = df.groupby("game")
    return pd.DataFrame({"rounds": g.rounds.first(), "score_sd": g.score.std(ddof=0),
                         "mean_score": g.score.mean(), "spooks": g.spooks.sum(),
                         "truncated": g.truncated.first()})


def game_measures(ctx: Ctx, df: pd.DataFrame, base: pd.DataFrame) -> dict:
    """Game length, mean score, spooks and seat spread of a run with their 95% CIs, the
    last seat's win rate, and the paired changes of length, score and seat spread against
    `base` (the same deals) with their 95% CIs."""
    g, bg = per_game(df), per_game(base)
    last = df[df.seat == df.seat.max()]
    row = {**estimate("rounds", g.rounds), **estimate("mean_score", g.mean_score),
           **estimate("spooks_per_game", g.spooks), **seat_spread(df, ctx.seed),
           **proportion("last_seat_win_rate", last.won.sum(), len(last))}
    for col in ("rounds", "mean_score"):
        d = paired_mean(bg[col], g[col])
        row |= {f"d_{col}": d.effect, f"d_{col}_ci_low": d.ci[0], f"d_{col}_ci_high": d.ci[1]}
    won, base_won = (seat_matrix(x, "won") for x in (df, base))
    spread = spread_difference((base_won, np.ones_like(base_won)), (won, np.ones_like(won)),
                               seed=ctx.seed)
    lo, hi = spread.ci
    return row | {"d_seat_spread": spread.diff, "d_seat_spread_ci_low": lo,
                  "d_seat_spread_ci_high": hi}


def change(row, col: str, games: int) -> Estimate | None:
    """A table row's paired change of `col` (its normal 95% interval) as an estimate; None
    for the reference row, which changes nothing."""
    if getattr(row, "default", False) or df_is_reference(row):
        return None
    return Estimate.from_ci(getattr(row, f"d_{col}"), getattr(row, f"d_{col}_ci_low"),
                            getattr(row, f"d_{col}_ci_high"), games)


def df_is_reference(row) -> bool:
    """The reference row of a table of changes (its own change is zero by construction)."""
    return getattr(row, "setting", "") == "without raccoon" or \
        getattr(row, "variant", "") == "full game"


# ---------------------------------------------------------------- 1 seats


def _schedules_table(ctx: Ctx) -> pd.DataFrame:
    """Each starting-token schedule tried at 3 and 4 players, greedy in every seat: each
    seat's win rate, the seat spread and a chi-squared test of equal seats."""
    rows = []
    for n, schedules in SCHEDULES.items():
        for sched in schedules:
            knobs: dict[str, Any] = {} if sched == SCHEDULES[n][0] else \
                {"start_tokens": sched}
            df = ctx.sim(["greedy"], players=n, **knobs)
            wins = df.groupby("seat").won.sum().to_numpy()
            chi = stats.chisquare(wins)
            games = df.game.nunique()
            rates = wins / games
            rows.append({"players": n, "start_tokens": "-".join(map(str, sched)),
                         "rulebook": sched == SCHEDULES[n][0],
                         "max_abs_deviation": float(np.max(np.abs(rates - 1 / n))),
                         **seat_spread(df, ctx.seed),
                         "chi2": float(chi.statistic), "p_value": float(chi.pvalue),
                         **{k: v for i, w in enumerate(wins)
                            for k, v in proportion(f"seat{i + 1}", w, games).items()}})
    return pd.DataFrame(rows)


def study_seats(ctx: Ctx) -> Section:
    s = Section("1-seats", 1, "1. Seat advantage",
                "Win rate by seat with the rulebook's starting tokens (2, 3, 4, ...), every "
                "seat played by the greedy policy, each seat's distance from the fair share "
                "1/players classed against the smallest effect of interest; then alternative "
                "starting-token schedules for 3 and 4 players, each with its seat spread "
                "(best minus worst seat, 95% bootstrap interval over games). The rulebook "
                f"plays five with the Flora Expansion: 5-player games use the {FIVE_PLAYER_NOTE}"
                ".")
    seat_advantage(ctx, s, sorted(RULEBOOK_TARGET))
    seats = s.tables["seat_advantage"]
    seats["cards"] = np.where(seats.players == 5, FIVE_PLAYER_NOTE, "rulebook")
    sched = _schedules_table(ctx)
    spreads = [Estimate.from_ci(r.seat_spread, r.seat_spread_ci_low, r.seat_spread_ci_high,
                                ctx.games) for r in sched.itertuples()]
    # the rulebook's own seat spread is the verdict's headline claim: the table names it
    # without a second claim, so the report gives it one interval and one class
    claims = ctx.classes(s, "start_token_schedules", sched,
                         [f"{r.players} players, {r.start_tokens}" for r in sched.itertuples()],
                         [None if r.rulebook else e for r, e in
                          zip(sched.itertuples(), spreads, strict=True)], "pp")
    verdict = ctx.headline()

    def rulebook_spread(n: int) -> str:
        return (f"{verdict.line('seat_spread', n)} (the verdict's claim and interval, at the "
                "top of the report)")

    fairest = {n: ctx.rank(s, f"{n} players: lowest seat spread", sub.start_tokens.tolist(),
                           [spreads[i] for i in sub.index], highest=False)
               for n, sub in sched.groupby("players")}

    def schedule_line(n: int) -> str:
        sub = sched[sched.players == n]
        rule = sub[sub.rulebook].index[0]
        fair = [sched.start_tokens[i] for i in sub.index if claims[i] is not None
                and claims[i].cls == NEGLIGIBLE]
        shown = "; ".join(f"{sched.start_tokens[i]}: {said(claims[i], 'pp')}" for i in sub.index
                          if claims[i] is not None and claims[i].cls == NEGLIGIBLE)
        head = (f"{n} players: starting tokens {names_text(fair)} bring the seat spread within "
                f"±{ctx.smallest.rate:g} pp ({shown})" if fair else
                f"{n} players: no starting-token schedule tried brings the seat spread "
                f"within ±{ctx.smallest.rate:g} pp; the lowest: "
                + fairest[n].text(lambda i: f" ({100 * sub.seat_spread.iloc[i]:.1f} pp)"))
        return (f"{head}; the rulebook's {sched.start_tokens[rule]}: "
                f"{rulebook_spread(n)}.")

    for n in sorted(SCHEDULES, key=lambda k: (k != 4, k)):
        s.findings.insert(1 if n == 4 else len(s.findings),
                          lambda n=n: schedule_line(n))

    s.key_findings(lambda: _seats_key(ctx, s, sched, claims, verdict, rulebook_spread))
    return s


def _seats_key(ctx: Ctx, s: Section, sched: pd.DataFrame, claims: list, verdict,
               rulebook_spread) -> list:
    """The section's key finding: the 4-player seat spread, and what removes it."""
    four = sched[sched.players == 4]
    fair = [sched.start_tokens[i] for i in four.index if claims[i] is not None
            and claims[i].cls == NEGLIGIBLE]
    first = s.findings[0] if isinstance(s.findings[0], str) else s.findings[0]()
    status = verdict.status("seat_spread", 4)
    if status == "balanced":
        meaning = (f"at 4 players the rulebook's starting tokens give a "
                   f"{rulebook_spread(4)}: no seat bias worth a change")
    elif status == "not settled":
        meaning = (f"at 4 players the rulebook's starting tokens give a "
                   f"{rulebook_spread(4)}: whether the seats need a change is not "
                   "settled at this n")
    else:
        lever = (f"starting tokens {names_text(fair)} remove it (seat spread "
                 + "; ".join(f"{sched.start_tokens[i]}: {said(claims[i], 'pp')}"
                             for i in four.index if claims[i] is not None
                             and claims[i].cls == NEGLIGIBLE) + ")"
                 if fair else "" if ctx.found.get("fixes", {}).get(
                     "seat spread, 4 players", {}).get("status") == "recommended"
                 else "none of the schedules tried removes it")
        meaning = (f"the rulebook's rising starting tokens (2-3-4-5) over-compensate the "
                   f"later seats: {rulebook_spread(4)}"
                   + (f"; {lever}" if lever else ""))
    fix = ctx.fix("seat spread, 4 players")
    return [(first, meaning + (f"; {fix}" if fix else "") + ".")]


# ---------------------------------------------------------------- 2 policies


def _matchup_figure(ctx: Ctx, s: Section, table: pd.DataFrame, matrix: pd.DataFrame) -> None:
    """P(row beats column) for each pair of heuristics, with 95% intervals."""
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


def study_policies(ctx: Ctx) -> Section:
    s = Section("2-policies", 2, "2. Heuristic policies head to head (two players)",
                "Two-player matchups between the heuristic policies only (seats rotated): the "
                "matrix gives P(row beats column). The tuned and search policies are rated "
                "with them on the skill ladder; the strongest policy of the game is the "
                "ladder's (section Skill ladder).")
    parts = []
    for i, a in enumerate(POLICIES):
        for b in POLICIES[i + 1:]:
            parts.append(ctx.sim([a, b], players=2))
    runs = pd.concat([p.assign(game=p.game + k * ctx.games) for k, p in enumerate(parts)],
                     ignore_index=True)
    runs["policy"] = runs.policy.astype(str)
    table = B.matchup_table(runs).drop(columns=["p_adjusted", "significant"])
    matrix = B.matchup_matrix(runs).reindex(index=list(POLICIES), columns=list(POLICIES))
    claims = ctx.classes(s, "matchups", table,
                         [f"{r.policy} vs {r.opponent}" for r in table.itertuples()],
                         [Estimate.from_ci(r.win_rate - 0.5, r.ci_low - 0.5, r.ci_high - 0.5,
                                           int(r.n)) for r in table.itertuples()], "pp")
    _matchup_figure(ctx, s, table, matrix)
    strength = matrix.mean(axis=1, skipna=True).sort_values(ascending=False)
    lead = strength.index[0]
    # the lead beats an opponent when the matchup's own claim says so (one class per pair)
    beats = {r.opponent: c for r, c in zip(table.itertuples(), claims, strict=True)
             if r.policy == lead}

    def strongest() -> str:
        tied = [o for o in strength.index[1:] if o not in beats
                or not (beats[o].cls == MEANINGFUL and beats[o].estimate.effect > 0)]
        who = (f"{lead} beats every other heuristic head to head, meaningfully" if not tied else
               f"{names_text([lead, *tied])}, not distinguishable at this n")
        return (f"Strongest heuristic (heuristics only): {who} (mean win rate "
                f"{pct(strength.iloc[0])} against the others); the strongest policy of the "
                "game is the skill ladder's.")
    s.later(strongest)
    pairs = [c for c, r in zip(claims, table.itertuples(), strict=True)
             if r.policy < r.opponent and "random" not in (r.policy, r.opponent)]

    def spread() -> str:
        sure = sum(c.cls == MEANINGFUL for c in pairs)
        even = sum(c.cls == NEGLIGIBLE for c in pairs)
        skilled = table[(table.win_rate > 0.5) & (table.policy != "random")
                        & (table.opponent != "random")]
        return (f"Between non-random heuristics the stronger side wins "
                f"{pct(skilled.win_rate.min())} to {pct(skilled.win_rate.max())} of games; "
                f"{sure} of {len(pairs)} pairs differ meaningfully from an even 50%, {even} "
                "negligibly.")
    if len(pairs):
        s.later(spread)
    s.key_findings(lambda: [(strongest(), "every other section measures with greedy; each "
                             "key finding is measured again with the tuned policies (strong "
                             "play) to see whether it survives better play")])
    return s


# ---------------------------------------------------------------- 3 restricted play


def study_restricted(ctx: Ctx) -> Section:
    s = Section("3-restricted", 3, "3. Restricted play and Simpler Variants",
                "One greedy player forbidden an action against three unrestricted greedy "
                "players (seats rotated): the drop below the fair 25% is what the action is "
                "worth, and a restricted player winning more than 25% would mean a dominant "
                "strategy of avoiding it (Jaffe et al. 2012). Then the rulebook's Simpler "
                "Variants, played by all four: their change in game length and in the score "
                "spread within a game against the full game, paired on the same deals.")
    rows = []
    for action, param in RESTRICTIONS.items():
        name = f"greedy:{param}=0"
        df = ctx.sim([name, "greedy", "greedy", "greedy"], players=4)
        rows.append({"forbidden": action, **B.restricted_play(df, name, 4)})
    table = pd.DataFrame(rows)
    claims = ctx.classes(s, "restricted_play", table, table.forbidden.tolist(),
                         [Estimate.from_ci(r.win_rate - 0.25, r.ci_low - 0.25,
                                           r.ci_high - 0.25, int(r.n))
                          for r in table.itertuples()], "pp")
    s.figure("restricted_play",
             F.bars(percent(table), "forbidden", "win_rate", "ci_low", "ci_high",
                    "Win rate of a greedy player forbidden an action", ctx.note(), ref=25,
                    ylabel="win rate (%, fair 25%)", xlabel="action forbidden"),
             ctx.caption("Win rate of one greedy player forbidden an action; dashed line: "
                         "the fair 25%", "greedy without the action, greedy x3 (seats "
                         "rotated)", 4))

    def forbidden(r: pd.Series, c: Claim) -> str:
        return (f"Without {r.forbidden} a greedy player wins {pct(r.win_rate)} "
                f"[{pct(r.ci_low)}, {pct(r.ci_high)}] instead of 25%: {said(c, 'pp')}.")
    order = table.sort_values("win_rate").index
    for i in order:
        s.later(partial(forbidden, table.loc[i], claims[i]))
    for action, param in RESTRICTIONS.items():
        ctx.label(s, f"win rate without {action} minus the fair 25%", restricted(param), 4)

    def key() -> list:
        worst = order[0]
        r, c = table.loc[worst], claims[worst]
        dominant = [table.forbidden[i] for i in table.index
                    if claims[i].cls == MEANINGFUL and claims[i].estimate.effect > 0]
        meaning = (f"{r.forbidden} carries the most weight: a player without it gives up "
                   f"{show(-c.estimate.effect, 'pp', signed=False)} of win rate; "
                   + (f"forbidding {names_text(dominant)} wins meaningfully more than the fair "
                      "share, so the game rewards not doing it (a dominant strategy)"
                      if dominant else "no restricted player wins meaningfully more than the "
                      "fair share, so none of these actions is one a player should avoid"))
        return [(f"Without {r.forbidden} a greedy player wins {pct(r.win_rate)} "
                 f"[{pct(r.ci_low)}, {pct(r.ci_high)}] instead of 25%: {said(c, 'pp')}.",
                 meaning + ".")]
    s.key_findings(key)
    simpler_variants(ctx, s)
    return s


def simpler_variants(ctx: Ctx, s: Section) -> None:
    """The Simpler Variants' changes in game length and score spread, paired on the deals of
    the full game."""
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
            d = paired_mean(base[m], g[m])
            row |= {f"d_{m}": d.effect, f"d_{m}_ci_low": d.ci[0], f"d_{m}_ci_high": d.ci[1]}
        vrows.append(row)
    vt = pd.DataFrame(vrows)
    keys = vt.variant.tolist()
    length = ctx.classes(s, "simpler_variants", vt, keys,
                         [change(r, "rounds", ctx.games) for r in vt.itertuples()], "rounds",
                         suffix="_rounds")
    spread = ctx.classes(s, "simpler_variants", vt, keys,
                         [change(r, "score_sd", ctx.games) for r in vt.itertuples()], "points",
                         suffix="_score_sd")
    s.figure("simpler_variants",
             F.bars(vt, "variant", "rounds", "rounds_ci_low", "rounds_ci_high",
                    "Game length under the Simpler Variants", ctx.note(),
                    ylabel="mean rounds per game"),
             ctx.caption("Mean game length per Simpler Variant", GREEDY, 4,
                         interval="95% Student-t CIs over games"))

    def variant(r, rounds: Claim, score_sd: Claim) -> str:
        return (f"Variant {r.variant}: {r.rounds:.2f} rounds against "
                f"{vt.rounds.iloc[0]:.2f}, a change of {said(rounds, 'rounds')}; score "
                f"spread within a game {r.score_sd:.1f} against {vt.score_sd.iloc[0]:.1f} "
                f"points, {said(score_sd, 'points')}.")
    for r, rounds, score_sd in zip(vt.itertuples(), length, spread, strict=True):
        if rounds is not None and score_sd is not None:  # not the full game's own row
            s.later(partial(variant, r, rounds, score_sd))
    ctx.label(s, "Simpler Variants 1+2+3: change in game length", knob_effect(
        "rounds", 4, variants["1+2+3"]), 4, unit="rounds")


def restricted(param: str):
    """The measure "win rate of one player forbidden `param`, among three unrestricted
    players of the same line-up, minus the fair 25%"; a line-up that never takes the action
    plays the same games restricted or not, and cannot express it."""
    def measure(side) -> Effect:
        name = f"{side.policy(4)}:{param}=0"
        df = side.sim(4, seats=lambda p: [name, p, p, p])
        silent = None
        if same_games(df, side.sim(4)):
            silent = (f"{side.policy(4)} never takes the action forbidden: forbidding it "
                      "changes no game")
        return Effect(((1.0, win_rate(df, df.policy.astype(str) == name)),), ref=0.25,
                      silent=silent)
    return measure


# ---------------------------------------------------------------- 4 cards


def _card_table(ctx: Ctx) -> pd.DataFrame:
    """Each animal's attempts, photographs and prestige per game and per die rolled
    (95% Wilson interval), its habitat's median and its robust z against it."""
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
    cards["habitat_median"] = med
    cards["robust_z"] = (cards.prestige_per_die - med) / mad.replace(0, np.nan)
    return cards


def _card_figure(ctx: Ctx, s: Section, cards: pd.DataFrame) -> None:
    plot = cards.sort_values(["habitat", "difficulty"])
    s.figure("card_value",
             F.bars(plot, "card", "prestige_per_die", "prestige_per_die_ci_low",
                    "prestige_per_die_ci_high", "Prestige per die rolled, by animal",
                    ctx.note(), hue="habitat", ylabel="prestige per die rolled",
                    dodge=False, legend=str, xlabel="animal"),
             ctx.caption("Prestige per die rolled at each animal, grouped by habitat",
                         GREEDY, 4, interval="95% Wilson CIs of photographs per die, times "
                         "the card's prestige"))


def study_cards(ctx: Ctx) -> Section:
    s = Section("4-cards", 4, "4. Card value",
                "For every animal (4 greedy players): attempts and photographs per game, the "
                "prestige it brings and prestige per die rolled at it, with its distance from "
                "its habitat's median classed against the smallest effect (10% of the "
                "median). An outlier lies more than 2.5 robust standard deviations (MAD) from "
                "its habitat's median and meaningfully far from it.")
    cards = _card_table(ctx)
    values = [Estimate.from_ci(v, a, b, ctx.games) for v, a, b in
              zip(cards.prestige_per_die, cards.prestige_per_die_ci_low,
                  cards.prestige_per_die_ci_high, strict=True)]
    off = ctx.classes(s, "card_value", cards, cards.card.tolist(),
                      [Estimate(v.effect - m, v.se, v.games)
                       for v, m in zip(values, cards.habitat_median, strict=True)],
                      "prestige per die", reference=cards.habitat_median.to_numpy())
    ctx.after.append(lambda: s.tables["card_value"].insert(
        len(cards.columns), "outlier", [bool(abs(z) > 2.5 and c.cls == MEANINGFUL)
                                        for z, c in zip(cards.robust_z, off, strict=True)]))
    _card_figure(ctx, s, cards)
    names = cards.card.tolist()
    best = ctx.rank(s, "best value", names, values)
    worst = ctx.rank(s, "worst value", names, values, highest=False)

    def value(i: int) -> str:
        return f" ({cards.prestige_per_die.iloc[i]:.2f})"

    def ends() -> str:
        return f"Best value per die: {best.text(value)}; worst: {worst.text(value)}."

    def outliers() -> str:
        flagged = [i for i, (z, c) in enumerate(zip(cards.robust_z, off, strict=True))
                   if abs(z) > 2.5 and c.cls == MEANINGFUL]
        far = sum(c.cls == MEANINGFUL for c in off)
        close = sum(c.cls == NEGLIGIBLE for c in off)
        return (f"{far} of {len(cards)} cards lie meaningfully far from their habitat's median "
                f"value, {close} within ±10% of it; outliers: "
                + (", ".join(f"{names[i]} (z = {cards.robust_z.iloc[i]:.1f})" for i in flagged)
                   if flagged else "none") + ".")
    s.later(ends)
    s.later(outliers)
    top = names[int(np.nanargmax(cards.prestige_per_die))]
    low = names[int(np.nanargmin(cards.prestige_per_die))]
    flagged = cards[cards.robust_z.abs() > 2.5].card
    by_card = cards.set_index("card").habitat_median
    for card in dict.fromkeys((top, low, *flagged)):
        ctx.label(s, f"{card}: prestige per die minus its habitat's median",
                  card_value(ctx, card), 4, unit="prestige per die",
                  reference=float(by_card[card]))

    def key() -> list:
        hi, lo_ = best.leader, worst.leader
        ratio_ = cards.prestige_per_die.iloc[hi] / cards.prestige_per_die.iloc[lo_]
        far = [names[i] for i, c in enumerate(off) if c.cls == MEANINGFUL]
        return [(ends(), f"a die rolled at {names[hi]} earns {ratio_:.1f} times what one at "
                 f"{names[lo_]} earns; {len(far)} of {len(names)} cards are meaningfully off "
                 "their habitat's median value (beyond ±10%), the candidates for a prestige "
                 "change (the card values are reconstructed, so this shows the method).")]
    s.key_findings(key)
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
                "assignment card (4 greedy players, fair share 25%), each card's distance "
                "from fair classed against the smallest effect of interest, with cover-photo "
                "completion and feature-article points.")
    df = ctx.sim(["greedy"], players=4)
    _, awards = ctx.details()
    s.tables["award_timing"] = awards
    share = B.score_breakdown(df.assign(all="all"), COMPONENTS, by="all")
    s.tables["score_components"] = share
    names = [a.name for a in ctx.config().components.assignments]
    by = B.rates(df.assign(assignment_name=df.assignment.map(dict(enumerate(names)))),
                 "assignment_name", fair=0.25).drop(columns=["p_adjusted", "significant"])
    extra = pd.DataFrame([{**proportion("cover_rate", (sub.cover > 0).sum(), len(sub)),
                           **estimate("article_points", sub.article)}
                          for _, sub in df.groupby("assignment")])
    extra.index = [names[i] for i in sorted(df.assignment.unique())]
    by = by.merge(extra, left_on="assignment_name", right_index=True)
    claims = ctx.classes(s, "assignments", by, by.assignment_name.tolist(),
                         [Estimate.from_ci(r.win_rate - 0.25, r.ci_low - 0.25,
                                           r.ci_high - 0.25, int(r.n)) for r in by.itertuples()],
                         "pp")
    ctx.after.append(lambda: s.tables["assignments"].insert(
        len(by.columns), "flagged", [c.cls == MEANINGFUL for c in claims]))
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
        f"average, {pct(first.claimed.min() / ctx.games)} to "
        f"{pct(first.claimed.max() / ctx.games)} of games claim them.")
    rows = list(by.itertuples())

    s.later(lambda: _unbalanced(ctx, rows, claims))
    s.later(lambda: _open_assignments(ctx, rows, claims))
    s.findings.append(f"Cover photo completed in {pct((df.cover > 0).mean())} of player-games;"
                      f" feature articles average {df.article.mean():.1f} prestige.")
    picked = (by.loc[by.win_rate.idxmax()].assignment_name,
              by.loc[by.win_rate.idxmin()].assignment_name,
              *[r.assignment_name for r in rows
                if (r.ci_low > 0.25 + ctx.smallest.rate / 100)
                or (r.ci_high < 0.25 - ctx.smallest.rate / 100)])
    for name in dict.fromkeys(picked):
        ctx.label(s, f"win rate with {name} minus the fair 25%",
                  assignment_win_rate(names.index(name)), 4)

    s.key_findings(lambda: _awards_key(ctx, rows, claims))
    return s


def _held(r, c) -> str:
    """"Live Fast wins 31.5% [30.5%, 32.6%]: +6.5 pp from fair (Holm-adjusted [+5.2,
    +7.8]), meaningful": the win rate, then the distance its class was decided on."""
    return (f"{r.assignment_name} wins {pct(r.win_rate)} [{pct(r.ci_low)}, "
            f"{pct(r.ci_high)}]: {classed(c, 'pp', 'from fair')}")


def _unbalanced(ctx: Ctx, rows: list, claims: list) -> str:
    far = [(r, c) for r, c in zip(rows, claims, strict=True) if c.cls == MEANINGFUL]
    return (f"Unbalanced assignments (beyond ±{ctx.smallest.rate:g} pp of the fair 25%): "
            + ("; ".join(_held(r, c) for r, c in far) if far else "none") + ".")


def _open_assignments(ctx: Ctx, rows: list, claims: list) -> str:
    """The assignments close to fair, and those not settled with the games that would."""
    undecided = [(r, c) for r, c in zip(rows, claims, strict=True)
                 if c.cls not in (MEANINGFUL, NEGLIGIBLE)]
    close = sum(c.cls == NEGLIGIBLE for c in claims)
    text = f"{close} of {len(rows)} assignments are within ±{ctx.smallest.rate:g} pp of fair"
    if undecided:
        need = max(c.settle for _, c in undecided)
        text += ("; not settled at this n: " + "; ".join(_held(r, c) for r, c in undecided)
                 + (f" (about {need:,.0f} player-games dealt each card would settle them)"
                    if np.isfinite(need) else ""))
    return text + "."


def _awards_key(ctx: Ctx, rows: list, claims: list) -> list:
    """The section's key finding: the unbalanced assignments, and what their charts need."""
    far = [(r, c) for r, c in zip(rows, claims, strict=True) if c.cls == MEANINGFUL]
    if far:
        meaning = ("the scoring charts of " + names_text([r.assignment_name for r, _ in far])
                   + " need a change: " + "; ".join(
                       f"{r.assignment_name}'s holders win {show(c.estimate.effect, 'pp')} "
                       "against the fair share" for r, c in far))
    else:
        meaning = "no assignment is shown to need a change at this n"
    fix = ctx.fix("assignments, 4 players")
    return [(_unbalanced(ctx, rows, claims), meaning + (f"; {fix}" if fix else "") + ".")]


def assignment_win_rate(index: int):
    """The measure "win rate of the players dealt assignment `index` minus the fair 25%"."""
    def measure(side) -> Effect:
        df = side.sim(4)
        return Effect(((1.0, win_rate(df, df.assignment == index)),), ref=0.25)
    return measure


# ---------------------------------------------------------------- 6 raccoon


def study_raccoon(ctx: Ctx) -> Section:
    s = Section("6-raccoon", 6, "6. The raccoon",
                "Four greedy players with and without the raccoon expansion card, on the same "
                "deals: the change in mean score and in game length.")
    base = ctx.sim(GREEDY, players=4, raccoon=False)
    rows = []
    for label, on in (("without raccoon", False), ("with raccoon", True)):
        df = ctx.sim(["greedy"], players=4, raccoon=on)
        rows.append({"setting": label, **game_measures(ctx, df, base)})
    t = pd.DataFrame(rows)
    score = ctx.classes(s, "raccoon", t, t.setting.tolist(),
                        [change(r, "mean_score", ctx.games) for r in t.itertuples()], "points",
                        suffix="_score")
    length = ctx.classes(s, "raccoon", t, t.setting.tolist(),
                         [change(r, "rounds", ctx.games) for r in t.itertuples()], "rounds",
                         suffix="_rounds")
    s.figure("raccoon",
             F.bars(t, "setting", "mean_score", "mean_score_ci_low", "mean_score_ci_high",
                    "Mean score per player", ctx.note(), ylabel="mean score (prestige)",
                    xlabel=""),
             ctx.caption("Mean score per player with and without the raccoon", GREEDY, 4,
                         interval="95% Student-t CIs over games"))
    a, b = t.iloc[1], t.iloc[0]
    with_score, with_length = score[1], length[1]
    assert with_score is not None and with_length is not None  # row 0 is the reference

    def effect() -> str:
        return (f"The raccoon changes the mean score from {b.mean_score:.2f} to "
                f"{a.mean_score:.2f} points ({said(with_score, 'points')}) and game length "
                f"from {b.rounds:.2f} to {a.rounds:.2f} rounds "
                f"({said(with_length, 'rounds')}).")
    s.later(effect)
    s.findings.append(f"Spooks per game: {a.spooks_per_game:.2f} with it, "
                      f"{b.spooks_per_game:.2f} without.")
    ctx.label(s, "the raccoon's change in mean score", knob_effect(
        "score", 4, {"raccoon": True}, {"raccoon": False}), 4, unit="points")

    def key() -> list:
        both = (("mean score", with_score, "points"), ("game length", with_length, "rounds"))
        moved = [f"{w} ({said(c, u)})" for w, c, u in both if c.cls == MEANINGFUL]
        small = [f"{w} ({said(c, u)})" for w, c, u in both if c.cls == NEGLIGIBLE]
        meaning = (f"the raccoon changes {names_text(moved)}" if moved else
                   f"the raccoon can go in or out: it leaves {names_text(small)}" if small else
                   "its effect is not settled at this n")
        return [(effect(), meaning + ".")]
    s.key_findings(key)
    return s


# ---------------------------------------------------------------- 7 rule sensitivity


def _sensitivity_figures(ctx: Ctx, s: Section, t: pd.DataFrame) -> None:
    """Game length and the seat spread as each knob moves alone."""
    s.figure("rule_sensitivity_length",
             F.knob_lines(t, "rounds", "Game length by rule knob", ctx.note(),
                          "mean rounds per game"),
             ctx.caption("Mean game length as each knob moves alone", GREEDY, 4,
                         interval="95% Student-t CIs over games"))
    s.figure("rule_sensitivity_seats",
             F.knob_lines(t, "seat_spread", "Seat win-rate spread by rule knob", ctx.note(),
                          "best - worst seat win rate (pp)", percent=True),
             ctx.caption("Win-rate spread between the best and the worst seat, in percentage "
                         "points, as each knob moves alone", GREEDY, 4,
                         interval="95% bootstrap CIs, games resampled"))


def study_sensitivity(ctx: Ctx) -> Section:
    s = Section("7-sensitivity", 7, "7. Rule sensitivity",
                "Each knob moved alone from the rulebook value (4 greedy players; the photo "
                "target's default is 7), on the same deals as the rulebook game (common "
                "random numbers): game length, seat advantage (win-rate spread between the "
                "best and worst seat) and mean score, with each one's paired change from the "
                "rulebook game classed against the smallest effect of interest.")
    t = knob_table(ctx, SENSITIVITY, lambda df, base: game_measures(ctx, df, base),
                   policies=GREEDY, players=4)
    bg = per_game(ctx.sim(GREEDY, players=4))
    keys = [f"{r.knob} = {r.value}" for r in t.itertuples()]
    # the rows that move a knob (the rulebook's own row claims nothing), by row number
    length = {i: c for i, c in enumerate(ctx.classes(
        s, "rule_sensitivity", t, keys, [change(r, "rounds", ctx.games) for r in t.itertuples()],
        "rounds", suffix="_rounds")) if c is not None}
    spread = {i: c for i, c in enumerate(ctx.classes(
        s, "rule_sensitivity", t, keys,
        [change(r, "seat_spread", ctx.games) for r in t.itertuples()], "pp",
        suffix="_seat_spread")) if c is not None}
    moved = list(length)
    _sensitivity_figures(ctx, s, t)
    words = [f"{knob(r.knob)} = {r.value}" for r in t.itertuples()]
    most = ctx.rank(s, "largest change in game length", [words[i] for i in moved],
                    [Estimate(abs(length[i].estimate.effect), length[i].estimate.se, ctx.games)
                     for i in moved])

    def reacts() -> str:
        i = moved[most.leader]
        return (f"Game length reacts most to {most.text()}: {t.rounds[i]:.2f} rounds against "
                f"{bg.rounds.mean():.2f} with the rulebook's values, a change of "
                f"{said(length[i], 'rounds')}.")

    def lower() -> list[int]:
        return [i for i in moved if spread[i].cls == MEANINGFUL
                and spread[i].estimate.effect < 0]

    def seats() -> str:
        if lower():
            return ("The seat spread falls meaningfully with " + "; ".join(
                f"{words[i]} ({said(spread[i], 'pp')})" for i in lower()) + ".")
        i = min(moved, key=lambda j: spread[j].estimate.effect)
        return (f"No knob value tried lowers the seat spread meaningfully; the largest fall, "
                f"with {words[i]}, is {said(spread[i], 'pp')}.")
    s.later(reacts)
    s.later(seats)
    big = t.iloc[moved[most.leader]]
    value = type(SENSITIVITY[big.knob][0])(big.value)
    ctx.label(s, f"{knob(big.knob)} = {big.value}: change in game length", knob_effect(
        "rounds", 4, {big.knob: value}), 4, unit="rounds")

    def key() -> list:
        seat = ("these knobs also lower the seat spread meaningfully: "
                + names_text([words[i] for i in lower()]) if lower() else
                "none of these knobs lowers the seat spread meaningfully; starting tokens "
                "(section 1) are the lever for seat balance")
        return [(reacts(), f"{knob(big.knob)} is the lever for game length; {seat}.")]
    s.key_findings(key)
    return s


# ---------------------------------------------------------------- 8 tokens


def _token_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per policy: tokens by source and spooks per game, draws and cards placed per turn,
    the win rate."""
    rows = []
    for policy, sub in df.groupby("policy"):
        row = {"policy": policy}
        for col in (*TOKEN_SOURCES, "spooks"):
            row |= estimate(col, sub[col])
        row |= ratio("draws_per_turn", sub.draws, sub.turns)
        row |= ratio("placed_per_turn", sub.placed, sub.turns)
        row |= proportion("win_rate", sub.won.sum(), len(sub))
        rows.append(row)
    return pd.DataFrame(rows).rename(columns=lambda c: c.replace("spooks", "spooks_per_game"))


def study_tokens(ctx: Ctx) -> Section:
    s = Section("8-tokens", 8, "8. Token economy and push-your-luck",
                "Tracking tokens earned and spent by source, spooks and draws, per policy "
                "(one game of greedy, cautious, aggressive and collector, seats rotated).")
    df = ctx.sim(["greedy", "cautious", "aggressive", "collector"], players=4)
    df = df.assign(policy=df.policy.astype(str))
    t = _token_table(df)
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
    names = t.policy.tolist()

    def est(col: str) -> list[Estimate]:
        return [Estimate.from_ci(getattr(r, col), getattr(r, f"{col}_ci_low"),
                                 getattr(r, f"{col}_ci_high"), ctx.games)
                for r in t.itertuples()]
    draws = ctx.rank(s, "draws most", names, est("draws_per_turn"))
    wins = ctx.rank(s, "best win rate", names, est("win_rate"))

    def push() -> str:
        i = draws.leader
        return (f"Draws most: {draws.text(lambda j: f' ({t.draws_per_turn[j]:.2f} a turn)')}; "
                f"{names[i]} spooks {t.spooks_per_game[i]:.2f} times a game. Best win rate: "
                f"{wins.text(lambda j: f' ({pct(t.win_rate[j])})')}.")
    s.later(push)
    main = t.set_index("policy").loc["greedy"]
    s.findings.append(f"A greedy player earns {main.tokens_from_placing:.1f} tokens a game by "
                      f"placing cards and {main.tokens_from_experience:.1f} from experience, "
                      f"spends {main.tokens_spent_photos:.1f} on photographs and "
                      f"{main.tokens_spent_rerolls:.1f} on re-rolls.")

    def key() -> list:
        i, g = draws.leader, names.index("greedy")
        return [(push(), f"drawing harder costs spooks: {names[i]} draws "
                 f"{t.draws_per_turn[i]:.2f} cards a turn and spooks {t.spooks_per_game[i]:.2f} "
                 f"times a game against greedy's {t.draws_per_turn[g]:.2f} and "
                 f"{t.spooks_per_game[g]:.2f}, and wins {pct(t.win_rate[i])} against greedy's "
                 f"{pct(t.win_rate[g])}.")]
    s.key_findings(key)
    return s


# The worst findings rebalancing looks for a fix of ("Smallest fixes found").
FIXES = [Problem("seat spread, 4 players", "seat_spread", ("start_tokens",), (4,)),
         Problem("assignments, 4 players", "assignments", ("assignments.chart",), (4,))]

STUDIES = {
    "luck": (lambda ctx: luck_section(ctx, 0, sorted(RULEBOOK_TARGET)),
             2 * sum(sorted(RULEBOOK_TARGET))),
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
          ladder_games: int | None = None, smallest=None, tolerances=None) -> Path:
    """Run the chosen studies (default all), label their key findings under the strong
    line-up (default: the tuned policy for each player count), test every claim under one
    standard against the smallest effects of interest, render the report."""
    return build_report("snapshot", "Snapshot: Wildlife Photographer - balance report",
                        STUDIES, out, games, seed, studies, threads, components, progress,
                        runs_type=Ctx, strong=strong, strong_games=strong_games,
                        ladder_games=ladder_games, smallest=smallest, words=WORDS,
                        tolerances=tolerances)
