"""Every bad invocation of every subcommand ends clean: exit code 2, at most two lines on
stderr saying what is wrong, no traceback, in bounded time, and nothing already in an output
folder deleted or changed. Good invocations next to the bad ones still work.

The table holds each class of hostile input found so far, each with its other members:
files that never end or are not files (/dev/zero, a pipe, a folder, a huge file) wherever a
file is read; outputs that are not snapsim's; Python agents that raise, exit, print, hang,
answer nonsense or fail on import, through every command that seats one; saved games that
are damaged or name code; and API calls given the wrong kind of argument."""

from __future__ import annotations

import functools
import json
import os
import shlex
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snapsim.cli import main
from snapsim.games.shutterbug.components import BUNDLED_PATH as SHUTTERBUG_FILE
from snapsim.games.snapshot.components import BUNDLED_PATH as SNAPSHOT_FILE
from snapsim.games.yosemite.components import BUNDLED_PATH as YOSEMITE_FILE

LIMIT_S = 10  # one refusal; a hang fails the case instead of blocking the run

SITUATION = 'tokens = 3\nreserved = ["walrus"]\n[table]\nShoreline = ["mudskipper", ' \
            '"sea otter"]\nSavannah = ["meerkat"]\n'
SWEEP = "games = 10\n[grid]\nphoto_target = [7, 8]\n"


def _edit(source: Path, old: str, new: str) -> str:
    text = source.read_text()
    assert old in text, old
    return text.replace(old, new, 1)


FILES = {
    # situations (advise prep / research)
    "sit.toml": SITUATION,
    "sit_tv.toml": 'tokens = 3\ntoken_value = "abc"\n[table]\nShoreline = ["mudskipper"]\n',
    "sit_million.toml": 'tokens = 1000000\n[table]\nShoreline = ["mudskipper"]\n',
    "sit_frac.toml": "tokens = 2.5\n",
    "sit_list.toml": "tokens = [1, 2]\n",
    "sit_table.toml": "table = 3\n",
    "sit_tablestr.toml": '[table]\nShoreline = "mudskipper"\n',
    "sit_tableint.toml": "[table]\nShoreline = [1, 2]\n",
    "sit_reserved.toml": 'reserved = "walrus"\n',
    "sit_portfolio.toml": "portfolio = [3]\n",
    "sit_seen.toml": "seen = 5\n",
    "sit_dice.toml": "dice = 100\n",
    "sit_players.toml": 'players = "x"\n',
    "sit_assignment.toml": "assignment = 5\n",
    "sit_unknown.toml": "wallet = 5\n",
    "sit_cost.toml": "reroll_cost = 0\n",
    "sit_nan.json": '{"tokens": NaN}',
    "sit_inf.json": '{"tokens": 1e400}',
    "sit_list.json": "[1, 2]",
    "sit_tvinf.json": '{"token_value": Infinity, "table": {"Shoreline": ["mudskipper"]}}',
    "sit_tvnan.json": '{"token_value": NaN, "table": {"Shoreline": ["mudskipper"]}}',
    "sit_broken.json": '{"tokens": ',
    # sweeps
    "sweep.toml": SWEEP,
    "sw_value.toml": 'games = 10\n[grid]\nphoto_target = [7, "x"]\n',
    "sw_games.toml": 'games = "many"\n[grid]\nphoto_target = [7, 8]\n',
    "sw_nogames.toml": "[grid]\nphoto_target = [7, 8]\n",
    "sw_seats.toml": "games = 10\nplayers = 3\n[set]\nstart_tokens = [1, 2, 3, 4]\n"
                     "[grid]\nphoto_target = [7, 8]\n",
    "sw_frac.toml": "games = 10\n[grid]\nphoto_target = [7.5, 8]\n",
    "sw_policy.toml": 'games = 10\npolicies = ["greedy:max_risk=2"]\n[grid]\n'
                      "photo_target = [7, 8]\n",
    "sw_seed.toml": "games = 10\nseed = -1\n[grid]\nphoto_target = [7, 8]\n",
    "sw_lineup.toml": 'games = 10\n[grid]\nlineup = [["greedy", "nope"]]\n',
    "sw_game.toml": "games = 10\ngame = 5\n[grid]\nphoto_target = [7, 8]\n",
    "sw_players.toml": "games = 10\n[grid]\nphoto_target = [7, 8]\nplayers = [2, 30]\n",
    "sw_huge.toml": "games = 100000000000000\n[grid]\nphoto_target = [7, 8]\n",
    "sw_nan.toml": "games = 10\n[grid]\nphoto_target = [nan, 8]\n",
    "sw_grid.toml": "games = 10\n[grid]\n" + "".join(
        f"k{i} = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" for i in range(8)),
    "sw_components.toml": 'games = 10\n[grid]\ncomponents = ["standard", "missing.toml"]\n',
    "sw_complist.toml": 'games = 10\n[grid]\nphoto_target = [7, 8]\n[set]\n'
                        'components = ["a"]\n',
    "sw_flag.toml": 'games = 10\n[grid]\nphoto_target = [7, 8]\n[set]\nraccoon = "yes"\n',
    "sw_rotate.toml": 'games = 10\nrotate_seats = 1\n[grid]\nphoto_target = [7, 8]\n',
    # component files
    "snap_high.toml": _edit(SNAPSHOT_FILE, "prestige = 1\n", 'prestige = "high"\n'),
    "snap_frac.toml": _edit(SNAPSHOT_FILE, "difficulty = 2\n", "difficulty = 2.5\n"),
    "snap_inf.toml": _edit(SNAPSHOT_FILE, "prestige = 1\n", "prestige = inf\n"),
    "snap_neg.toml": _edit(SNAPSHOT_FILE, "prestige = 1\n", "prestige = -3\n"),
    "snap_big.toml": _edit(SNAPSHOT_FILE, "prestige = 1\n", "prestige = 99999999999999999\n"),
    "snap_list.toml": _edit(SNAPSHOT_FILE, "explore = 2\n", "explore = [2]\n"),
    "snap_noname.toml": _edit(SNAPSHOT_FILE, 'name = "mudskipper"\n', ""),
    "snap_stack.toml": _edit(SNAPSHOT_FILE, "generalist = [7, 5, 3]", "generalist = 7"),
    "yos_nan.toml": _edit(YOSEMITE_FILE, "max_fish = 5 ", "max_fish = nan "),
    "yos_frac.toml": _edit(YOSEMITE_FILE, "max_fish = 5 ", "max_fish = 5.5 "),
    "yos_chart.toml": _edit(YOSEMITE_FILE, "landmark_chart = [0, 2, 5, 9, 14]",
                            "landmark_chart = 7"),
    "yos_points.toml": _edit(YOSEMITE_FILE, "points = 2\n", 'points = "two"\n'),
    "yos_pointlist.toml": _edit(YOSEMITE_FILE, "points = 2\n", "points = [2]\n"),
    "yos_example.toml": _edit(YOSEMITE_FILE, "[example]", "[example]\nhand = 5\n[x]"),
    "sb_quality.toml": _edit(SHUTTERBUG_FILE, "quality = 1 }", "quality = 1.5 }"),
    "sb_qualitystr.toml": _edit(SHUTTERBUG_FILE, "quality = 1 }", 'quality = "x" }'),
    "sb_creature.toml": _edit(SHUTTERBUG_FILE, '"Bigfoot", "Pegasus"', '7, "Pegasus"'),
    "sb_points.toml": _edit(SHUTTERBUG_FILE, "points = 4", "points = 1e9"),
    "binary.toml": "\udcff",
    "afile": "a file where a folder is expected\n",
    "foreign.parquet": "a file some other program wrote\n",
    # Python agents that misbehave (imported from the work folder)
    "bad_agents.py": (
        "import sys, time\n"
        "def raises_act(obs, legal):\n    raise KeyError('no map')\n"
        "class RaisesReset:\n"
        "    def reset(self):\n        raise RuntimeError('cannot reset')\n"
        "    def act(self, obs, legal):\n        return legal[0]\n"
        "def exits(obs, legal):\n    sys.exit(3)\n"
        "def prints(obs, legal):\n    print('thinking...')\n    return legal[0]\n"
        "def forever(obs, legal):\n    while True:\n        pass\n"
        "def sleeps(obs, legal):\n    time.sleep(3600)\n"
        "def nonsense(obs, legal):\n    return 10 ** 12\n"
        "def long_error(obs, legal):\n    raise ValueError('x\\n' * 5000)\n"),
    "exits_on_import.py": "import sys\nsys.exit(0)\n",
    "bad_pkg/__init__.py": "raise RuntimeError('broken package')\n",
    "bad_pkg/sub.py": "def agent(obs, legal):\n    return legal[0]\n",
    # saved games: damaged, old, or naming code to run
    "save_moves.json": json.dumps({"snapsim_play": 2, "game": "yosemite", "players": 2,
                                   "seat": 1, "opponents": ["greedy"], "seed": 0,
                                   "hints": False, "moves": [[999999, 0]], "shown": 0}),
    "save_kinds.json": json.dumps({"snapsim_play": 2, "game": "yosemite", "players": "two",
                                   "seat": 1, "opponents": ["greedy"], "seed": 0,
                                   "hints": False, "moves": [], "shown": 0}),
    "save_old.json": json.dumps({"snapsim_play": 1, "game": "yosemite", "players": 2}),
    "save_list.json": "[1, 2, 3]",
    "save_broken.json": '{"snapsim_play": 2, "game": ',
    "save_code.json": json.dumps({"snapsim_play": 2, "game": "yosemite", "players": 2,
                                  "seat": 1, "opponents": ["os:system"], "seed": 0,
                                  "hints": False, "moves": [], "shown": 0}),
    # nested past any stack: every reader of TOML or JSON refuses it as bad syntax
    "deep.toml": "a = " + "[" * 5000 + "]" * 5000 + "\n",
    "deep_save.json": '{"snapsim_play": 2, "game": "yosemite", "moves": ' + "[" * 100_000
                      + "]" * 100_000 + "}",
    "deep_sit.json": "[" * 100_000 + "]" * 100_000,
    # a name is one line of printable text (it goes to patch headers, TOML comments, figures)
    "snap_newline.toml": _edit(SNAPSHOT_FILE, 'name = "mudskipper"',
                               'name = "mud\\nknobs.photo_target = 9"'),
    "snap_bidi.toml": _edit(SNAPSHOT_FILE, 'name = "mudskipper"', 'name = "mud\\u202eskipper"'),
    "snap_knobkey.toml": _edit(SNAPSHOT_FILE, "[[animals]]", '[knobs]\n"a\\tb" = 1\n\n[[animals]]'),
}
HUGE = 17 * 2**20  # bytes of the huge file: past the reader's cap


