"""A reference agent: determinized Monte Carlo over the Preparation decision.

At the start of its Preparation (dice not yet placed) the agent takes the exact advisor's
best allocations plus the greedy plan, and plays each out to the end of the game several
times with the seats' heuristic policies. Before every rollout the hidden information is
resampled from the agent's point of view (deck order; the other players' assignments among
those the agent does not hold). Candidates share the rollouts' random numbers (common random
numbers) and the best mean win share is taken (ties: higher advisor value). A chosen plan is
written into a copy of the policies' memory so the greedy interpreter plays it, in the
rollouts and in the real game alike; every other decision is the greedy policy's.

The agent is a pure function of (seed, state): it draws no number from the game's streams
and never writes to the game's state.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from numba import njit, prange

from ...sim.kernel import mix_seed, next_u64, shuffle
from . import engine as E
from . import policies as P
from .advisor import advise_allocations
from .api import SnapshotGame, make_policy

# ---------------------------------------------------------------- njit kernels


@njit(cache=True)
def rollout(st, cfg, comp, ptab, kinds, params, seats, rng, mem):
    """Play copies of `st`, `rng` and the policies' memory `mem` to the end with the seats'
    policies; win shares."""
    s = st.copy()
    r = rng.copy()
    m = mem.copy()
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.settle(s, cfg, comp, r, buf)
    while s[E.PHASE] != E.PH_OVER:
        k = seats[E.decider(s)]
        a = P.policy_action(s, cfg, comp, ptab, r, kinds[k], params[k], buf, n, m)
        n = E.step(s, cfg, comp, r, a, buf)
    return E.win_shares(s, cfg)


@njit(cache=True)
def recount_assignment(st, cfg, comp, p):
    """Recompute player p's symbol count and cover flag from their portfolio."""
    st[E.SYM_COUNT + p] = 0
    st[E.COVER_DONE + p] = 0
    if cfg[E.C_ASSIGNMENTS] == 0:
        return
    a = st[E.ASSIGN + p]
    for c in range(E.N_CARDS):
        if st[E.LOC + c] == E.L_PORTFOLIO and st[E.OWNER + c] == p:
            m = comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a)
            while m:
                st[E.SYM_COUNT + p] += m & 1
                m >>= 1
            if E.is_cover(comp, a, c):
                st[E.COVER_DONE + p] = 1


@njit(cache=True)
def determinize(st, cfg, comp, me, rng):
    """Resample what `me` cannot see, in place, from rng stream 0: the deck order (same
    cards, same N_DECK) and the other players' assignments. The result depends on what `me`
    sees only: the deck is put in card order before it is shuffled."""
    nd = st[E.N_DECK]
    st[E.DECK:E.DECK + nd] = np.sort(st[E.DECK:E.DECK + nd])
    shuffle(rng, st[E.DECK:E.DECK + nd], nd)
    n = E.n_players(cfg)
    n_assign = comp[E.K_N_ASSIGN]
    pool = np.empty(n_assign, np.int64)
    m = 0
    for a in range(n_assign):
        if a != st[E.ASSIGN + me]:
            pool[m] = a
            m += 1
    shuffle(rng, pool, m)
    k = 0
    for p in range(n):
        if p == me or k >= m:
            continue
        st[E.ASSIGN + p] = pool[k]
        k += 1
        recount_assignment(st, cfg, comp, p)


@njit(cache=True)
def write_plan(mem, st, hab, dice, tok):
    """Store a plan in the policies' memory `mem` as the plan of the turn of `st`."""
    for h in range(E.N_HAB):
        mem[P.M_HAB + h] = hab[h]
    for c in range(E.N_CARDS):
        mem[P.M_DICE + c] = dice[c]
        mem[P.M_TOK + c] = tok[c]
    mem[P.M_TURN] = P.turns_played(st)


@njit(cache=True)
def plan_is_legal(st, cfg, comp, ptab, hab, dice, tok, par):
    """Would the heuristic interpreter (parameters `par`) play this plan with legal actions
    only (and all of it)?"""
    s = st.copy()
    mem = P.new_memory()
    write_plan(mem, s, hab, dice, tok)
    me = s[E.CUR]
    rng = np.zeros(2, np.uint64)
    buf = np.empty(E.MAX_LEGAL, np.int64)
    n = E.legal_actions(s, cfg, comp, buf)
    while s[E.CUR] == me and (s[E.PHASE] == E.PH_PREP_DICE or s[E.PHASE] == E.PH_PREP_TOKENS):
        a = P.heuristic_action(s, cfg, comp, ptab, rng, par, buf, n, False, mem)
        ok = False
        for i in range(n):
            if buf[i] == a:
                ok = True
        if not ok:
            return False
        E.apply_action(s, cfg, comp, rng, a)
        if s[E.PHASE] == E.PH_OVER:
            break
        n = E.legal_actions(s, cfg, comp, buf)
    # the whole plan was placed
    for h in range(E.N_HAB):
        if s[E.HAB_DICE + h] != hab[h]:
            return False
    for c in range(E.N_CARDS):
        if s[E.DICE_ON + c] != dice[c] or s[E.TOK_ON + c] != tok[c]:
            return False
    return True


