"""Every report figure draws its estimates with their intervals, labels its axes with units,
and colours a seat or player count the same in every figure."""

import matplotlib.colors as mcolors
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.container import ErrorbarContainer

from snapsim.report import figures as F


@pytest.fixture
def figs(monkeypatch):
    """Figure functions hand back the matplotlib Figure instead of its PNG."""
    monkeypatch.setattr(F, "_finish", lambda fig, note: fig)


def errorbars(ax) -> list:
    return [c for c in ax.containers if isinstance(c, ErrorbarContainer)] + \
        [c for c in ax.containers if getattr(c, "errorbar", None) is not None]


def whisker_ends(ax, axis: int = 1) -> list[float]:
    """The y (axis 1) or x (axis 0) ends of every drawn whisker."""
    out = []
    for c in errorbars(ax):
        bar = c if isinstance(c, ErrorbarContainer) else c.errorbar
        for seg in bar.lines[2]:
            for path in seg.get_segments():
                out += [float(v) for v in path[:, axis]]
    return out


SEATS = pd.DataFrame({"seat": [1, 2, 1, 2, 3, 4, 5], "players": [2, 2, 5, 5, 5, 5, 5],
                      "vs": [3.0, -3.0, 1.0, 0.5, -0.5, -1.0, 0.0],
                      "lo": [1.0, -5.0, -1.0, -1.5, -2.5, -3.0, -2.0],
                      "hi": [5.0, -1.0, 3.0, 2.5, 1.5, 1.0, 2.0]})


def test_bars_draw_every_interval_and_colour_player_counts_from_the_one_palette(figs):
    fig = F.bars(SEATS, "seat", "vs", "lo", "hi", "t", "n", hue="players", ref=0.0,
                 ylabel="win rate - 1/players (pp)",
                 legend=lambda n: f"{n} players" + (" (base cards only)" if n == 5 else ""))
    ax = fig.axes[0]
    ends = whisker_ends(ax)
    for v in (*SEATS.lo, *SEATS.hi):
        assert v in ends  # every interval drawn exactly
    assert ax.get_ylabel().endswith("(pp)") and ax.get_xlabel() == "seat"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["2 players", "5 players (base cards only)"]
    bars = [p for p in ax.patches if p.get_height() != 0]
    five = [p for p in bars if mcolors.to_hex(p.get_facecolor()) == F.colour("players", 5)]
    assert len(five) == 4  # the 5-player bars with a height (seat 5's is 0)
    assert F.colour("players", 5) == F.PALETTE[4] != F.colour("players", 2)


def test_bars_colour_seats_by_number_without_a_hue(figs):
    fig = F.bars(SEATS[SEATS.players == 5], "seat", "vs", "lo", "hi", "t", "n", ylabel="pp")
    faces = [mcolors.to_hex(p.get_facecolor()) for p in fig.axes[0].patches]
    assert faces == [F.colour("seat", s) for s in (1, 2, 3, 4, 5)]


def test_a_policy_keeps_its_colour_wherever_it_appears():
    assert F.colour("policy", "random", 0) == F.colour("opponent", "random", 3)
    assert F.colour("policy", "greedy") != F.colour("policy", "random")


def test_lines_draw_whiskers_and_a_band(figs):
    df = pd.DataFrame({"knob": ["a"] * 3 + ["b"] * 2, "value": ["1", "2", "3", "1", "2"],
                       "y": [1.0, 2.0, 3.0, 4.0, 5.0]})
    df["lo"], df["hi"] = df.y - 0.5, df.y + 0.25
    fig = F.lines(df, "value", "y", "lo", "hi", "t", "n", panels="knob",
                  ylabel="mean rounds per game")
    for ax in fig.axes:
        assert errorbars(ax)
        assert any(isinstance(c, PolyCollection) for c in ax.collections)
    assert fig.axes[0].get_ylabel() == "mean rounds per game"
    assert sorted(whisker_ends(fig.axes[1])) == [3.5, 4.25, 4.5, 5.25]


def test_histogram_shares_are_percent_with_wilson_intervals(figs):
    fig = F.histogram(pd.Series([10] * 30 + [11] * 70), "t", "n", "turns")
    ax = fig.axes[0]
    assert [p.get_height() for p in ax.patches] == pytest.approx([30, 70])
    assert ax.get_ylabel() == "share of games (%)"
    ends = whisker_ends(ax)
    assert min(ends) == pytest.approx(21.9, abs=0.1)  # Wilson [21.9%, 39.6%] for 30 of 100
    assert max(ends) == pytest.approx(78.1, abs=0.1)