def _compile_the_step_games() -> None:
    """Every game's step API played once with the built-in policies, before any alarm: a
    first compile on a loaded machine can outlast a refusal's limit, and an alarm that lands
    inside numba's compiler leaves the function half built for the rest of the process."""
    from snapsim.protocol import new_game

    for game in ("snapshot", "yosemite", "shutterbug"):
        g = new_game(game, seed=0)
        while not g.is_terminal:
            g.legal_actions()
            g.apply(g.policy_action())


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    _compile_the_step_games()
    folder = tmp_path_factory.mktemp("bad-input")
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        if name == "binary.toml":
            path.write_bytes(b"\xff\xfe\x00")
        else:
            path.write_text(text)
    os.mkfifo(folder / "fifo")  # a pipe nobody writes: reading it would wait forever
    with (folder / "huge.toml").open("wb") as fh:
        fh.truncate(HUGE)  # sparse: no disk used
    sys.path.insert(0, str(folder))  # the agents' modules
    (folder / "sw_out.toml").write_text(f'games = 10\nout = "{folder}/afile/sub"\n[grid]\n'
                                        "photo_target = [7, 8]\n")
    (folder / "kept").mkdir()
    (folder / "kept" / "notes.txt").write_text("mine\n")
    yield folder
    sys.path.remove(str(folder))


