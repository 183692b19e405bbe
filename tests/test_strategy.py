"""The generated strategy guide: sections, figures and one number checked at its source."""

import re

import pandas as pd
import pytest

import snapsim
from snapsim.games.snapshot import strategy as S
from snapsim.odds import token_value


@pytest.fixture(scope="module")
def guide(tmp_path_factory):
    out = tmp_path_factory.mktemp("strategy")
    return S.build_strategy(out, games=60, seed=3)


def test_guide_has_sections_and_figures(guide):
    text = guide.read_text()
    for heading in S.HEADINGS:
        assert f"## {heading}" in text
    pngs = re.findall(r"\]\((strategy_[\w-]+\.png)\)", text)
    assert len(pngs) >= 4
    for name in pngs:
        path = guide.parent / name
        assert path.exists() and path.stat().st_size > 0


def test_token_table_matches_token_value(guide):
    df = pd.read_csv(guide.parent / "strategy_token_use.csv")
    row = df[(df.target == 4) & (df.animal_dice == 2) & (df.difficulty == 8)
             & (df.tokens == 1)].iloc[0]
    p, card, reroll = token_value(1, 4, 2, 8, tokens=1)
    assert row.p_photo == pytest.approx(p)
    assert row.gain_card_token == pytest.approx(card)
    assert row.gain_per_reroll_token == pytest.approx(reroll)
    assert row.best_use == ("card" if card > reroll + 1e-12 else "reroll"
                            if reroll > card + 1e-12 else row.best_use)


def test_baseline_games_are_the_simulators_games():
    base = S.grant_games(8, 3, 1, 0)
    df = snapsim.simulate("snapshot", players=4, policies=["greedy"], games=8, seed=3)
    followed = df[df.seat == df.game % 4].sort_values("game")
    assert base[:, 0].tolist() == followed.score.tolist()


def test_one_token_value_to_play_per_player_count(guide):
    """The guide names one token worth to play by at each player count, the one its rules'
    ablation supports, and labels every other token value it quotes."""
    text = guide.read_text()
    note = next(ln for ln in text.splitlines() if ln.startswith("**Which token value to use.**"))
    adv = pd.read_csv(guide.parent / "strategy_rules_advice.csv")
    token = adv[adv.rule == "token worth"]
    said = re.findall(r"(\d) players (\d+(?:\.\d+)?) prestige", note.split("(", 1)[0])
    assert [(int(n), float(v)) for n, v in said] == list(zip(token.players, token.play,
                                                             strict=True))
    assert "0.4 prestige is greedy's token worth" in note and "not a value to play by" in note
    assert "minus 0.4 prestige per token lost (greedy's token worth" in text
