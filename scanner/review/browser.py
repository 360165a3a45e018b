"""A headless Chromium driven by Selenium, for the review page's browser tests and screenshots.

The browser is Debian's ``chromium`` with ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``), installed by ``make setup`` where apt is available and it runs as
root; nothing is ever downloaded at run time (Selenium Manager is kept offline). Chromium
starts with :data:`CHROMIUM_FLAGS` and a fresh profile directory: on a machine without
internet access, Chromium without them stalls on its background network services.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")
"""Chromium flags: headless, no sandbox (root in a container), and no background network
services (component updates, sync, QUIC), which stall where there is no internet."""
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver",)


def find_browser() -> tuple[str, str] | None:
    """``(browser, driver)`` paths, or None when either is missing.

    ``$CONTRASCAN_CHROMIUM`` and ``$CONTRASCAN_CHROMEDRIVER`` override the search of ``PATH``
    and ``/usr/bin`` (Debian's ``chromium`` and ``chromium-driver`` packages).
    """
    def first(env: str, names: tuple[str, ...]) -> str | None:
        given = os.environ.get(env)
        if given:
            return given if Path(given).is_file() else None
        for name in names:
            found = shutil.which(name) or (f"/usr/bin/{name}"
                                           if Path(f"/usr/bin/{name}").is_file() else None)
            if found:
                return found
        return None

    browser = first("CONTRASCAN_CHROMIUM", BROWSERS)
    driver = first("CONTRASCAN_CHROMEDRIVER", DRIVERS)
    return (browser, driver) if browser and driver else None


def missing_reason() -> str | None:
    """Why no browser can run here (None when one can): for a test's skip message."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'contrascan[test]')"
    if find_browser() is None:
        return ("no chromium + chromedriver found (Debian: apt-get install chromium "
                "chromium-driver; `make setup` does it when run as root with apt)")
    return None


@contextmanager
def chromium(*, width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A Selenium ``webdriver.Chrome`` on the system Chromium, closed afterwards.

    Args:
        width, height: the window size in CSS pixels (screenshots have this size).

    Yields:
        The driver (page loads time out after 60 s).

    Raises:
        RuntimeError: no browser or driver (see :func:`missing_reason`).
    """
    reason = missing_reason()
    if reason is not None:
        raise RuntimeError(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    browser, driver_path = find_browser()  # type: ignore[misc]
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager: never download
    profile = tempfile.mkdtemp(prefix="contrascan-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=options, service=DriverService(executable_path=driver_path))
    try:
        driver.set_page_load_timeout(60)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