# (subcommand line with {d} for the work folder) — each must end with exit code 2
BAD = [
    # odds photo: out of reach sizes, wrong kinds
    "odds photo --dice 0", "odds photo --dice 7", "odds photo --dice x", "odds photo --dice 1-",
    "odds photo --dice -3", "odds photo --tokens -1", "odds photo --difficulty 1-10000000",
    "odds photo --difficulty 0", "odds photo --difficulty 2.5", "odds photo --difficulty nan",
    "odds photo --tokens 0-999 --difficulty 1-999", "odds photo --format xml",
    "odds photo --tokens 99999999999999999999999",
    # odds explore
    "odds explore --dice 0", "odds explore --target 7", "odds explore --rerolls -1",
    "odds explore --rerolls 1000000000000", "odds explore --rerolls 0-100000000",
    "odds explore --reroll-cost 0", "odds explore --reroll-cost x",
    "odds explore --reroll-cost 99999999999999999999999",
    # odds spook
    "odds spook --top mountain=x", "odds spook --top nowhere=3", "odds spook --top mountain",
    "odds spook --top mountain=1000000000", "odds spook --top mountain=1-3",
    "odds spook --seen mountain:1000000000", "odds spook --seen 'zebra unicorn'",
    "odds spook --unseen mountain:1-100000000", "odds spook --reserve-slots -1",
    "odds spook --reserve-slots 1000000000", "odds spook --max-placed -1",
    "odds spook --max-placed 1000000000000000000000", "odds spook --max-risk 2",
    "odds spook --max-risk nan", "odds spook --max-risk inf", "odds spook --max-risk -0.5",
    "odds spook --components {d}/missing.toml", "odds spook --components /dev/null",
    "odds spook --components /proc/self/status", "odds spook --components {d}/snap_high.toml",
    "odds spook --components {d}/snap_frac.toml", "odds spook --components {d}/snap_inf.toml",
    "odds spook --components {d}/snap_neg.toml", "odds spook --components {d}/snap_big.toml",
    "odds spook --components {d}/snap_list.toml", "odds spook --components {d}/snap_noname.toml",
    "odds spook --components {d}/snap_stack.toml", "odds spook --components {d}/binary.toml",
    "odds spook --components {d}/kept", "odds spook --components " + str(YOSEMITE_FILE),
    # odds tokens
    "odds tokens --target 0", "odds tokens --target 9", "odds tokens --explore-dice 7",
    "odds tokens --animal-dice 0", "odds tokens --difficulty -1", "odds tokens --tokens -1",
    "odds tokens --rerolls -1", "odds tokens --rerolls 100000000000",
    "odds tokens --reroll-cost 0", "odds tokens --difficulty 1-10000000",
    "odds tokens --tokens 0-10000000", "odds tokens --explore-dice 6 --animal-dice 6",
    "odds tokens --target 1-6 --difficulty 1-999 --tokens 0-99", "odds nothing",
    # simulate: sizes, kinds, inconsistent settings, policies
    "simulate snapshot --games 1000000000000", "simulate snapshot --games 0",
    "simulate snapshot --games -5", "simulate snapshot --games x",
    "simulate snapshot --games 10 --seed -1", "simulate snapshot --games 10 --threads 0",
    "simulate snapshot --games 10 --threads -2", "simulate snapshot --games 10 --workers 0",
    "simulate snapshot --games 10 --workers 1000000", "simulate snapshot --games 10 --chunk-size 0",
    "simulate snapshot --games 10 --players 1", "simulate snapshot --games 10 --players 100",
    "simulate snapshot --games 10 --set players=3 --players 4",
    "simulate snapshot --games 10 --set players=3",
    "simulate snapshot --games 10 --players 3 --set start_tokens=1,2,3,4",
    "simulate snapshot --games 10 --players 3 --set start_tokens=1,2",
    "simulate snapshot --games 10 --set photo_target=nan",
    "simulate snapshot --games 10 --set photo_target=inf",
    "simulate snapshot --games 10 --set photo_target=2.5",
    "simulate snapshot --games 10 --set photo_target=abc",
    "simulate snapshot --games 10 --set raccoon=5", "simulate snapshot --games 10 --set bogus=1",
    "simulate snapshot --games 10 --set dice=99999999999999999999999",
    "simulate snapshot --games 10 --set max_rounds=1000000000000",
    "simulate snapshot --games 10 --set reroll_cost=1000000000000000000",
    "simulate snapshot --games 10 --set experience_tokens=1000000000000000000",
    "simulate snapshot --games 10 --set cover_points=9000000000000000000",
    "simulate snapshot --games 10 --set components=x",
    "simulate snapshot --games 10 --policies greedy:max_risk=2",
    "simulate snapshot --games 10 --policies greedy:max_risk=nan",
    "simulate snapshot --games 10 --policies greedy:token_value=-1",
    "simulate snapshot --games 10 --policies greedy:max_placed=inf",
    "simulate snapshot --games 10 --policies greedy:slot_risk=0",
    "simulate snapshot --games 10 --policies greedy:allow_tokens=0.5",
    "simulate snapshot --games 10 --policies greedy:bogus=1",
    "simulate snapshot --games 10 --policies nope",
    "simulate snapshot --games 10 --policies ''",
    "simulate yosemite --games 10 --policies ' , '",
    "simulate yosemite --games 10 --policies nosuchmodule:agent",
    "ladder yosemite --policies ''",
    "ladder yosemite --reps 5",
    "ladder yosemite --games -3",
    "ladder yosemite --games 10000000000000",
    "ladder yosemite --seed abc",
    "report yosemite --quick --strong-games -3 --out {d}/r",
    "report yosemite --quick --strong-games 10000000000000 --out {d}/r",
    "report yosemite --quick --strong '' --out {d}/r",
    "report yosemite --quick --ladder-games abc --out {d}/r",
    "simulate snapshot --games 10 --policies greedy,greedy,greedy",
    "simulate snapshot --games 10 --policies {d}/missing.toml",
    "simulate snapshot --games 10 --policies {d}/sit.toml",
    "simulate yosemite --games 10 --policies rollout:rollouts=1000000000",
    "simulate yosemite --games 10 --policies rollout:rollouts=-1",
    "simulate yosemite --games 10 --policies greedy:fish_value=nan",
    "simulate shutterbug --games 10 --policies greedy:trade=5",
    "simulate shutterbug --games 10 --policies greedy:w_assign=inf",
    "simulate shutterbug --games 10 --policies greedy:w_job=-2",
    "simulate yosemite --games 10 --players 3", "simulate shutterbug --games 10 --players 0",
    "simulate shutterbug --games 10 --set populate=1000", "simulate nogame --games 10",
    "simulate snapshot --games 10 --resume",
    "simulate snapshot --games 10 --components {d}/missing.toml",
    "simulate snapshot --games 10 --components " + str(YOSEMITE_FILE),
    "simulate snapshot --games 10 --components {d}/snap_frac.toml",
    "simulate yosemite --games 10 --components {d}/yos_nan.toml",
    "simulate yosemite --games 10 --components {d}/yos_frac.toml",
    "simulate yosemite --games 10 --components {d}/yos_chart.toml",
    "simulate yosemite --games 10 --components {d}/yos_points.toml",
    "simulate yosemite --games 10 --components {d}/yos_pointlist.toml",
    "simulate yosemite --games 10 --components {d}/yos_example.toml",
    "simulate shutterbug --games 10 --components {d}/sb_quality.toml",
    "simulate shutterbug --games 10 --components {d}/sb_qualitystr.toml",
    "simulate shutterbug --games 10 --components {d}/sb_creature.toml",
    "simulate shutterbug --games 10 --components {d}/sb_points.toml",
    "simulate snapshot --games 10 --scheduler foo",
    "simulate snapshot --games 10 --scheduler local:0",
    # sweep files
    "sweep {d}/missing.toml", "sweep /dev/null --out {d}/sw", "sweep {d}/kept --out {d}/sw",
    "sweep {d}/binary.toml --out {d}/sw", "sweep " + str(SNAPSHOT_FILE) + " --out {d}/sw",
    "sweep {d}/sw_value.toml --out {d}/sw", "sweep {d}/sw_games.toml --out {d}/sw",
    "sweep {d}/sw_nogames.toml --out {d}/sw", "sweep {d}/sw_seats.toml --out {d}/sw",
    "sweep {d}/sw_frac.toml --out {d}/sw", "sweep {d}/sw_policy.toml --out {d}/sw",
    "sweep {d}/sw_seed.toml --out {d}/sw", "sweep {d}/sw_lineup.toml --out {d}/sw",
    "sweep {d}/sw_game.toml --out {d}/sw", "sweep {d}/sw_players.toml --out {d}/sw",
    "sweep {d}/sw_huge.toml --out {d}/sw", "sweep {d}/sw_nan.toml --out {d}/sw",
    "sweep {d}/sw_grid.toml --out {d}/sw", "sweep {d}/sw_components.toml --out {d}/sw",
    "sweep {d}/sw_complist.toml --out {d}/sw", "sweep {d}/sw_flag.toml --out {d}/sw",
    "sweep {d}/sw_rotate.toml --out {d}/sw", "sweep {d}/sweep.toml --threads 0",
    # advise
    "advise prep {d}/missing.toml", "advise prep {d}/kept", "advise prep {d}/binary.toml",
    "advise prep {d}/sit_tv.toml", "advise prep {d}/sit_million.toml",
    "advise prep {d}/sit_frac.toml", "advise prep {d}/sit_list.toml",
    "advise prep {d}/sit_table.toml", "advise prep {d}/sit_tablestr.toml",
    "advise prep {d}/sit_tableint.toml", "advise prep {d}/sit_reserved.toml",
    "advise prep {d}/sit_portfolio.toml", "advise research {d}/sit_seen.toml",
    "advise prep {d}/sit_dice.toml", "advise prep {d}/sit_players.toml",
    "advise prep {d}/sit_assignment.toml", "advise prep {d}/sit_unknown.toml",
    "advise prep {d}/sit_cost.toml", "advise prep {d}/sit_nan.json",
    "advise prep {d}/sit_inf.json", "advise prep {d}/sit_list.json",
    "advise prep {d}/sit_tvinf.json", "advise research {d}/sit_tvnan.json",
    "advise prep {d}/sit_broken.json", "advise prep {d}/sit.toml --top 0",
    "advise prep {d}/sit.toml --top 1000000000", "advise research {d}/sit.toml --top -1",
    "advise prep {d}/sit.toml --components {d}/snap_neg.toml",
    "advise reroll --target 4 --tokens 5000", "advise reroll --target 4 --tokens -1",
    "advise reroll --target 9 --tokens 3", "advise reroll --target 4 --tokens 3 --paid -2",
    "advise reroll --target 4 --tokens 3 --reroll-cost 0",
    "advise reroll --target 4 --tokens 3 --token-value nan",
    "advise reroll --target 4 --tokens 3 --token-value -1",
    "advise reroll --target 4 --tokens 3 --stake inf",
    "advise reroll --target 4 --tokens 3 --animal 1,2,3",
    "advise reroll --target 4 --tokens 3 --animal 1,7,nan,0",
    "advise reroll --target 4 --tokens 3 --animal 9,7,2,0", "advise reroll --tokens 3",
    # tune
    "tune snapshot --popsize 0", "tune snapshot --iterations 0", "tune snapshot --games 0",
    "tune snapshot --games 1000000000000", "tune snapshot --players 9",
    "tune snapshot --seed -1", "tune snapshot --field nope", "tune snapshot --policy random",
    "tune snapshot --policy greedy:max_risk=2", "tune snapshot --set players=3",
    "tune snapshot --set photo_target=x", "tune yosemite --policy random",
    "tune shutterbug --players 1", "tune chess",
    # ladder
    "ladder snapshot --games 0", "ladder snapshot --policies greedy",
    "ladder snapshot --policies greedy,nope", "ladder snapshot --reps 1", "ladder chess",
    "ladder shutterbug --players 1", "ladder snapshot --set players=3",
    "tune snapshot --components {d}/snap_frac.toml", "tune snapshot --threads 0",
    "report snapshot --threads 0 --quick --out {d}/r", "compare snapshot --threads 0",
    "report snapshot --seed -1 --quick --out {d}/r", "compare snapshot --seed -1",
    # report
    "report snapshot --games 0", "report snapshot --games 1000000000000",
    "report nogame", "report snapshot --components {d}/missing.toml",
    "report sweep", "report sweep {d}/missing --out {d}/r",
    # components
    "components export nogame", "components export snapshot --out {d}/kept",
    "components check {d}/missing.toml", "components check {d}/snap_frac.toml",
    "components check {d}/binary.toml", "components check {d}/sit.toml",
    "components check {d}/yos_nan.toml --game snapshot", "components nothing",
    # compare
    "compare snapshot --games 0", "compare snapshot --games x",
    "compare snapshot --games 1000000000000", "compare snapshot --games auto --detect nan",
    "compare snapshot --players 9", "compare snapshot --variant {d}/missing.toml",
    "compare snapshot --variant {d}/snap_frac.toml", "compare snapshot --variant-set bogus=1",
    "compare snapshot --policies greedy:max_risk=2", "compare nogame",
    # files that never end, are not files, or are far too big, wherever a file is read
    *[f"{cmd} {path}" for path in ("/dev/zero", "{d}/fifo", "{d}/kept", "{d}/huge.toml")
      for cmd in ("components check", "sweep", "advise prep", "advise research",
                  "play yosemite --load", "simulate snapshot --games 10 --components",
                  "compare snapshot --games 10 --variant", "compare snapshot --baseline",
                  "tune snapshot --components", "ladder snapshot --components",
                  "report snapshot --quick --out {d}/r --components",
                  "odds spook --components", "simulate snapshot --games 10 --policies",
                  "rebalance snapshot --target seat_spread=2 --edit start_tokens --out "
                  "{d}/rb --components", "advise prep {d}/sit.toml --components")],
    # compare: what its help promises, and its bounds
    "compare snapshot --players 0", "compare snapshot --players 0-3",
    "compare snapshot --games auto", "compare snapshot --games auto --detect 0",
    "compare snapshot --games 10 --policies greedy,greedy --variant-set photo_target=8",
    # Python agents: each failure is one line naming the agent, through every command (with
    # --quiet: a run that has started shows its progress bar before the error line; tune
    # shows none)
    *[f"{cmd} bad_agents:{agent}{tail}"
      for agent in ("raises_act", "RaisesReset", "exits", "nonsense", "long_error")
      for cmd, tail in (("simulate yosemite --games 2 --policies", ",greedy --quiet"),
                        ("compare yosemite --games 10 --no-restricted --variant-set "
                         "start_fish=4 --policies", " --quiet"),
                        ("tune yosemite --games 2 --iterations 1 --popsize 1 "
                         "--verify-games 10 --field", ""),
                        ("ladder yosemite --games 2 --policies greedy,", " --quiet"),
                        ("play yosemite --seat 2 --opponents", ""))
      if not cmd.startswith("play")] + [
        f"play yosemite --seat 2 --opponents bad_agents:{agent}"
        for agent in ("raises_act", "RaisesReset", "exits", "nonsense", "long_error")],
    *[f"simulate yosemite --games 2 --quiet --policies {ref},greedy{tail}"
      for ref, tail in (("bad_agents:forever", " --move-timeout 0.5"),
                        ("bad_agents:sleeps", " --move-timeout 0.5"),
                        ("bad_pkg.sub:agent", ""), ("exits_on_import:agent", ""),
                        ("bad_agents:nothing", ""), ("greedy", " --move-timeout -1"),
                        ("greedy", " --move-timeout nan"))],
    "play yosemite --seat 2 --opponents bad_agents:forever --move-timeout 0.5",
    # saved games: damaged, old, of the wrong kind, or naming code nobody asked for
    *[f"play yosemite --load {{d}}/{name}" for name in (
        "save_moves.json", "save_kinds.json", "save_old.json", "save_list.json",
        "save_broken.json", "save_code.json", "sit.toml", "binary.toml")],
    "play yosemite --load {d}/save_code.json --opponents greedy",
    # the rebalance command's own flags
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --games 5",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --budget 0",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --budget nan",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --games 100 "
    "--budget 5",
    "rebalance snapshot --target nothing=2 --edit start_tokens --out {d}/rb",
    "rebalance snapshot --target seat_spread=x --edit start_tokens --out {d}/rb",
    "rebalance snapshot --target seat_spread=2 --edit nothing --out {d}/rb",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --seed -1",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --threads 0",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb --players 9",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb "
    "--max-cost 0",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb "
    "--verify-games 3",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb "
    "--strong nope",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb "
    "--optimizer nope",
    "rebalance nogame --target seat_spread=2 --edit start_tokens --out {d}/rb",
    "rebalance snapshot --edit start_tokens --out {d}/rb",
    # deep nesting, unprintable names, a change to detect below any run's reach
    *[f"{command} {{d}}/{name}" for command, name in (
        ("components check", "deep.toml"),
        ("simulate snapshot --games 2 --components", "deep.toml"),
        ("compare snapshot --games 10 --variant", "deep.toml"), ("advise prep", "deep_sit.json"),
        ("advise --load", "deep_save.json"), ("play yosemite --load", "deep_save.json"),
        ("components check", "snap_newline.toml"), ("components check", "snap_bidi.toml"),
        ("components check", "snap_knobkey.toml"),
        ("simulate snapshot --games 2 --components", "snap_newline.toml"))],
    "sweep {d}/deep.toml --out {d}/sw",
    "compare snapshot --games auto --detect 1e-300 --variant-set photo_target=8",
    "simulate yosemite --games 2 --move-timeout 1e308 --policies bad_agents:prints,greedy",
    # the ladder and report flags next to the new ones
    "report sweep {d}/kept --out /proc/report", "report sweep {d}/afile",
    "report yosemite --games 5 --out {d}/r",
]

