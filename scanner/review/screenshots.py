"""Screenshots of the review page in a real browser: ``make review-screenshots`` or
``python -m scanner.review.screenshots [--out DIR]``.

Starts an embedded Weaviate in a temporary directory, imports the sample memories
(:mod:`scanner.review.sample`) for two users, batch-scans them, serves the sidecar app on a
free loopback port (with an API key, as a deployment would) and drives the system Chromium
(:mod:`scanner.review.browser`) through the login form. Writes, under ``--out`` (default
``results/review/<UTC time>/``):

* ``inbox-1280.png``, ``inbox-760.png``: the inbox filtered to one user, at each of
  :data:`WIDTHS` (CSS pixels; the window grows to the page's height, so the picture is the
  whole page);
* ``item-1280.png``, ``item-760.png``: the escalated item, with both memories (the recommended
  one first), the reason in words, the question and the actions, each explained;
* ``item-after.png``: the same item after "this one is current" (1280 px);
* ``ledger.json``: what each action wrote to the ledger, by action (``current`` on the
  escalation, ``both_true`` on the epoch change, ``dismiss`` on the tie; each list is the
  ``POST /v1/reviews`` answer's ``ledger``).

Prints the paths. Exit code 1 with a one-line reason when no browser is installed, or when a
button of a page lies outside the window at one of the widths (:attr:`Shot.clipped`; the
screenshots are written first).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

PAGE_WIDTH = 1280
PAGE_HEIGHT = 900
WIDTHS = (1280, 760)
"""Window widths in CSS pixels the pages are photographed and measured at: a laptop and a
narrow window (issue 35, item 6: at 760 px the action buttons were cut off)."""
MAX_HEIGHT = 8000
"""Tallest window in CSS pixels a screenshot grows to (a longer page is cut there)."""


def login(driver: Any, base_url: str, reviewer: str, api_key: str | None) -> None:
    """Log in through the form (the inbox is shown afterwards)."""
    from selenium.webdriver.common.by import By

    driver.get(f"{base_url}/review")
    driver.find_element(By.ID, "reviewer-name").send_keys(reviewer)
    if api_key is not None:
        driver.find_element(By.ID, "api-key").send_keys(api_key)
    driver.find_element(By.CSS_SELECTOR, "#login button[type=submit]").click()
    wait_for(driver, lambda: driver.find_elements(By.ID, "filters"), "the inbox")


def wait_for(driver: Any, condition: Any, what: str, timeout_s: float = 30.0) -> Any:
    """Poll ``condition()`` until it is truthy; its value (raises TimeoutError naming
    ``what``)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"{what} did not appear within {timeout_s:.0f} s ({driver.current_url})")


def _alert(driver: Any) -> Any:
    from selenium.common.exceptions import NoAlertPresentException

    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


def item_url(base_url: str, user_id: str, entry_id: str) -> str:
    """The page of one item."""
    return (f"{base_url}/review/items/{quote(entry_id, safe='')}?"
            f"{urlencode({'user_id': user_id})}")


@dataclass(frozen=True)
class Shot:
    """One page as the window showed it.

    Attributes:
        path: the PNG (None when only measured).
        width, height: the window's viewport in CSS pixels (the PNG's size: device scale 1).
        page_width: the document's width in CSS pixels (more than ``width``: the page
            scrolls sideways).
        buttons: every ``<button>`` of the page: ``{"label", "left", "top", "right",
            "bottom"}``, its bounding box in CSS pixels from the viewport's top left corner.
    """

    path: Path | None
    width: int
    height: int
    page_width: int
    buttons: tuple[dict[str, Any], ...]

    @property
    def clipped(self) -> list[str]:
        """Labels of the buttons not wholly inside the viewport (or drawn with no size)."""
        return [b["label"] for b in self.buttons
                if b["left"] < 0 or b["top"] < 0 or b["right"] > self.width
                or b["bottom"] > self.height or b["right"] <= b["left"]
                or b["bottom"] <= b["top"]]


