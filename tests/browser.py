"""What the browser tests of both games share: Debian's Chromium driven through its chromedriver
by Selenium, the service on a free loopback port, and the rule that under CI a missing browser
is a failure, never a silent skip (.ci/run installs chromium and chromium-driver).

tests/conftest.py offers the fixtures ``server`` and ``browser`` to every test; a test module
imports Selenium's names from here (``from browser import By, Keys, WebDriverWait``).
"""
import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - the test extra installs selenium; the fixtures then say so
    webdriver = Service = By = Keys = EC = WebDriverWait = None

from scoundrel_solver.web.local import LocalServer  # noqa: E402

__all__ = ["By", "CHROMIUM", "DRIVER", "EC", "Keys", "WebDriverWait", "browser", "need", "server"]


def need(what: str):
    """Skip for ``what`` is missing - or fail, under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI must run the browser test: .ci/run installs chromium and chromium-driver)")
    pytest.skip(what)


@pytest.fixture(scope="module")
def server():
    """The service (one solver worker) on a free loopback port, for the module's tests."""
    if webdriver is None:
        need("selenium is not installed (pip install -e '.[test]')")
    if not (CHROMIUM and DRIVER):
        need("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    with LocalServer(["--workers", "1"]) as s:
        yield s


@pytest.fixture(scope="module")
def browser(server):
    """Headless Chromium, 1280 x 1000 to start with."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