# output paths: the folder given must keep everything it already holds
BAD_OUT = [
    "simulate snapshot --games 10 --out {d}/afile",
    "simulate snapshot --games 10 --out {d}/afile/sub",
    "simulate snapshot --games 10 --out {d}/afile/x.parquet",
    "simulate snapshot --games 10 --out /dev/null",
    "simulate snapshot --games 10 --out /dev/null/x.parquet",
    "simulate snapshot --games 10 --out /proc/x.parquet",
    "simulate snapshot --games 10 --out /proc/run",
    "simulate snapshot --games 10 --out {d}/kept --resume",
    "sweep {d}/sweep.toml --out {d}/afile", "sweep {d}/sweep.toml --out /proc/sweep",
    "sweep {d}/sw_out.toml", "report snapshot --quick --out {d}/afile",
    "report snapshot --quick --out /proc/report", "report snapshot --quick --out {d}/kept",
    "components export snapshot --out {d}/kept/notes.txt",
    "components export snapshot --out /proc/x.toml",
    "components export snapshot --out {d}/afile/x.toml",
    "compare snapshot --out {d}/afile", "compare snapshot --out /proc/cmp",
    "tune snapshot --out /proc/tuned.toml", "tune snapshot --out {d}/afile/t.toml",
    # nothing snapsim did not write is replaced: a file of another program, a file that is
    # not a saved game, a folder that is not a run
    "simulate snapshot --games 10 --out {d}/foreign.parquet",
    "play yosemite --save {d}/kept/notes.txt", "play yosemite --save {d}/afile",
    "play yosemite --save {d}/kept", "simulate snapshot --games 10 --out {d}/kept",
    "sweep {d}/sweep.toml --out {d}/kept", "ladder yosemite --games 2 --out {d}/kept",
    "compare yosemite --games 10 --variant-set start_fish=4 --out {d}/kept",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/kept",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out /proc/rb",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/afile",
    "report sweep {d}/kept --out {d}/kept",
    # --force replaces a finished snapsim result, never a file snapsim did not write
    "compare yosemite --games 10 --variant-set start_fish=4 --out {d}/kept --force",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/kept --force",
    "ladder yosemite --games 2 --out {d}/kept --force",
    "report snapshot --quick --out {d}/kept --force",
    "report sweep {d}/kept --out {d}/kept --force",
    "report yosemite --strategy-only --games 20 --out {d}/kept",
    "report yosemite --strategy-only --games 20 --out {d}/kept --force",
    # the workbench: its port and its output folder refused before it serves
    "app --no-browser --port 0", "app --no-browser --port 99999",
    "app --no-browser --port x", "app --no-browser --host ''",
    "app --no-browser --out {d}/afile", "app --no-browser --out /dev/zero",
    "app --no-browser --out ''",
    # a one-file output: --force replaces snapsim's own result, never a file of the user's
    "simulate snapshot --games 10 --out {d}/foreign.parquet --force",
    "components export yosemite --out {d}/foreign.parquet --force",
    "tune yosemite --games 20 --out {d}/foreign.parquet --force",
    # rebalance inputs known to be wrong before any game: nothing written
    "rebalance snapshot --target seat_spread=1e-300 --edit start_tokens --out {d}/rb",
    "rebalance yosemite --target length=4-4.000001 --edit start_fish --out {d}/rb",
    "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/rb "
    "--seed 9223372036854775000",
    "rebalance snapshot --target seat_spread=2 --edit knob:photo_target="
    + ",".join(map(str, range(1, 20001))) + " --out {d}/rb",
    "rebalance shutterbug --target seat_spread=2 --edit tiles.quality:±100 --out {d}/rb",
    # an assignment name holding "=" cannot be read back from a result: refused up front
    "rebalance snapshot --target 'assignments[Live=Fast]=2' --edit start_tokens --out {d}/rb",
]

