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


def _click(driver, label: str, wait: float = 60) -> None:
    """Click the button or option whose label is `label`."""
    WebDriverWait(driver, wait).until(EC.element_to_be_clickable(
        (By.XPATH, f"//button[normalize-space(.)={label!r}] | "
                   f"//label[normalize-space(.)={label!r}]"))).click()


def _type(driver, label: str, value: str) -> None:
    """Type into the number box labelled `label` and commit it (Enter)."""
    box = WebDriverWait(driver, 60).until(EC.element_to_be_clickable(
        (By.CSS_SELECTOR, f"input[aria-label={label!r}]")))
    box.send_keys("\b" * 12 + value + "\n")


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


def test_the_workbench_compares_an_uploaded_spreadsheet(server, browser, artefacts, tmp_path):
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
    _click(browser, "upload")
    WebDriverWait(browser, 60).until(EC.presence_of_element_located(
        (By.CSS_SELECTOR, "input[type=file]"))).send_keys(str(variant))
    _text(browser, "atlantic puffin: prestige 2 → 9", 120)
    _type(browser, "Paired games per side", "40")
    _click(browser, "Compare with the standard game")
    verdict = _text(browser, "is variant better balanced at 4 players?", RUN_S)
    assert "40 paired games per side" in browser.find_element(By.TAG_NAME, "body").text
    assert verdict.is_displayed()
    _shot(browser, artefacts / "workbench-compare.png")
