"""The hint examples of docs/move-quality.md are the code's own output: each block marked
`<!-- hint example: GAME SEED ROLLOUTS PHASE -->` is what `snapsim play GAME --seed SEED
--hint-rollouts ROLLOUTS` prints when `hints` is typed at the seat's first decision in PHASE
(the seat's earlier decisions answered with the built-in policy's move), regenerated here and
compared line by line, so a number in the docs cannot drift. With SNAPSIM_WRITE_DOCS=1 the
test writes the blocks instead (and fails, so a run that rewrote them is never a pass)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from snapsim.play import choices, new_session, play
from snapsim.play.wins import Budget

DOC = Path(__file__).resolve().parents[1] / "docs" / "move-quality.md"
MARK = re.compile(r"<!-- hint example: (\w+) (\d+) (\d+) ([\w:]+) -->\n```text\n(.*?)```",
                  re.S)


def screen_hints(game: str, seed: int, rollouts: int, phase: str) -> str:
    """What the play screen prints for `hints` at the seat's first decision whose phase
    starts with `phase` (spaces left out) with a choice to make: the hints block."""
    session = new_session(game, seed=seed)
    session.budget = Budget.of(rollouts=rollouts)
    answers, out = [], []  # once the seat reaches the phase: hints, quit, do not save

    def read(_prompt):
        g = session.game
        if not answers and g.phase.replace(" ", "").startswith(phase) and len(choices(g)) > 1:
            answers.extend(["hints", "quit", ""])
        if answers:
            return answers.pop(0) if len(answers) > 1 else answers[0]
        greedy = int(g.policy_action())
        return str(next(i for i, (chosen, _) in enumerate(choices(g), 1)
                        if chosen[0] == greedy))

    play(session, read, out.append)
    block = next(text for text in out if text.startswith("hints:"))
    return block + "\n"


def test_the_docs_hint_examples_are_the_codes_output():
    text = DOC.read_text()
    found = list(MARK.finditer(text))
    assert len(found) >= 2  # Yosemite's first decision and a Snapshot preparation
    wants = [screen_hints(m[1], int(m[2]), int(m[3]), m[4]) for m in found]
    cuts = [0, *(i for m in found for i in m.span(5)), len(text)]
    kept = [text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
    fresh = kept[0] + "".join(w + k for w, k in zip(wants, kept[1:], strict=True))
    if os.environ.get("SNAPSIM_WRITE_DOCS") == "1":
        DOC.write_text(fresh)
        raise AssertionError("docs/move-quality.md written: run again without "
                             "SNAPSIM_WRITE_DOCS")
    for m, now in zip(found, MARK.finditer(fresh), strict=True):
        assert m[5] == now[5], f"{m[1]} {m[2]}: the docs' example is not the code's output"
