"""A generated strategy guide for Snapshot (reports/snapshot/strategy.md).

Every number in the guide is computed here: exact odds from `snapsim.odds` and the advisor,
and seeded simulations of the greedy policy for what a token is worth in prestige.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from ...analysis.effects import Claim, Estimate, Smallest, Standard, said
from ...odds import research_odds, token_table
from ...report import figures as F
from ...sim.kernel import game_rngs, policy_arrays, root_keys, run_blocks, seat_policies
from ...sim.store import staged
from ..rules import guide_parts
from . import engine as E
from . import policies as P
from .advisor import advise
from .api import make_policy
from .config import FIVE_PLAYER_NOTE, SnapshotConfig, photo_table

DATA = Path(__file__).parent / "data"
HEADINGS = (
    "1. Where the next token buys the most probability",
    "2. Best dice splits for common situations",
    "3. Research stop thresholds by board state",
    "4. The value of a token in prestige",
    "5. Tuned policies versus the default greedy",
)
EXACT = "exact odds, no simulation (n = 0 games, seed unused)"

# section 1 grid
TARGETS = (2, 3, 4, 5)
ANIMAL_DICE = (1, 2, 3)
DIFFICULTIES = tuple(range(2, 11))
HELD = (0, 1, 2)

# section 3 grid
RISKS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1.0)
CAPS = (1, 2, 3, 4, 6)  # 6 placements stands in for no cap (an uncapped search is slow)
TOPS = {"low tops (3)": 3, "mid tops (6)": 6, "high tops (8)": 8}

# section 4
GRANT_ROUNDS = (1, 2, 3, 4)
EXTRA = 2


def md_table(df: pd.DataFrame, digits: int = 3) -> str:
    def fmt(v):
        if isinstance(v, float | np.floating):
            return "-" if np.isnan(v) else f"{v:.{digits}f}"
        return str(v)

    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "|" + "---|" * len(df.columns)
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


class Guide:
    """Markdown lines plus the PNG and CSV files they reference."""

    def __init__(self, out: Path):
        self.out = out
        self.lines: list[str] = []

    def add(self, *text: str) -> None:
        self.lines += [*text, ""]

    def figure(self, name: str, png: bytes, caption: str) -> None:
        (self.out / f"strategy_{name}.png").write_bytes(png)
        self.add(f"![{caption}](strategy_{name}.png)", f"*{caption}*")

    def table(self, name: str, df: pd.DataFrame, show: pd.DataFrame | None = None) -> None:
        df.to_csv(self.out / f"strategy_{name}.csv", index=False)
        self.add(md_table(df if show is None else show), f"(full table: `strategy_{name}.csv`)")


# ---------------------------------------------------------------- 1. token use


def token_use_table() -> pd.DataFrame:
    """The token table for one explore die, by explore value, animal dice, difficulty, held."""
    return token_table(targets=TARGETS, explore_dice=(1,), animal_dice=ANIMAL_DICE,
                       difficulties=DIFFICULTIES, tokens=HELD)


def section_tokens(g: Guide) -> None:
    df = token_use_table()
    df["best_gain"] = df[["gain_card_token", "gain_per_reroll_token"]].max(axis=1)
    g.add(f"## {HEADINGS[0]}",
          "One explore die on a habitat (explore value 2-5), 1-3 dice on one animal of "
          "difficulty 2-10, 0-2 tokens already on the card. For each situation: P(photo) now, "
          "the gain in P(photo) from one more token on the card, and the gain per token held "
          "back for explore re-rolls (`snapsim.odds.token_table`, re-roll cost 2).")
    counts = df.best_use.value_counts()
    g.add(f"Of {len(df)} situations the next token is better on the card in "
          f"{int(counts.get('card', 0))}, better held for a re-roll in "
          f"{int(counts.get('reroll', 0))}, equal in {int(counts.get('either', 0))} and "
          f"useless in {int(counts.get('none', 0))}.")
    by_target = df.groupby("target").best_use.apply(lambda s: (s == "reroll").mean())
    g.add("Share of situations where a re-roll token is the better use, by explore value: "
          + ", ".join(f"{t}: {100 * v:.0f}%" for t, v in by_target.items()) + ".")
    zero = df[df.tokens == 0]
    mat = zero.pivot_table(index=["target", "animal_dice"], columns="difficulty",
                           values="best_gain")
    mat.index = [f"explore {t}, {a} dice" for t, a in mat.index]
    mat = mat.rename_axis(index="situation", columns="difficulty")
    g.figure("token_gain", F.heatmap(mat, None, None, "Gain in P(photo) from the next token "
                                     "(best use, no tokens yet)", EXACT,
                                     "gain in P(photo)", fmt="{:.2f}", vmax=1),
             "Best gain in P(photo) from one more token, 1 explore die, 0 tokens on the card "
             "(exact odds: no sampling error, so no intervals; no games played)")
    use = zero.assign(cell=[f"{u} +{v:.3f}" for u, v in zip(zero.best_use, zero.best_gain,
                                                            strict=True)])
    show = use.pivot(index=["target", "animal_dice"], columns="difficulty", values="cell")
    show = show.reset_index().rename(columns={"target": "explore", "animal_dice": "dice"})
    show.columns = [str(c) for c in show.columns]
    g.add("Better use of the next token and its gain (0 tokens on the card yet):")
    g.table("token_use", df, show)


# ---------------------------------------------------------------- 2. dice splits


def _cards_by(comp):
    return {(comp.habitats[c.habitat].name, c.difficulty): c.name for c in comp.cards
            if c.habitat >= 0}


def situations() -> dict[str, dict]:
    names = _cards_by(SnapshotConfig().components)
    sv = "Savannah"
    out = {f"Savannah, one animal of difficulty {d}": {sv: [names[sv, d]]} for d in (4, 6, 8, 10)}
    out["Savannah, two animals (5 and 8)"] = {sv: [names[sv, 5], names[sv, 8]]}
    out["Shoreline 6 and Mountain 8"] = {"Shoreline": [names["Shoreline", 6]],
                                         "Mountain": [names["Mountain", 8]]}
    out["Shoreline 4, Savannah 7, Rainforest 9"] = {
        "Shoreline": [names["Shoreline", 4]], sv: [names[sv, 7]],
        "Rainforest": [names["Rainforest", 9]]}
    return out


def splits_table() -> pd.DataFrame:
    rows = []
    for label, table in situations().items():
        for tokens in (0, 2, 4):
            adv = advise({"table": table, "tokens": tokens}).table
            best = adv.iloc[0]
            second = adv.iloc[1] if len(adv) > 1 else None
            rows.append({
                "situation": label, "tokens": tokens,
                "animals": "; ".join(f"{h}: {', '.join(a)}" for h, a in table.items()),
                "best_explore": best.explore_dice, "best_animals": best.animals,
                "best_value": float(best.value), "best_reroll_cap": int(best.reroll_cap),
                "runner_up": "-" if second is None else
                f"{second.explore_dice} / {second.animals}",
                "runner_up_value": np.nan if second is None else float(second.value)})
    df = pd.DataFrame(rows)
    df["margin"] = df.best_value - df.runner_up_value
    return df


def section_splits(g: Guide) -> None:
    df = splits_table()
    g.add(f"## {HEADINGS[1]}",
          "Each situation (animals on the table, tokens held, no reserve, no assignment) is "
          "ranked exactly by the advisor (`advise`): value = expected prestige (with award, "
          "cover and article gains) minus 0.4 prestige per token lost (greedy's token worth, "
          "the advisor's default at every player count; the token worth to play by is in the "
          "rules of thumb, and section 4 says which value answers what). `NdN+Mt` = dice and "
          "tokens on an animal; re-roll cap = re-rolls the plan can afford.")
    gains = df.groupby("situation", sort=False).best_value.agg(["first", "last"])
    top = (gains["last"] - gains["first"]).idxmax()
    g.add(f"Four tokens add the most value in '{top}': "
          f"{gains.loc[top, 'first']:.3f} -> {gains.loc[top, 'last']:.3f}. The closest call is "
          f"'{df.loc[df.margin.idxmin(), 'situation']}' with "
          f"{int(df.loc[df.margin.idxmin(), 'tokens'])} tokens (margin "
          f"{df.margin.min():.3f}).")
    show = df[["situation", "tokens", "best_explore", "best_animals", "best_value",
               "runner_up", "runner_up_value"]]
    g.table("splits", df, show)
    plot = df.assign(tokens=df.tokens.astype(str), short=df.situation.str.replace(
        "Savannah, one animal of difficulty ", "Sav. d").str.replace(
        "Savannah, two animals", "Sav. two"))
    g.figure("splits", F.bars(plot, "short", "best_value", None, None,
                              "Value of the best preparation by tokens held", EXACT,
                              hue="tokens", ylabel="expected value (prestige)",
                              legend=lambda k: f"{k} tokens", xlabel="situation"),
             "Value of the advisor's best allocation, by situation and tokens held (exact "
             "expectations: no sampling error, so no intervals; no games played)")


# ---------------------------------------------------------------- 3. research


def research_state(top: int, comp) -> tuple[list[int], np.ndarray]:
    """Every habitat shows one card of difficulty `top`; every other card is unseen."""
    n_hab = len(comp.habitats)
    unseen = np.zeros((n_hab, 11), np.int64)
    for c in comp.cards:
        if c.habitat >= 0 and c.difficulty != top:
            unseen[c.habitat, c.difficulty] += 1
    return [top] * n_hab, unseen


def research_grid(photo_value: float, token_prestige: float, experience: int) -> pd.DataFrame:
    comp = SnapshotConfig().components
    rows = []
    for label, top in TOPS.items():
        tops, unseen = research_state(top, comp)
        for slots in (0, 1):
            for k in CAPS:
                for p in RISKS:
                    r = research_odds(tops, unseen, raccoon=True, free_slots=slots,
                                      max_placed=k, max_risk=p)
                    rows.append({"state": label, "free_slots": slots,
                                 "max_placed": str(k),
                                 "max_risk": p, "first_draw_risk": r.next_draw,
                                 "expected_tokens": r.expected_tokens, "p_spook": r.p_spook,
                                 "expected_reserved": r.expected_reserved})
    df = pd.DataFrame(rows)
    df["net_value"] = (token_prestige * (df.expected_tokens + experience * df.p_spook)
                       - df.p_spook * photo_value)
    return df


def section_research(g: Guide, photo_value: float, token_prestige: float, n: int,
                     seed: int) -> None:
    cfg = SnapshotConfig()
    df = research_grid(photo_value, token_prestige, cfg.experience_tokens)
    g.add(f"## {HEADINGS[2]}",
          "Board states: every habitat shows one card of the same difficulty (its top), all "
          "other animals and the raccoon are unseen, 0 or 1 free reserve slot. Rule: draw "
          "until k cards are placed or the exact risk that the next card cannot be placed "
          "exceeds p (`research_odds`). Placing earns a token; a spook ends the turn with "
          f"{cfg.experience_tokens} experience tokens and no photographs. Net value (prestige, "
          f"relative to not drawing) = {token_prestige:.3f} x (E[tokens placed] + "
          f"{cfg.experience_tokens} x P(spook)) - P(spook) x {photo_value:.2f}, where "
          f"{token_prestige:.3f} prestige is what a starting token added to a greedy player's "
          f"final score (section 4, round 1: a measurement of greedy's games, the price of a "
          f"token in this model only, not a value to play by) and {photo_value:.2f} prestige "
          f"the mean final score per turn that reached the photograph phase, both from "
          f"4-player greedy games (n = {n:,} games, seed {seed}). The model "
          "ignores that a placed card is also a new photograph target, so it leans towards "
          "stopping; the p that maximises expected tokens alone is listed too.")
    best = df.loc[df.groupby(["state", "free_slots"], sort=False).net_value.idxmax()]
    tok = df.loc[df.groupby(["state", "free_slots"], sort=False).expected_tokens.idxmax()]
    summary = best[["state", "free_slots", "first_draw_risk", "max_placed", "max_risk",
                    "expected_tokens", "p_spook", "net_value"]].rename(
        columns={"max_placed": "best_k", "max_risk": "best_p"})
    summary["p_for_most_tokens"] = tok.max_risk.to_numpy()
    summary["k_for_most_tokens"] = tok.max_placed.to_numpy()
    for r in summary.itertuples():
        head = (f"- {r.state}, {r.free_slots} free slot(s): first-draw risk "
                f"{r.first_draw_risk:.3f}; ")
        if r.best_p < r.first_draw_risk:
            g.add(head + f"best is not to draw at all (any p below {r.first_draw_risk:.3f}); "
                  f"the most tokens come from k = {r.k_for_most_tokens}, p = "
                  f"{r.p_for_most_tokens}.")
        else:
            g.add(head + f"best rule k = {r.best_k}, p = {r.best_p} (E[tokens] "
                  f"{r.expected_tokens:.2f}, P(spook) {r.p_spook:.3f}, net value "
                  f"{r.net_value:+.3f}).")
    g.table("research", df, summary)
    nocap = df[df.max_placed == str(CAPS[-1])].copy()
    nocap["panel"] = nocap.state + ", " + nocap.free_slots.astype(str) + " slot"
    wide = nocap.pivot_table(index=["panel", "max_risk"], columns=[], values=[
        "expected_tokens", "net_value", "p_spook"], sort=False).reset_index()
    long = wide.melt(id_vars=["panel", "max_risk"], value_vars=["expected_tokens",
                                                                  "net_value", "p_spook"],
                     var_name="quantity")
    g.figure("research", F.lines(long, "max_risk", "value", None, None,
                                 f"Draw until risk > p or {CAPS[-1]} placed",
                                 "exact research odds; net value uses values from "
                                 f"n = {n} games, seed = {seed}", panels="panel",
                                 hue="quantity", legend=str, xlabel="risk threshold p",
                                 ylabel="tokens / prestige / probability"),
             "Expected tokens, P(spook) and net value (prestige) against the risk threshold p "
             "(exact odds, no intervals; net value scales them by two averages from "
             f"greedy in every seat, 4 players, n = {n:,} games, seed {seed})")


# ---------------------------------------------------------------- 4. token value


@njit(cache=True)
def _play_grant(cfg, comp, ptab, kinds, params, rng, seats, seat, round_, amount):
    """One game; `amount` tokens go to `seat` at its first decision in round `round_`
    (1-based; the game's own rules otherwise)."""
    buf = np.empty(E.MAX_LEGAL, np.int64)
    mem = P.new_memory()
    st = E.new_game(cfg, comp, rng)
    n = E.settle(st, cfg, comp, rng, buf)
    granted = amount == 0
    while st[E.PHASE] != E.PH_OVER:
        if not granted and st[E.ROUND] + 1 >= round_:
            st[E.TOKENS + seat] += amount
            granted = True
            n = E.legal_actions(st, cfg, comp, buf)
        k = seats[E.decider(st)]
        a = P.policy_action(st, cfg, comp, ptab, rng, kinds[k], params[k], buf, n, mem, None, None)
        n = E.step(st, cfg, comp, rng, a, buf)
    return st, granted


@njit(cache=True, nogil=True)
def _grant_batch(lo, hi, cfg, comp, ptab, kinds, params, key0, key1, round_, amount, out):
    """out[g] = (score of the granted seat, its win share, grant happened, rounds, its turns
    that reached the photograph phase), for games lo..hi-1 (a block of `run_blocks`)."""
    n = E.n_players(cfg)
    for g in range(lo, hi):
        rng = game_rngs(key0, key1, g)
        seats = seat_policies(n, kinds.shape[0], g, True)
        seat = g % n
        st, granted = _play_grant(cfg, comp, ptab, kinds, params, rng, seats, seat, round_,
                                  amount)
        out[g, 0] = E.score(st, seat)
        out[g, 1] = E.win_shares(st, cfg)[seat]
        out[g, 2] = 1.0 if granted else 0.0
        out[g, 3] = st[E.ROUND] + 1
        out[g, 4] = st[E.ST_TURNS + seat] - st[E.ST_SPOOKS + seat]


def grant_games(games: int, seed: int, round_: int, amount: int,
                players: int = 4) -> np.ndarray:
    """Greedy games where seat g % players gets `amount` tokens in round `round_`."""
    config = SnapshotConfig(players=players)
    kinds, params = policy_arrays([make_policy("greedy")])
    key0, key1 = root_keys(seed)
    out = np.zeros((games, 5))
    run_blocks(_grant_batch, games, config.to_array(), config.comp_vector(), photo_table(),
               kinds, params, np.uint64(key0), np.uint64(key1), round_, amount, out)
    return out


def token_value_table(games: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    base = grant_games(games, seed, 1, 0)
    rows = []
    for r in GRANT_ROUNDS:
        treat = grant_games(games, seed, r, EXTRA)
        d = (treat[:, 0] - base[:, 0]) / EXTRA
        w = treat[:, 1] - base[:, 1]
        half = 1.96 * d.std(ddof=1) / np.sqrt(games)
        whalf = 1.96 * w.std(ddof=1) / np.sqrt(games)
        rows.append({"grant_round": r, "games": games, "share_granted": treat[:, 2].mean(),
                     "score_per_token": d.mean(), "ci_low": d.mean() - half,
                     "ci_high": d.mean() + half, "win_rate_change": w.mean(),
                     "win_ci_low": w.mean() - whalf, "win_ci_high": w.mean() + whalf})
    return pd.DataFrame(rows), base


def value_claims(df: pd.DataFrame, games: int) -> pd.DataFrame:
    """Each round's prestige per token and change in win rate, classed against the smallest
    effects of interest (0.5 points of score for the gift of EXTRA tokens, so 0.5 / EXTRA a
    token; 2 pp of win rate) under one standard (Holm across the guide's simulated claims;
    analysis.effects); `said_*` give each with its intervals and class in the reports'
    words."""
    smallest, standard = Smallest(), Standard()
    claims = [(Claim.make(standard, f"round {r.grant_round}: points per token",
                          Estimate.from_ci(r.score_per_token, r.ci_low, r.ci_high, games),
                          smallest.delta("points") / EXTRA),
               Claim.make(standard, f"round {r.grant_round}: win rate",
                          Estimate.from_ci(r.win_rate_change, r.win_ci_low, r.win_ci_high, games),
                          smallest.delta("pp"))) for r in df.itertuples()]
    standard.settle()
    return df.assign(class_score=[c.cls for c, _ in claims],
                     class_win_rate=[w.cls for _, w in claims],
                     said_score=[said(c, "prestige") for c, _ in claims],
                     said_win_rate=[said(w, "pp") for _, w in claims])


def token_values_note(advice: pd.DataFrame, value: pd.DataFrame, tuned: pd.DataFrame | None
                      ) -> str:
    """Which of the guide's token values to use: one to play by at each player count (the
    rules of thumb's, after their ablation), and where every other one comes from."""
    play = advice[advice.rule == "token worth"]
    per = ", ".join(f"{r.players} players {r.play_text}" for r in play.itertuples())
    greedy = float(P.DEFAULT_PARAMS["greedy"][P.PARAM_NAMES.index("token_value")])
    text = (f"**Which token value to use.** To decide where a token goes, count it as the rules "
            f"of thumb say for your player count: {per} (the fitted number where its ablation "
            f"shows it does not cost, greedy's where it does). The other token values in this "
            f"guide answer other questions: {greedy:g} prestige is greedy's token worth, which "
            f"the advisor's tables (section 2) use; the values from "
            f"{value.score_per_token.min():.3f} to {value.score_per_token.max():.3f} prestige "
            f"per token above are what extra tokens "
            f"added to a greedy player's final score at 4 players, by the round they arrive (a "
            f"measurement of greedy's games, and section 3's price of a token), not a value to "
            f"play by")
    if tuned is not None:
        row = tuned[tuned.parameter == "token_value"].iloc[0, 2:].astype(float)
        text += (f"; the tuned policies' token_value (from {row.min():.3f} to "
                 f"{row.max():.3f} prestige, section 5) is played together with all their "
                 f"other numbers, not on its own")
    return text + "."


def section_value(g: Guide, df: pd.DataFrame, base: np.ndarray, games: int, seed: int,
                  note_on_values: str) -> None:
    note = f"n = {games:,} games per arm, seed {seed}"
    df = value_claims(df, games)
    g.add(f"## {HEADINGS[3]}",
          f"4-player games, every seat greedy, rulebook starting tokens. In game i (counted from "
          f"0) seat (i mod 4) + 1 receives +{EXTRA} tokens at its first decision of round r "
          f"(r = 1: at the start); the baseline is the same games (same seed, so the same "
          f"chance streams) without the gift. Score per token = (score with the gift - "
          f"baseline score) / {EXTRA}, paired by game, with its 95% interval; each estimate is "
          f"classed against the smallest effect of interest (0.5 points of score for the gift, "
          f"{0.5 / EXTRA:g} prestige a token; 2 pp of win rate) under one standard, Holm across "
          f"the {2 * len(df)} simulated claims of this section, and shown with the "
          f"Holm-adjusted interval it was decided on (docs/reading-reports.md). Baseline: mean "
          f"score {base[:, 0].mean():.2f} prestige, mean game length {base[:, 3].mean():.2f} "
          f"rounds ({note}).")
    for r in df.itertuples():
        g.add(f"- Round {r.grant_round}: score per token {r.said_score}; win rate per "
              f"{EXTRA} tokens {r.said_win_rate}; the gift arrived in "
              f"{100 * r.share_granted:.0f}% of games.")
    g.add(note_on_values)
    g.table("token_value", df.drop(columns=["said_score", "said_win_rate"]))
    plot = df.assign(grant_round=df.grant_round.astype(str))
    g.figure("token_value", F.bars(plot, "grant_round", "score_per_token", "ci_low", "ci_high",
                                   "Prestige per extra token, by round it arrives", note,
                                   ref=0.0, ylabel="score change per token (prestige)",
                                   xlabel="round the tokens arrive"),
             f"Score change per extra token, +{EXTRA} tokens granted in round r (95% normal "
             f"CIs of paired differences). Policies: greedy in every seat; 4 players; "
             f"n = {games:,} games per arm; seed {seed}.")


# ---------------------------------------------------------------- 5. tuned policies


def tuned_table(data: Path = DATA) -> tuple[pd.DataFrame | None, list[str]]:
    files = sorted(data.glob("tuned-*.toml"))
    if not files:
        return None, []
    names = P.PARAM_NAMES[:P.N_PARAMS]  # the heuristic's (the search's budget follows them)
    table = pd.DataFrame({"parameter": names,
                          "default": list(P.DEFAULT_PARAMS["greedy"][:P.N_PARAMS])})
    for f in files:
        spec = tomllib.loads(f.read_text())
        base = spec.get("base", "greedy")
        default = dict(zip(P.PARAM_NAMES, P.DEFAULT_PARAMS[base], strict=True))
        tuned = {**default, **{k: float(v) for k, v in spec.get("params", {}).items()}}
        players = spec.get("players", "?")
        note = f", {FIVE_PLAYER_NOTE}" if players == 5 else ""
        label = f"{f.stem} ({players}p, base {base}{note})"
        table[label] = [tuned[p] for p in names]
    return table, [f.name for f in files]


def section_tuned(g: Guide, data: Path = DATA) -> None:
    g.add(f"## {HEADINGS[4]}")
    table, files = tuned_table(data)
    if table is None:
        g.add(f"No tuned parameter files (`data/tuned-*.toml`) exist in {data.name}/ yet, so "
              "there is nothing to compare; re-run this guide after tuning.")
        return
    changed = table[table.iloc[:, 2:].sub(table["default"], axis=0).abs().max(axis=1) > 1e-9]
    g.add(f"Files: {', '.join(files)}. {len(changed)} of {len(table)} parameters differ "
          "from the default greedy in at least one file (table: all parameters). Each "
          "file's numbers are played together; one taken alone is not a rule to play by (the "
          "rules of thumb above are, with their measured worth).")
    g.table("tuned", table)


# ---------------------------------------------------------------- driver


def build_strategy(out="reports/snapshot", games: int = 2000, seed: int = 1,
                   data: Path = DATA, threads: int | None = None) -> Path:
    """Write strategy.md (and strategy_*.png / strategy_*.csv) into `out`; returns its path.
    One writer at a time, and the files appear together when all are written."""
    with staged(out) as stage:
        _build_strategy(stage.path, games, seed, data, threads)
    return Path(out) / "strategy.md"


def _build_strategy(out: Path, games: int, seed: int, data: Path, threads=None) -> None:
    t0 = time.perf_counter()
    g = Guide(out)
    parts = guide_parts("snapshot", out, games, seed, threads)
    value, base = token_value_table(games, seed)
    photo_phase = base[:, 0].sum() / max(1.0, base[:, 4].sum())
    g.add("# Snapshot strategy guide",
          f"Generated by `snapsim.games.snapshot.strategy.build_strategy` (games = {games}, "
          f"seed = {seed}). Sections 1-3 are exact; section 4 uses seeded simulations, each "
          "estimate with its 95% CI and its class against the smallest effect of interest "
          "(meaningful, negligible or unresolved; docs/reading-reports.md explains the terms). "
          "Seats are numbered from 1. The rules of thumb come first; the exact tables follow.")
    g.add(*parts.head)
    section_tokens(g)
    section_splits(g)
    section_research(g, photo_phase, float(value.score_per_token.iloc[0]), games, seed)
    section_value(g, value, base, games, seed,
                  token_values_note(parts.advice, value, tuned_table(data)[0]))
    section_tuned(g, data)
    g.add(*parts.tail)
    g.add(f"_Built in {time.perf_counter() - t0:.0f} s._")
    (out / "strategy.md").write_text("\n".join(g.lines))