_MEASURE = """return {width: document.documentElement.clientWidth,
  height: document.documentElement.clientHeight,
  pageWidth: document.documentElement.scrollWidth,
  buttons: Array.from(document.querySelectorAll('button')).map(function (b) {
    var r = b.getBoundingClientRect();
    return {label: b.textContent.trim(), left: r.left, top: r.top, right: r.right,
            bottom: r.bottom}; })};"""


def set_viewport(driver: Any, width: int, height: int) -> None:
    """Size the window so that its viewport is ``width`` x ``height`` CSS pixels (the window's
    frame, if any, added)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight];")
    if (inner[0], inner[1]) != (width, height):
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def shoot(driver: Any, path: Path | None, width: int) -> Shot:
    """The page now loaded at ``width`` CSS pixels, the window grown to the page's height
    (at least :data:`PAGE_HEIGHT`, at most :data:`MAX_HEIGHT`): measured, and saved to
    ``path`` as a PNG unless None. Scrolls to the top first."""
    driver.execute_script("window.scrollTo(0, 0);")
    height = PAGE_HEIGHT
    for _ in range(3):  # a scroll bar that comes or goes reflows the page once more
        set_viewport(driver, width, height)
        tallest = min(max(int(driver.execute_script(
            "return document.documentElement.scrollHeight;")), PAGE_HEIGHT), MAX_HEIGHT)
        if tallest == height:
            break
        height = tallest
    seen = driver.execute_script(_MEASURE)
    if path is not None:
        driver.save_screenshot(str(path))
    return Shot(path=path, width=int(seen["width"]), height=int(seen["height"]),
                page_width=int(seen["pageWidth"]), buttons=tuple(seen["buttons"]))


def capture(driver: Any, base_url: str, out_dir: Path, *, user_id: str, entry_id: str,
            widths: tuple[int, ...] = WIDTHS) -> dict[str, Shot]:
    """Screenshots of the inbox filtered to ``user_id`` and of one item (logged in already),
    at each width; the window is given back its size afterwards.

    Returns:
        ``{"inbox-1280": shot, "item-1280": shot, "inbox-760": shot, …}``, the PNGs under
        ``out_dir`` named after the keys.
    """
    from selenium.webdriver.common.by import By

    out_dir.mkdir(parents=True, exist_ok=True)
    before = driver.get_window_size()
    shots: dict[str, Shot] = {}
    try:
        for width in widths:
            driver.get(f"{base_url}/review?{urlencode({'user_id': user_id})}")
            wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "tr.item"),
                     "inbox rows")
            shots[f"inbox-{width}"] = shoot(driver, out_dir / f"inbox-{width}.png", width)
            driver.get(item_url(base_url, user_id, entry_id))
            wait_for(driver, lambda: driver.find_elements(By.ID, "members"), "the item")
            shots[f"item-{width}"] = shoot(driver, out_dir / f"item-{width}.png", width)
    finally:
        driver.set_window_size(before["width"], before["height"])
    return shots


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """The app under uvicorn on a free loopback port, in a thread; yields its base URL."""
    import uvicorn

    from scanner.store.server import free_port

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws="none",
                                           lifespan="on", log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if not server.started:
        raise RuntimeError("the sidecar did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def run(out_dir: Path) -> dict[str, Path]:
    """Everything the module docstring lists; returns the written paths by name.

    Raises:
        RuntimeError: no browser (see :func:`scanner.review.browser.missing_reason`).
    """
    from pydantic import SecretStr
    from selenium.webdriver.common.by import By

    from scanner.api import ApiSettings, create_app
    from scanner.engine import Engine
    from scanner.core.policy_config import PolicyConfig
    from scanner.review.browser import chromium, missing_reason
    from scanner.review.sample import SAFETY_RELATIONS, sample_records
    from scanner.review.service import ReviewService
    from scanner.scan import ScanConfig
    from scanner.service import Service
    from scanner.store import server
    from scanner.store.wiring import weaviate_stores

    reason = missing_reason()
    if reason is not None:
        raise RuntimeError(reason)
    key = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory(prefix="contrascan-review-") as data:
        port, grpc_port = server.free_ports()
        client = server.connect_embedded(Path(data), port=port, grpc_port=grpc_port)
        try:
            engine = Engine(ScanConfig(policy=PolicyConfig(safety_relations=SAFETY_RELATIONS)))
            service = Service(weaviate_stores(client, "ReviewScreenshots"), engine=engine)
            users = ["potter-1", "potter-2"]
            for user in users:
                service.import_records(sample_records(user))
                service.batch_scan(user)
            items = ReviewService(service).inbox(users[0]).items
            escalated = next(e for e in items if e.verdict == "escalated")
            epoch_change = next(e for e in items if e.verdict == "epoch_change")
            tie = next(e for e in items if e.rule == "tie")
            app = create_app(service, settings=ApiSettings(api_key=SecretStr(key)))
            with serve(app) as base_url, chromium(width=PAGE_WIDTH,
                                                  height=PAGE_HEIGHT) as driver:
                login(driver, base_url, "ana", key)
                shots = capture(driver, base_url, out_dir, user_id=users[0],
                                entry_id=escalated.entry_id)
                paths: dict[str, Path] = {name: shot.path for name, shot in shots.items()
                                          if shot.path is not None}
                driver.get(item_url(base_url, users[0], escalated.entry_id))
                keep = (escalated.recommended or {}).get("keep") or escalated.members[0]
                chosen = {"current": keep}
                steps = [("current", escalated, f"form.action-current[data-member='{keep}']"),
                         ("both_true", epoch_change, "form.action-both_true"),
                         ("dismiss", tie, "form.action-dismiss")]
                for action, item, form in steps:
                    if item is not escalated:
                        driver.get(item_url(base_url, users[0], item.entry_id))
                        wait_for(driver, lambda: driver.find_elements(By.ID, "members"),
                                 "the item")
                    driver.find_element(By.CSS_SELECTOR, f"{form} button").click()
                    wait_for(driver, lambda: _alert(driver), "the confirmation").accept()
                    wait_for(driver, lambda: driver.find_elements(By.ID, "done"), "the outcome")
                    if item is escalated:
                        after = out_dir / "item-after.png"
                        shoot(driver, after, PAGE_WIDTH)
                        paths["item-after"] = after
            written = {}
            for action, item, _ in steps:  # each already reviewed: read back, nothing written
                outcome = ReviewService(service).act(users[0], item.entry_id, action, "ana",
                                                     chosen=chosen.get(action))
                if not outcome.already:
                    raise RuntimeError(f"the page did not record '{action}'")
                written[action] = [e.to_json_dict() for e in outcome.ledger]
            ledger = out_dir / "ledger.json"
            ledger.write_text(json.dumps(written, indent=2, ensure_ascii=False) + "\n")
            paths["ledger"] = ledger
            clipped = {name: shot.clipped for name, shot in shots.items() if shot.clipped}
            if clipped:
                raise RuntimeError("buttons outside the window: " + "; ".join(
                    f"{name}: {', '.join(labels)}" for name, labels in clipped.items()))
            return paths
        finally:
            client.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m scanner.review.screenshots [--out DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m scanner.review.screenshots",
        description="Screenshots of the review inbox and of one item, taken with the system "
                    "Chromium. Example: python -m scanner.review.screenshots --out "
                    "results/review/now")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    parser.add_argument("--out", type=Path, default=Path("results") / "review" / stamp,
                        help="directory to write into (default results/review/<UTC time>)")
    args = parser.parse_args(argv)
    try:
        paths = run(args.out)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for name, path in paths.items():
        print(f"{name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