@njit(cache=True)
def public_view(st, cfg, me):
    """A copy of the state with what `me` cannot see blanked: the deck order (sorted) and
    the other players' assignments and what follows from them."""
    s = st.copy()
    nd = s[E.N_DECK]
    s[E.DECK:E.DECK + nd] = np.sort(s[E.DECK:E.DECK + nd])
    for p in range(E.n_players(cfg)):
        if p != me:
            s[E.ASSIGN + p] = -1
            s[E.SYM_COUNT + p] = 0
            s[E.COVER_DONE + p] = 0
    return s


@njit(cache=True)
def state_key(st, seed):
    """A 64-bit digest of a state (the agent hashes its `public_view`) and the agent seed."""
    h = np.empty(1, np.uint64)
    h[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for i in range(st.shape[0]):
        h[0] ^= np.uint64(st[i] & 0xFFFFFFFF) * np.uint64(0x9E3779B1) + np.uint64(i)
        next_u64(h, 0)
    return next_u64(h, 0)


@njit(cache=True, parallel=True)
def evaluate_plans(st, cfg, comp, ptab, kinds, params, seats, me, habs, dices, toks,
                   rollouts, key, mem):
    """Win share of `me` per candidate plan and rollout: out[r, j].

    Rollout r uses the same determinization and the same chance/policy streams for every
    candidate (common random numbers); everything depends on `key` only.
    """
    m = habs.shape[0]
    out = np.zeros((rollouts, m))
    for r in prange(rollouts):
        drng = np.empty(1, np.uint64)
        drng[0] = mix_seed(key, 3 * r)
        det = st.copy()
        determinize(det, cfg, comp, me, drng)
        rng = np.empty(2, np.uint64)
        rng[0] = mix_seed(key, 3 * r + 1)
        rng[1] = mix_seed(key, 3 * r + 2)
        plan = mem.copy()
        for j in range(m):
            write_plan(plan, det, habs[j], dices[j], toks[j])
            out[r, j] = rollout(det, cfg, comp, ptab, kinds, params, seats, rng, plan)[me]
    return out


# ---------------------------------------------------------------- the agent


class SearchAgent:
    """Determinized Monte Carlo over the Preparation plan; its base policy everywhere else
    (greedy, or a heuristic policy such as a bundled tuned one: `base="tuned-2p"`), which
    also plays its seat in the rollouts."""

    def __init__(self, candidates: int = 5, rollouts: int = 24, seed: int = 0,
                 base: str = "greedy"):
        if candidates < 0 or rollouts < 1:
            raise ValueError("candidates must be >= 0 and rollouts >= 1")
        self.base = make_policy(base)
        if P.KIND_NAMES[self.base.kind] in ("random", "exact"):
            raise ValueError(f"base must be a heuristic policy (greedy, cautious, aggressive, "
                             f"collector or a tuned one), got {base!r}")
        self._par = np.array(self.base.params[:P.N_PARAMS], np.float64)
        self.candidates = candidates
        self.rollouts = rollouts
        self.seed = seed
        self.searches = 0  # preparation decisions searched
        self.search_seconds = 0.0
        self.last_search: pd.DataFrame | None = None
        self._plan = None  # (turn key, hab, dice, tok)

    # -- helpers
    def _turn_key(self, game: SnapshotGame):
        st = game.state
        p = int(st[E.CUR])
        return (game, int(st[E.ROUND]), p, int(st[E.ST_TURNS + p]))  # holds game: no id reuse

    def _models(self, game: SnapshotGame, me: int):
        """Rollout policies: the game's seats, the agent's own seat played by its base."""
        kinds = np.append(game._kinds, self.base.kind).astype(np.int64)
        width = max(game._params.shape[1], P.N_PARAMS)
        params = np.zeros((kinds.shape[0], width))
        params[:-1, :game._params.shape[1]] = game._params
        params[-1, :P.N_PARAMS] = self._par
        seats = np.array(game._seats, np.int64).copy()
        seats[me] = kinds.shape[0] - 1
        return kinds, params, seats

    def candidates_for(self, game: SnapshotGame):
        """Candidate plans (hab dice, card dice, card tokens, advisor value, source)."""
        st, cfg, comp, ptab = game.state, game._cfg, game._comp, game._ptab
        mem = P.new_memory()
        greedy_v = P.plan_value(st, cfg, comp, ptab, self._par, -1, -1, mem, True)
        out = [(mem[P.M_HAB:P.M_HAB + E.N_HAB].copy(), mem[P.M_DICE:P.M_DICE + E.N_CARDS].copy(),
                mem[P.M_TOK:P.M_TOK + E.N_CARDS].copy(), float(greedy_v), "greedy")]
        cards = [c for c in range(E.N_CARDS) if st[E.LOC + c] == E.L_TABLE]
        if self.candidates > 0 and cards:
            mandatory = [bool(st[E.SIDEWAYS + c]) for c in cards]
            _, _, _, kept, _ = advise_allocations(st, cfg, comp, ptab, self._par, cards,
                                                  mandatory, self.candidates)
            k = len(cards)
            for row in kept[:self.candidates]:
                if row[0] <= -1e17:
                    continue
                hab = row[1:1 + E.N_HAB].astype(np.int64)
                dice = np.zeros(E.N_CARDS, np.int64)
                tok = np.zeros(E.N_CARDS, np.int64)
                dice[cards] = row[1 + E.N_HAB:1 + E.N_HAB + k].astype(np.int64)
                tok[cards] = row[1 + E.N_HAB + k:1 + E.N_HAB + 2 * k].astype(np.int64)
                if any((hab == o[0]).all() and (dice == o[1]).all() and (tok == o[2]).all()
                       for o in out):
                    continue
                if plan_is_legal(st, cfg, comp, ptab, hab, dice, tok, self._par):
                    out.append((hab, dice, tok, float(row[0]), "advisor"))
        return out

    def search(self, game: SnapshotGame):
        """Evaluate the candidates; return the chosen (hab, dice, tok) and store a table."""
        t0 = time.perf_counter()
        st = game.state
        me = int(st[E.CUR])
        cands = self.candidates_for(game)
        if len(cands) == 1:
            shares = np.full((1, 1), np.nan)
        else:
            kinds, params, seats = self._models(game, me)
            habs = np.array([c[0] for c in cands], np.int64)
            dices = np.array([c[1] for c in cands], np.int64)
            toks = np.array([c[2] for c in cands], np.int64)
            key = np.uint64(state_key(public_view(st, game._cfg, me),
                                      np.uint64(self.seed & 0xFFFFFFFFFFFFFFFF)))
            shares = evaluate_plans(st, game._cfg, game._comp, game._ptab, kinds, params,
                                    seats, me, habs, dices, toks, self.rollouts, key,
                                    game._memory)
        means = shares.mean(axis=0)
        best = 0
        for j in range(1, len(cands)):
            if means[j] > means[best] + 1e-12 or (
                    abs(means[j] - means[best]) <= 1e-12 and cands[j][3] > cands[best][3]):
                best = j
        self.last_search = pd.DataFrame({
            "source": [c[4] for c in cands], "advisor_value": [c[3] for c in cands],
            "win_share": means, "chosen": [j == best for j in range(len(cands))]})
        self.searches += 1
        self.search_seconds += time.perf_counter() - t0
        return cands[best][:3]

    # -- the decision
    def choose(self, game: SnapshotGame) -> int:
        """The action code the agent plays now (the game's current player is the agent)."""
        st, cfg, comp = game.state, game._cfg, game._comp
        buf = np.empty(E.MAX_LEGAL, np.int64)
        n = E.legal_actions(st, cfg, comp, buf)
        legal = set(buf[:n].tolist())
        ph = int(st[E.PHASE])
        s = st.copy()
        rng = game._rng.copy()
        mem = game._memory.copy()
        if ph in (E.PH_PREP_DICE, E.PH_PREP_TOKENS):
            key = self._turn_key(game)
            if ph == E.PH_PREP_DICE and (self._plan is None or self._plan[0] != key):
                self._plan = (key, *self.search(game))
            if self._plan is not None and self._plan[0] == key:
                write_plan(mem, s, *self._plan[1:])
                a = int(P.heuristic_action(s, cfg, comp, game._ptab, rng, self._par, buf,
                                           n, False, mem))
                if a in legal:
                    return a
                s = st.copy()
                mem[P.M_TURN] = -1  # plan afresh
        a = int(P.policy_action(s, cfg, comp, game._ptab, rng, self.base.kind, self._par, buf, n,
                                mem))
        assert a in legal, "the base policy returned an illegal action"
        return a


# ---------------------------------------------------------------- matches


def play_match(agent: SearchAgent, config, opponents="greedy", games: int = 10,
               seed: int = 0) -> pd.DataFrame:
    """Game i: the agent at seat i % players, every other seat `opponents` (one spec, or a
    list with one spec per seat: the agent's entry is ignored). One row per game."""
    n = config.players
    rows = []
    for i in range(games):
        seat = i % n
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        specs = [make_policy(x) for x in specs]
        game = SnapshotGame(config, seed=seed, game=i, policies=specs, rotate_seats=False)
        s0, t0 = agent.searches, agent.search_seconds
        calls = 0
        while not game.is_over():
            if game.current_player == seat:
                code = agent.choose(game)
                calls += 1
                game.apply(code)  # raises on an illegal action
            else:
                game.apply(game.policy_action())
        sc = game.scores()
        others = sc.score.drop(index=seat)
        dec = agent.searches - s0
        secs = agent.search_seconds - t0
        rows.append({"game": i, "seat": seat, "won": float(sc.won[seat]),
                     "score": int(sc.score[seat]), "best_other": int(others.max()),
                     "score_diff": int(sc.score[seat] - others.max()), "decisions": dec,
                     "choose_calls": calls,
                     "sec_per_decision": secs / dec if dec else float("nan")})
    return pd.DataFrame(rows)