def test_heatmaps_write_each_interval_in_its_cell(figs):
    m = pd.DataFrame([[50.0, 61.0], [39.0, 50.0]], index=["a", "b"], columns=["a", "b"])
    lo, hi = m - 4, m + 4
    fig = F.heatmap(m, lo, hi, "t", "n", "win rate (%)")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "61\n[57, 65]" in texts
    assert fig.axes[1].get_ylabel() == "win rate (%)"
    fig = F.value_heatmap(m, lo, hi, "t", "n", "seat spread (pp)", fmt="{:.1f}", mark=(0, 1))
    assert "39.0\n[35.0, 43.0]" in [t.get_text() for t in fig.axes[0].texts]


COMPARED = pd.DataFrame({"measure": ["win rate", "rounds"], "unit": ["rate", "rounds"],
                         "diff": [0.02, -0.5], "ci_low": [0.01, -0.8], "ci_high": [0.03, -0.2],
                         "class": ["meaningful"] * 2, "baseline": [0.25, 8.0],
                         "variant_value": [0.27, 7.5], "baseline_ci_low": [0.24, 7.8],
                         "baseline_ci_high": [0.26, 8.2], "variant_ci_low": [0.26, 7.3],
                         "variant_ci_high": [0.28, 7.7]})


def test_comparison_figures_show_rates_in_pp_with_intervals(figs):
    fig = F.differences(COMPARED, "t", "n")
    assert fig.axes[0].get_xlabel() == "difference (pp)"
    assert whisker_ends(fig.axes[0], axis=0)[:2] == pytest.approx([1.0, 3.0])  # 0.01-0.03 as pp
    fig = F.sides(COMPARED, "t", "n")
    assert all(errorbars(ax) for ax in fig.axes)
    assert fig.axes[0].get_xlabel() == "%"


def test_measure_panels_draw_intervals(figs):
    df = pd.DataFrame({"measure": ["m"] * 2, "unit": ["rate"] * 2, "k": [1, 2],
                       "value": [0.5, 0.4], "ci_low": [0.45, 0.35], "ci_high": [0.55, 0.45]})
    fig = F.measure_panels(df, "k", None, "t", "n")
    assert sorted(whisker_ends(fig.axes[0]))[:1] == pytest.approx([35.0])
    assert fig.axes[0].get_ylabel() == "%"


@pytest.mark.parametrize("v,lo,hi,shown", [
    (0.523, 0.5051, 0.5408, "0.523 [0.505, 0.541]"),  # half-width 0.018: three places
    (2.3, 0.5109, 4.083, "2.3 [0.5, 4.1]"),           # half-width 1.8: one place
    (31.9, 29.61, 34.2, "31.9 [29.6, 34.2]"),
    (1.0, 1.0, 1.0, "1 [1, 1]"),                      # no spread: as plain numbers
    (0.25, float("nan"), 0.3, "0.25"),                # no interval: the estimate alone
])
def test_table_cells_show_estimate_and_interval_at_the_intervals_precision(v, lo, hi, shown):
    import pandas as pd

    from snapsim.report.render import shown_table

    df = pd.DataFrame({"x": [v], "x_ci_low": [lo], "x_ci_high": [hi]})
    assert shown_table(df).to_dict("list") == {"x [95% CI]": [shown]}


HOSTILE_NAMES = ["$\\frac{$", "a$b$c", "back\\slash $x^2$", "$"]


@pytest.mark.parametrize("draw", ["bars", "heatmap"])
def test_a_designers_name_is_shown_as_written_never_as_a_formula(draw):
    # a card named `$\frac{$` once ended the figures in mathtext's ParseSyntaxException
    df = pd.DataFrame({"card": HOSTILE_NAMES, "v": [1.0, 2.0, 3.0, 4.0]})
    shown = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(F, "_finish", lambda fig, note: shown.append(fig) or b"png")
        if draw == "bars":
            F.bars(df, "card", "v", None, None, "$\\frac{$ title", "note $x$", "%")
        else:
            F.heatmap(df.set_index("card")[["v"]], None, None, "$\\frac{$", "note", "v")
    fig = shown[0]
    fig.canvas.draw()  # every text laid out: a formula would be parsed here
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_parse_math"))
             if t.get_text() in HOSTILE_NAMES]
    assert {t.get_text() for t in texts} == set(HOSTILE_NAMES)
    assert not any(t.get_parse_math() for t in texts)
    png = getattr(F, draw)(df, "card", "v", None, None, "t", "n", "%") if draw == "bars" \
        else F.heatmap(df.set_index("card")[["v"]], None, None, "t", "n", "v")
    assert png.startswith(b"\x89PNG")
