"""The HTML reports in a real browser (headless Chromium): every figure decodes, the console
shows no error, and a full-page screenshot is kept (in $SNAPSIM_ARTEFACTS, else tmp_path)."""

import shutil
from pathlib import Path

import pytest

from snapsim.cli import main

CHROMIUM = shutil.which("chromium")
DRIVER = "/usr/bin/chromedriver"
REPORTS = Path(__file__).resolve().parent.parent / "reports"
COMMITTED = sorted(REPORTS.glob("*/index.html"))

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                "(pip install '.[test]')")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or not Path(DRIVER).exists(),
    reason="Debian's chromium and chromium-driver are not installed "
           "(apt-get install -y chromium chromium-driver)")


def chromium(profile: Path, size: str, logs: bool = False):
    """Headless Chromium at a window `size` ("W,H"), its profile in `profile`, keeping the
    console log when `logs`."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", f"--window-size={size}",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    if logs:
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                            options=opts)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"), "1100,900", logs=True)
    yield driver
    driver.quit()


def check_page(driver, page: Path, shot: Path) -> None:
    """Open `page`: every <img> decodes, no SEVERE console message; save a full-page
    screenshot to `shot`."""
    driver.get_log("browser")  # drop what earlier pages left
    driver.get(page.resolve().as_uri())
    images = driver.execute_script(
        "return Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth])")
    assert images, f"{page} shows no figure"
    broken = [alt for alt, done, width in images if not done or width == 0]
    assert not broken, f"{page}: figures that do not decode: {broken}"
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"{page}: console errors: {errors}"
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1100, min(int(height) + 100, 16000))
    driver.save_screenshot(str(shot))
    driver.set_window_size(1100, 900)
    assert shot.stat().st_size > 10_000


@pytest.mark.parametrize("page", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_committed_report_in_a_browser(browser, artefacts, page):
    check_page(browser, page, artefacts / f"report-{page.parent.name}.png")


def test_fresh_report_in_a_browser(browser, artefacts, tmp_path):
    out = tmp_path / "report"
    assert main(["report", "snapshot", "--quick", "--studies", "seats,cards,raccoon",
                 "--out", str(out), "--quiet"]) == 0
    check_page(browser, out / "index.html", artefacts / "report-fresh-snapshot.png")