GOOD = [
    "odds photo --dice 2 --difficulty 7", "odds explore --dice 1 --target 4",
    "odds spook --top mountain=7", "odds tokens --target 4 --difficulty 5",
    "advise prep {d}/sit.toml --top 3", "advise reroll --target 4 --tokens 4",
    "components check " + str(SNAPSHOT_FILE), "components export yosemite",
    "simulate snapshot --games 8 --quiet --policies greedy:max_risk=0.3 "
    "--set photo_target=8 --out {d}/run",
    # one policy for every seat, as compare's help says; --games auto for every game
    "compare snapshot --games 10 --policies greedy --variant-set photo_target=8 "
    "--no-restricted --quiet",
    *[f"compare {game} --games auto --detect 50 --variant-set {knob} --no-restricted --quiet"
      for game, knob in (("snapshot", "photo_target=8"), ("shutterbug", "trading=false"),
                         ("yosemite", "start_fish=4"))],
]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _alarm(signum, frame):
    raise TimeoutError(f"a refusal took more than {LIMIT_S} s")


def run_cli(capsys, line: str, work: Path, limit: int = LIMIT_S) -> tuple[int, str, str]:
    """main(argv) in this process under a wall-clock alarm (limit 0: none, for good runs that
    may compile kernels first): (exit code, stdout, stderr)."""
    argv = shlex.split(line.format(d=work))
    capsys.readouterr()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        rc = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    return rc, out, err


