"""The workbench in a real browser (headless Chromium): `snapsim app` started on a free port,
the Balance page loaded, a tiny compare of an uploaded spreadsheet run on the Edit page.
Screenshots are kept in $SNAPSIM_ARTEFACTS, else tmp_path (docs/images holds the ones the
docs show)."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from snapsim.sim.component_files import export_bytes

pytest.importorskip("streamlit", reason="the workbench's extra is not installed "
                    "(pip install '.[app]')")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                "(pip install '.[test]')")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from test_browser import chromium, pytestmark  # noqa: E402, F401 (skips without one)

START_S = 120  # the server answering its health check
RUN_S = 420  # a page's answer, kernels compiled on first use included


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """`snapsim app --no-browser` on a free port, writing under tmp_path; killed at the end,
    whatever happened."""
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "snapsim", "app", "--no-browser",
                             "--port", str(port), "--out", str(tmp_path / "out")],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_S
        while True:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"snapsim app did not start: "
                                f"{(tmp_path / 'server.log').read_text()}")
                time.sleep(0.5)
        yield url
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        log.close()


@pytest.fixture
def browser(tmp_path):
    driver = chromium(tmp_path / "chromium-profile", "1300,1000")
    yield driver
    driver.quit()


def _text(driver, words: str, wait: float):
    """The first element showing `words`, once the page shows it."""
    return WebDriverWait(driver, wait).until(EC.visibility_of_element_located(
        (By.XPATH, f"//*[not(self::script)][text()[contains(., {words!r})]]")))


def _act(driver, locator, act, wait: float = 60, ready=EC.element_to_be_clickable):
    """Find the element at `locator` once it is ready and `act` on it; found again if a
    rerun replaced it in between (Streamlit redraws a widget after each run)."""
    def attempt(d):
        element = ready(locator)(d)
        if not element:
            return False
        act(element)
        return True
    WebDriverWait(driver, wait, ignored_exceptions=(StaleElementReferenceException,)
                  ).until(attempt)


def _click(driver, label: str, wait: float = 60) -> None:
    """Click the button or option whose label is `label`."""
    _act(driver, (By.XPATH, f"//button[normalize-space(.)={label!r}] | "
                            f"//label[normalize-space(.)={label!r}]"),
         lambda element: element.click(), wait)


def _type(driver, label: str, value: str) -> None:
    """Type into the number box labelled `label` and commit it (Enter)."""
    _act(driver, (By.CSS_SELECTOR, f"input[aria-label={label!r}]"),
         lambda box: box.send_keys("\b" * 12 + value + "\n"))


def _shot(driver, path: Path) -> None:
    """A screenshot of the whole page (the main column scrolls, not the window)."""
    time.sleep(3)  # the last rerun's fade-out, the tables drawing their cells
    height = driver.execute_script(
        "const m = document.querySelector('[data-testid=\"stMain\"]');"
        "return m ? m.scrollHeight : document.body.scrollHeight")
    driver.set_window_size(1300, min(max(int(height) + 80, 1000), 6000))
    time.sleep(3)  # the tables drawn again at the new size
    driver.save_screenshot(str(path))
    driver.set_window_size(1300, 1000)
    assert path.stat().st_size > 10_000


def _choose(driver, label: str, option: str) -> None:
    """Choose `option` in the select box labelled `label` (typed, then Enter)."""
    def choose(box):
        box.click()
        box.send_keys(option + "\n")
    _act(driver, (By.XPATH, f"//div[@data-testid='stSelectbox'][.//label[normalize-space(.)="
                            f"{label!r}]]//input"), choose)


def _upload(driver, page: str, path: Path) -> None:
    """Choose "upload" as the component file on the page whose widget keys start `page`,
    and give it `path` (by key: a page left behind may still be drawn while the next one
    runs)."""
    _act(driver, (By.XPATH, f"//div[contains(@class, 'st-key-{page}-src')]"
                            "//label[normalize-space(.)='upload']"),
         lambda element: element.click())
    _act(driver, (By.CSS_SELECTOR, f".st-key-{page}-file input[type=file]"),
         lambda element: element.send_keys(str(path)), ready=EC.presence_of_element_located)


def _verdict(text: str) -> list[str]:
    """A comparison's verdict lines: each "is X better balanced ...?" with its before and
    after lines."""
    lines = text.splitlines()
    head = [i for i, line in enumerate(lines) if " better balanced at " in line]
    return [line.strip() for i in head for line in lines[i:i + 3]]


def _shown_verdict(driver, label: str, players: int) -> list[str]:
    """The verdict the Edit page shows for the variant `label`, once it is shown."""
    _text(driver, f"is {label} better balanced at {players} players?", RUN_S)
    shown: list[str] = []
    _act(driver, (By.XPATH, "//code[contains(., ' better balanced at ')]"),
         lambda code: shown.extend(_verdict(code.get_attribute("textContent"))),
         ready=EC.presence_of_element_located)
    return shown


def _cli_verdict(variant: Path, players: int, out: Path, capsys) -> list[str]:
    """What `snapsim compare snapshot --variant FILE` says of the same file."""
    from snapsim.cli import main

    capsys.readouterr()
    assert main(["compare", "snapshot", "--variant", str(variant), "--players", str(players),
                 "--games", "40", "--seed", "1", "--out", str(out), "--quiet"]) == 0
    return _verdict(capsys.readouterr().out)


@pytest.mark.slow  # the pages' code paths: tests/test_app.py drives each headless
def test_a_designers_round_trip_from_an_uploaded_spreadsheet(server, browser, artefacts,
                                                              tmp_path, capsys):
    """Balance; an edited spreadsheet uploaded and compared; a rebalance from it at a tiny
    budget, its patch downloaded and opened in Edit, compared again: each verdict is the
    one `snapsim compare --variant` gives of the same file, word for word."""
    downloads = tmp_path / "downloads"
    browser.execute_cdp_cmd("Page.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(downloads)})
    browser.get(server)
    _text(browser, "Is the game balanced?", START_S)
    _type(browser, "Games per player count", "60")
    _click(browser, "Run")
    _text(browser, "Win rate by seat", RUN_S)
    _shot(browser, artefacts / "workbench-balance.png")

    variant = tmp_path / "puffin.csv"
    variant.write_bytes(export_bytes("snapshot", "csv").replace(
        b"atlantic puffin,Shoreline,4,2,", b"atlantic puffin,Shoreline,4,9,"))
    _click(browser, "Edit and compare")
    _text(browser, "Edit any cell", 120)  # the Edit page, not Balance's own upload choice
    _upload(browser, "ed", variant)
    _text(browser, "atlantic puffin: prestige 2 → 9", 120)
    _type(browser, "Paired games per side", "40")
    _click(browser, "Compare with the standard game")
    shown = _shown_verdict(browser, "puffin", 4)
    assert "40 paired games per side" in browser.find_element(By.TAG_NAME, "body").text
    _shot(browser, artefacts / "workbench-compare.png")
    assert shown == _cli_verdict(variant, 4, tmp_path / "cli-upload", capsys)

    _click(browser, "Rebalance")
    _text(browser, "What may change", 120)
    _upload(browser, "rb", variant)
    _text(browser, "atlantic puffin: prestige 2 → 9", 120)
    _click(browser, "Also under the tuned players (the command's default; slower)")
    _type(browser, "Budget: candidates", "3")
    _type(browser, "Games per candidate (0: chosen from the noise)", "40")
    _click(browser, "Search")
    _click(browser, "Download the patch (TOML)", RUN_S)
    patch = downloads / "patch.toml"
    WebDriverWait(browser, 60).until(lambda _: patch.exists())
    assert "atlantic puffin" in patch.read_text()  # the upload's change, carried on
    _shot(browser, artefacts / "workbench-rebalance.png")
    _click(browser, "Open in Edit")
    _text(browser, "Edit any cell", 120)
    _choose(browser, "Players", "2")
    _type(browser, "Paired games per side", "40")
    _click(browser, "Compare with the standard game")
    assert _shown_verdict(browser, "patch", 2) == _cli_verdict(patch, 2, tmp_path / "cli-patch",
                                                               capsys)
