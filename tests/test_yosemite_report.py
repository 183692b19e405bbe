"""The Yosemite report builds from seeded runs, every section with findings and figures."""

import json

import pytest

from snapsim.errors import InputError
from snapsim.games.yosemite.report import STUDIES, build


def test_report_sections_build(tmp_path):
    names = [n for n in STUDIES if n != "policies"]  # the search player is slow
    index = build(tmp_path, games=40, seed=3, studies=names, progress=False, strong="random")
    assert index.exists()
    sections = sorted((tmp_path / "sections").glob("*.json"))
    assert len(sections) == len(names)
    for path in sections:
        meta = json.loads(path.read_text())
        assert meta["findings"] and meta["figures"]
        for fig in meta["figures"]:
            assert (tmp_path / f"{fig}.png").stat().st_size < 80_000


@pytest.mark.parametrize("kw,needle", [({"studies": ["nope"]}, "nope"), ({"games": 5}, "games")])
def test_report_bad_input(tmp_path, kw, needle):
    with pytest.raises(InputError, match=needle):
        build(tmp_path, **{"games": 40, **kw})


def test_a_variants_landmarks_are_the_ones_its_report_names(tmp_path):
    """The landmark study reads the names of the report's own component file (a variant),
    not the bundled set's."""
    from snapsim.sim.component_files import export_bytes

    variant = tmp_path / "variant.toml"
    variant.write_bytes(export_bytes("yosemite", "toml").replace(b'"Yosemite Valley"',
                                                                 b'"Tenaya Lake"'))
    build(tmp_path / "out", games=40, seed=3, studies=["landmarks"], progress=False,
          strong="random", components=variant)
    (section,) = (tmp_path / "out" / "sections").glob("*.json")
    text = section.read_text()
    assert "Tenaya Lake" in text and "Yosemite Valley" not in text
