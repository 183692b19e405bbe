"""What a photograph is worth to a Snapshot player, as the heuristic kinds weigh it: its
prestige, the award its habitat's count completes or progresses toward, the Generalist's,
the cover photo and the feature article's chart gain, weighted by the policy's parameters.
The plan, the research decisions, the re-rolls and the advisor all rank with it."""

from ...sim.kernel import bit_count, kernel, pointer
from . import engine as E
from .layout import P_W_ARTICLE, P_W_AWARD, P_W_COVER, P_W_PROGRESS


@kernel
def card_value(st, cfg, comp, par, p, c):
    """What photographing card c is worth to player p now."""
    st = pointer(st)
    cfg = pointer(cfg)
    comp = pointer(comp)
    par = pointer(par)
    least, level = generalist_standing(st, p)
    return value_of(st, cfg, comp, par, p, c, least, level)


@kernel
def generalist_standing(st, p):
    """p's progress toward the Generalist award: the fewest animals p has photographed in one
    habitat, and in how many habitats p has that few (worked out once for all the cards a
    plan values)."""
    least = 1 << 30
    for j in range(E.N_HAB):
        least = min(least, st[E.HAB_COUNT + p * E.N_HAB + j])
    level = 0
    for j in range(E.N_HAB):
        if st[E.HAB_COUNT + p * E.N_HAB + j] == least:
            level += 1
    return least, level


@kernel
def value_of(st, cfg, comp, par, p, c, least, level):
    """`card_value`, given p's `generalist_standing` (least, level)."""
    v = float(comp[E.K_PRESTIGE + c])
    if c != E.RACCOON:
        h = comp[E.K_HAB + c]
        cnt = st[E.HAB_COUNT + p * E.N_HAB + h]
        nxt = st[E.AWARD_NEXT + h]
        if nxt < comp[E.K_AWARD_COUNT + h]:
            award = E.award_value(comp, h, nxt)
            if (cnt + 1) % 3 == 0:
                v += par[P_W_AWARD] * award
            elif par[P_W_PROGRESS] != 0.0:  # (no weight adds nothing: the division spared)
                v += par[P_W_PROGRESS] * award * ((cnt % 3) + 1) / 3.0
        g = E.GENERALIST
        if cnt == least and st[E.AWARD_NEXT + g] < comp[E.K_AWARD_COUNT + g]:
            award = E.award_value(comp, g, st[E.AWARD_NEXT + g])
            if level == 1:
                v += par[P_W_AWARD] * award
            elif par[P_W_PROGRESS] != 0.0:
                v += par[P_W_PROGRESS] * award / level
    if cfg[E.C_ASSIGNMENTS] == 1:
        a = st[E.ASSIGN + p]
        if st[E.COVER_DONE + p] == 0 and E.is_cover(comp, a, c):
            v += par[P_W_COVER] * cfg[E.C_COVER_POINTS]
        k = bit_count(comp[E.K_SYMBOLS + c] & E.assignment_symbols(comp, a))
        if k > 0:
            have = st[E.SYM_COUNT + p]
            gain = E.chart_value(comp, a, have + k) - E.chart_value(comp, a, have)
            v += par[P_W_ARTICLE] * gain
    return v