def assert_clean_refusal(rc: int, out: str, err: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert rc == 2, (rc, out[-500:], err[-500:])
    assert 1 <= len(lines) <= 2, err
    assert lines[0].startswith("snapsim: error: "), err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("line", BAD)
def test_bad_invocation_is_one_clear_line(capsys, work, line):
    rc, out, err = run_cli(capsys, line, work)
    assert_clean_refusal(rc, out, err)


@pytest.mark.parametrize("line", BAD_OUT)
def test_bad_output_path_changes_nothing(capsys, work, line):
    before = _files(work)
    rc, out, err = run_cli(capsys, line, work)
    assert_clean_refusal(rc, out, err)
    assert _files(work) == before


@pytest.mark.parametrize("line", GOOD)
def test_good_invocation_next_to_the_bad_ones_works(capsys, work, line):
    rc, out, err = run_cli(capsys, line, work, limit=0)
    assert rc == 0, err
    assert out.strip() and "Traceback" not in err


def test_the_table_spans_every_subcommand():
    lines = BAD + BAD_OUT
    assert len(lines) >= 100
    for command in ("odds photo", "odds explore", "odds spook", "odds tokens", "simulate",
                    "sweep", "report snapshot", "report sweep", "advise prep",
                    "advise research", "advise reroll", "tune", "ladder", "components export",
                    "components check", "compare", "rebalance", "play"):
        assert any(line.startswith(command) for line in lines), command


def test_messages_name_the_value_and_the_fix(capsys, work):
    cases = {
        "simulate snapshot --games 1000000000000": "--out DIR",
        "odds photo --difficulty 1-10000000": "more than 1000 numbers",
        "advise reroll --target 4 --tokens 5000": "supply must be a whole number from 0 to 100",
        "simulate snapshot --games 10 --policies greedy:max_risk=2":
            "max_risk must be a finite number from 0 to 1, got 2.0",
        "simulate snapshot --games 10 --players 3 --set start_tokens=1,2,3,4":
            "start_tokens needs 3 whole numbers",
        "simulate yosemite --games 10 --components {d}/yos_nan.toml":
            "yos_nan.toml: scoring: max_fish must be a whole number from 1 to 20, got nan",
        "advise prep {d}/sit_tv.toml": "sit_tv.toml: token_value must be a finite number",
        "sweep {d}/sw_nogames.toml --out {d}/sw": "sw_nogames.toml: missing games",
        "simulate snapshot --games 10 --out {d}/afile": "is a file, not a folder",
        "tune snapshot --popsize 0": "--popsize must be a whole number from 1 to 1000, got 0",
    }
    for line, message in cases.items():
        rc, out, err = run_cli(capsys, line, work)
        assert rc == 2 and message in err, (line, err)


BAD_VALUES = st.one_of(
    st.sampled_from([float("nan"), float("inf"), -float("inf"), -1, -2.5, 2.5, 10**30,
                     "abc", "", True, [1], {"a": 1}]),
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not float(x).is_integer()),
    st.integers(max_value=-1), st.integers(min_value=10**6, max_value=10**40),
    st.text(max_size=5), st.lists(st.integers(), max_size=3),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(key=st.sampled_from(["tokens", "token_value", "dice", "players", "reroll_cost",
                            "assignment", "table", "reserved"]), value=BAD_VALUES)
def test_any_bad_situation_value_is_refused(capsys, work, key, value):
    finite = isinstance(value, int | float) and not isinstance(value, bool) and \
        abs(value) < float("inf")
    assume(not (key == "token_value" and finite and 0 <= value <= 100))
    assume(not (key == "reserved" and value == []))
    data = {"table": {"Shoreline": ["mudskipper"]}, key: value}
    path = work / "generated.json"
    path.write_text(json.dumps(data))  # NaN and Infinity are written as JSON allows in Python
    rc, out, err = run_cli(capsys, f"advise prep {path}", work)
    assert_clean_refusal(rc, out, err)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(field=st.sampled_from(["prestige = 1\n", "difficulty = 2\n", "explore = 2\n"]),
       value=BAD_VALUES.filter(lambda v: not isinstance(v, dict)))
def test_any_bad_component_value_is_refused(capsys, work, field, value):
    name = field.split(" = ")[0]
    text = json.dumps(value).replace("NaN", "nan").replace("Infinity", "inf")
    path = work / "generated.toml"
    path.write_text(_edit(SNAPSHOT_FILE, field, f"{name} = {text}\n"))
    rc, out, err = run_cli(capsys, f"components check {path}", work)
    assert_clean_refusal(rc, out, err)


def test_an_agents_prints_leave_the_json_output_valid(capsys, work):
    rc, out, err = run_cli(capsys, "simulate yosemite --games 3 --quiet --format json "
                                   "--policies bad_agents:prints,greedy", work, limit=0)
    assert rc == 0, err
    assert json.loads(out)["games"] == 3  # stdout is the command's alone
    assert "thinking..." in err  # the agent's own words go to stderr, not lost


def test_an_agent_past_its_time_is_named_and_the_outer_timer_keeps_its_time(capsys, work):
    rc, out, err = run_cli(capsys, "simulate yosemite --games 2 --move-timeout 0.5 --quiet "
                                   "--policies bad_agents:forever,greedy", work)
    assert_clean_refusal(rc, out, err)
    assert "agent forever (bad_agents:forever) took more than 0.5 s in act (game 0" in err
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the table's own alarm ended


def test_each_agent_failure_says_what_it_did(capsys, work):
    said = {"raises_act": "raised KeyError: 'no map' in act", "exits": "called sys.exit(3)",
            "RaisesReset": "raised RuntimeError: cannot reset in reset",
            "nonsense": "not a legal action"}
    for agent, words in said.items():
        rc, out, err = run_cli(capsys, f"simulate yosemite --games 2 --quiet --policies "
                                       f"bad_agents:{agent},greedy", work)
        assert rc == 2 and words in err and "bad_agents" in err, (agent, err)
    rc, out, err = run_cli(capsys, "simulate yosemite --games 2 --policies "
                                   "bad_pkg.sub:agent,greedy", work)
    assert rc == 2 and "RuntimeError: broken package" in err, err


def test_a_saved_python_opponent_runs_only_when_named_again(capsys, work, tmp_path):
    canary = tmp_path / "canary_agent.py"  # leaves a mark when imported
    mark = tmp_path / "imported"
    canary.write_text(f"open({str(mark)!r}, 'w').close()\n"
                      "def agent(obs, legal):\n    return legal[0]\n")
    save = tmp_path / "save.json"
    save.write_text(json.dumps({"snapsim_play": 2, "game": "yosemite", "players": 2,
                                "seat": 1, "opponents": ["canary_agent:agent"], "seed": 0,
                                "hints": False, "moves": [], "shown": 0}))
    sys.path.insert(0, str(tmp_path))
    try:
        rc, out, err = run_cli(capsys, f"play yosemite --load {save}", work)
        assert_clean_refusal(rc, out, err)
        assert "--opponents canary_agent:agent" in err and not mark.exists()
        rc, out, err = run_cli(capsys, f"play yosemite --load {save} --opponents "
                                       "canary_agent:agent", work, limit=0)
        assert mark.exists()  # named on the command line: imported, and the game goes on
    finally:
        sys.path.remove(str(tmp_path))


# ---------------------------------------------------------------- the Python API


def _api_cases(work: Path):
    import snapsim
    from snapsim.games.snapshot.advisor import advise

    return {
        "policies as a dict": lambda: snapsim.simulate("yosemite", policies={"a": 1}, games=2),
        "config as a dict": lambda: snapsim.simulate("yosemite", config={"players": 2}),
        "components as a list": lambda: snapsim.simulate("yosemite", components=["x"]),
        "components /dev/zero": lambda: snapsim.simulate("yosemite", components="/dev/zero"),
        "components a pipe": lambda: snapsim.simulate("yosemite", components=work / "fifo"),
        "move_timeout as text": lambda: snapsim.simulate("yosemite", move_timeout="x"),
        "variant_set as a list": lambda: snapsim.compare("yosemite", variant_set=["a"]),
        "variant_set as text": lambda: snapsim.compare("yosemite", variant_set="start_fish=3"),
        "variant_set None, no variant": lambda: snapsim.compare("yosemite", variant_set=None),
        "variants, a missing file": lambda: snapsim.compare("yosemite", variants="none.toml"),
        "players as text": lambda: snapsim.compare("yosemite", variant_set={"start_fish": 4},
                                                   players="x"),
        "detect as text": lambda: snapsim.compare("yosemite", variant_set={"start_fish": 4},
                                                  games="auto", detect="x"),
        "ladder policies as a dict": lambda: snapsim.ladder("yosemite", policies={"a": 1}),
        "load None": lambda: snapsim.load(None),
        "load ''": lambda: snapsim.load(""),
        "load a list": lambda: snapsim.load(["a"]),
        "load a plain file": lambda: snapsim.load(work / "foreign.parquet"),
        "load a folder of no run": lambda: snapsim.load(work / "kept"),
        "load /dev/zero": lambda: snapsim.load("/dev/zero"),
        "run out None": lambda: snapsim.run("yosemite", None, games=2),
        "run out a list": lambda: snapsim.run("yosemite", ["x"], games=2),
        "run resume as text": lambda: snapsim.run("yosemite", work / "rr", resume="no"),
        "advise a file path": lambda: advise(str(work / "sit.toml")),
        "advise a list": lambda: advise([1, 2]),
        "advise None": lambda: advise(None),
    }


API_CASES = list(_api_cases(Path(".")))


@pytest.mark.parametrize("case", API_CASES)
def test_bad_api_call_is_one_input_error(work, case):
    from snapsim.errors import InputError

    with pytest.raises(InputError) as info:
        _api_cases(work)[case]()
    assert "\n" not in str(info.value) and "Traceback" not in str(info.value)


def test_a_string_where_a_list_belongs_is_one_entry_not_letters():
    import snapsim

    one = snapsim.simulate("yosemite", policies="greedy", games=3, seed=2)
    assert set(one.policy.astype(str).str.split("#").str[0]) == {"greedy"}
    both = snapsim.simulate("yosemite", policies="greedy,random", games=3, seed=2)
    listed = snapsim.simulate("yosemite", policies=["greedy", "random"], games=3, seed=2)
    assert both.equals(listed)


# ---------------------------------------------------------------- NUL, the play prompt

NUL_LINES = ["play yosemite --save {d}/a\0b", "play yosemite --load {d}/a\0b",
             "advise --load {d}/a\0b", "components check {d}/a\0b", "advise prep {d}/a\0b",
             "simulate snapshot --games 2 --out {d}/a\0b", "sweep {d}/a\0b",
             "simulate snapshot --games 2 --components {d}/a\0b",
             "compare snapshot --games 10 --variant {d}/a\0b",
             "components export snapshot --out {d}/kept/a\0b",
             "rebalance snapshot --target seat_spread=2 --edit start_tokens --out {d}/a\0b"]


@pytest.mark.parametrize("line", NUL_LINES, ids=[line.split("{")[0] for line in NUL_LINES])
def test_a_nul_character_in_any_path_is_one_line_and_writes_nothing(capsys, work, line):
    before = _files(work)
    rc, out, err = run_cli(capsys, line, work)
    assert_clean_refusal(rc, out, err)
    assert "holds a NUL character" in err and _files(work) == before


def _at_the_prompt(*answers) -> tuple[object, str]:
    from snapsim.play import new_session, play

    session, said, given = new_session("yosemite", 2, seed=1), [], iter(answers)

    def read(prompt):
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    assert play(session, read=read, write=said.append) == 0
    return session, "\n".join(said)


def test_only_ascii_digits_choose_a_move_at_the_prompt():
    # int() reads '١' (Arabic-Indic one) as 1 and fails on '²': neither is a move number
    session, said = _at_the_prompt("²", "١", "１", "quit")
    for typed in ("²", "١", "１"):
        assert f"{typed!r} is not a move here: type the number of a move" in said
    assert all(by_policy for _, by_policy in session.moves)  # no move of the seat's played


def test_a_save_path_with_a_nul_typed_at_the_prompt_saves_nothing(work):
    _, said = _at_the_prompt("save", f"{work}/a\0b", "quit")
    assert "not saved: --save holds a NUL character" in said
    assert not any("\0" in p.name for p in work.iterdir())


# ---------------------------------------------------------------- the API names the parameter


@functools.cache
def _game():
    from snapsim.play import new_session

    return new_session("yosemite", 2, seed=0).game


def _param_cases() -> dict:
    import snapsim

    knob = {"variant_set": {"start_fish": 4}}
    return {
        "advise budget": ("budget", lambda: snapsim.advise(_game(), budget="x")),
        "advise seed": ("seed", lambda: snapsim.advise(_game(), seed=-1, rollouts=2)),
        "advise seat": ("seat", lambda: snapsim.advise(_game(), seat="1")),
        "advise rollouts": ("rollouts", lambda: snapsim.advise(_game(), rollouts=0)),
        "compare bootstrap": ("bootstrap", lambda: snapsim.compare("yosemite", bootstrap=0,
                                                                   **knob)),
        "compare smallest text": ("smallest", lambda: snapsim.compare("yosemite", smallest="x",
                                                                      **knob)),
        "compare smallest number": ("smallest", lambda: snapsim.compare("yosemite", smallest=5,
                                                                        **knob)),
        "compare strong_games": ("strong_games", lambda: snapsim.compare(
            "yosemite", strong="tuned", strong_games=-1, **knob)),
        "compare strong_games alone": ("strong_games", lambda: snapsim.compare(
            "yosemite", strong_games=100, **knob)),
        "compare games": ("games", lambda: snapsim.compare("yosemite", games=9, **knob)),
        "compare games auto": ("detect", lambda: snapsim.compare("yosemite", games="auto",
                                                                 **knob)),
        "compare seed": ("seed", lambda: snapsim.compare("yosemite", seed=-1, **knob)),
        "compare seed offset": ("seed", lambda: snapsim.compare("yosemite", seed=2**63 - 1,
                                                                paired=False, **knob)),
        "compare detect": ("detect", lambda: snapsim.compare("yosemite", games="auto",
                                                             detect=1e-300, **knob)),
        "compare restricted": ("restricted", lambda: snapsim.compare("yosemite",
                                                                     restricted="no", **knob)),
        "compare paired": ("paired", lambda: snapsim.compare("yosemite", paired=1, **knob)),
        "compare strong": ("strong", lambda: snapsim.compare("yosemite", strong=5, **knob)),
        "compare tolerances": ("tolerances", lambda: snapsim.compare("yosemite", tolerances=5,
                                                                     **knob)),
        "compare tolerance value": ("seat_spread", lambda: snapsim.compare(
            "yosemite", tolerances={"seat_spread": "x"}, **knob)),
        "compare threads": ("threads", lambda: snapsim.compare("yosemite", threads=0, games=10,
                                                               **knob)),
        "simulate rotate_seats": ("rotate_seats", lambda: snapsim.simulate(
            "yosemite", games=2, rotate_seats="no")),
        "simulate progress": ("progress", lambda: snapsim.simulate("yosemite", games=2,
                                                                   progress="no")),
        "simulate scheduler": ("scheduler", lambda: snapsim.simulate("yosemite", games=2,
                                                                     scheduler=5)),
        "simulate workers": ("workers", lambda: snapsim.simulate("yosemite", games=2,
                                                                 workers=10**6)),
        "simulate move_timeout": ("move_timeout", lambda: snapsim.simulate(
            "yosemite", games=2, move_timeout=-1)),
        "run progress": ("progress", lambda: snapsim.run("yosemite", "unused", games=2,
                                                         progress="x")),
        "run out NUL": ("out", lambda: snapsim.run("yosemite", "a\0b", games=2)),
        "load NUL": ("load", lambda: snapsim.load("a\0b")),
        "advise a save path NUL": ("--load", lambda: snapsim.advise("a\0b")),
        "rebalance targets None": ("targets", lambda: snapsim.rebalance(
            "snapshot", targets=None, edits=["start_tokens"])),
        "rebalance edits a number": ("edits", lambda: snapsim.rebalance(
            "snapshot", targets=["seat_spread=2"], edits=5)),
        "rebalance force as text": ("force", lambda: snapsim.rebalance(
            "snapshot", targets=["seat_spread=2"], edits=["start_tokens"], force="no")),
        "ladder progress": ("progress", lambda: snapsim.ladder("yosemite", games=2,
                                                               progress="x")),
        "compare baseline a number": ("baseline", lambda: snapsim.compare(
            "yosemite", baseline=5, variant_set={"start_fish": 4}, games=10)),
        "compare variant a number": ("variant", lambda: snapsim.compare(
            "yosemite", variants=[5], games=10)),
        "rebalance seed offset": ("seed", lambda: snapsim.rebalance(
            "snapshot", targets=["seat_spread=2"], edits=["start_tokens"], seed=2**63 - 100)),
    }


@pytest.mark.parametrize("case", list(_param_cases()))
def test_a_bad_api_argument_is_one_input_error_naming_the_parameter(case):
    from snapsim.errors import InputError

    param, call = _param_cases()[case]
    with pytest.raises(InputError) as info:
        call()
    message = str(info.value)
    assert param in message and "\n" not in message, message


def test_numpy_integers_are_whole_numbers_in_the_api():
    import numpy as np

    import snapsim

    knob = dict(variant_set={"start_fish": 4}, restricted=False, seed=2)
    by_numpy = snapsim.compare("yosemite", games=np.int64(10), bootstrap=np.int32(100), **knob)
    by_int = snapsim.compare("yosemite", games=10, bootstrap=100, **knob)
    assert by_numpy.table.equals(by_int.table)
    to_move = _game().current_player
    advice = snapsim.advise(_game(), seat=np.int64(to_move + 1), rollouts=np.int64(2),
                            seed=np.uint8(3))
    assert advice.seat == to_move and advice.budget.rollouts == 2


def test_an_assignment_name_holding_a_bracket_is_one_target_item():
    from snapsim.analysis.rebalance.targets import parse_target

    target = parse_target("snapshot", "assignments[Dawn] [Dusk]=2.5")
    assert (target.item, target.high, target.text) == ("Dawn] [Dusk", 2.5,
                                                       "assignments[Dawn] [Dusk]=2.5")
