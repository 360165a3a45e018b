"""The review page in a real browser (issue 17): Debian's Chromium driven by Selenium against
the sidecar served by uvicorn over a real Weaviate.

The browser is installed by ``make setup`` (as root, where apt-get exists); these tests skip,
saying why, only where none is found (:func:`scanner.review.browser.missing_reason`).
"""

from __future__ import annotations

import struct
import uuid
from urllib.parse import urlencode

import pytest
from pydantic import SecretStr

from scanner.api import ApiSettings, create_app
from scanner.narration import RULE_WORDS
from scanner.review import browser, screenshots
from scanner.review.decisions import review_entry_id, review_record_id
from scanner.review.sample import MARKUP_ONERROR, MARKUP_SCRIPT, PAIRS
from scanner.review.sample import sample_records
from scanner.review.service import ReviewService
from scanner.service import Service
from tests.integration.conftest import review_engine, scoped_service

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(browser.missing_reason() is not None,
                                 reason=f"no browser: {browser.missing_reason()}")]
KEY = "browser-k3y"


@pytest.fixture(scope="module")
def service(weaviate_server, extractor):
    with scoped_service(weaviate_server, review_engine(extractor), "ReviewUi") as svc:
        yield svc


@pytest.fixture(scope="module")
def base_url(service):
    app = create_app(service, settings=ApiSettings(api_key=SecretStr(KEY)), warm_up=False)
    with screenshots.serve(app) as url:
        yield url


@pytest.fixture(scope="module")
def driver(base_url):
    from selenium.common.exceptions import WebDriverException

    try:
        with browser.chromium() as started:
            screenshots.login(started, base_url, "alice", KEY)
            yield started
    except WebDriverException as err:  # installed but cannot start: say so, loudly
        pytest.fail(f"chromium is installed but did not start: {err.msg}")


def seeded(service: Service, prefix: str) -> tuple[str, dict[tuple[str, str], str]]:
    user = f"{prefix}-{uuid.uuid4().hex[:8]}"
    service.import_records(sample_records(user))
    service.batch_scan(user)
    items = {tuple(e.members): e.entry_id for e in ReviewService(service).inbox(user).items}
    assert set(items) == set(PAIRS)
    return user, items


def statuses(service: Service, user: str) -> dict[str, str]:
    return {m.record.id: m.status for m in service.store.iterate(user)}


def by_css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def open_item(driver, base_url: str, user: str, entry: str) -> None:
    driver.get(screenshots.item_url(base_url, user, entry))
    screenshots.wait_for(driver, lambda: by_css(driver, "#members"), "the item")


def act(driver, selector: str, *, accept: bool = True) -> None:
    """Click an action button and answer its confirmation."""
    by_css(driver, selector)[0].click()
    alert = screenshots.wait_for(driver, lambda: _alert(driver), "the confirmation")
    if accept:
        alert.accept()
        screenshots.wait_for(driver, lambda: by_css(driver, "#done") or by_css(driver, "#error"),
                             "the outcome")
    else:
        alert.dismiss()


def _alert(driver):
    from selenium.common.exceptions import NoAlertPresentException

    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


def shown_status(driver) -> str:
    return by_css(driver, "#status")[0].get_attribute("data-status")


def test_inbox_filter_and_the_three_actions(driver, base_url, service):
    user, items = seeded(service, "ui")
    other, other_items = seeded(service, "ui-other")

    # the inbox of every user lists both; the user filter shows one user's items only
    driver.get(f"{base_url}/review")
    shown = {r.get_attribute("data-entry") for r in by_css(driver, "tr.item")}
    assert set(items.values()) | set(other_items.values()) <= shown
    from selenium.webdriver.support.ui import Select

    Select(by_css(driver, "#filter-user")[0]).select_by_value(user)
    by_css(driver, "#apply-filters")[0].click()
    screenshots.wait_for(driver, lambda: f"user_id={user}" in driver.current_url, "filter")
    rows = by_css(driver, "tr.item")
    assert {r.get_attribute("data-user") for r in rows} == {user}
    assert {r.get_attribute("data-entry") for r in rows} == set(items.values())
    assert by_css(driver, "#total")[0].text == str(len(PAIRS))
    assert not any(e in driver.page_source for e in other_items.values())
    Select(by_css(driver, "#filter-verdict")[0]).select_by_value("escalated")
    by_css(driver, "#apply-filters")[0].click()
    screenshots.wait_for(driver, lambda: "verdict=escalated" in driver.current_url, "filter")
    assert [r.get_attribute("data-entry") for r in by_css(driver, "tr.item")] == [
        items[("timeout-1", "timeout-2")]]

    # settle one: "this one is current" on the quarantine for missing provenance
    entry = items[("work-1", "work-2")]
    open_item(driver, base_url, user, entry)
    before = service.ledger.count(user)
    act(driver, ".action-current[data-member='work-2'] button", accept=False)
    assert shown_status(driver) == "open" and service.ledger.count(user) == before
    act(driver, ".action-current[data-member='work-2'] button")
    assert by_css(driver, "#done")[0].get_attribute("data-done") == "current"
    assert shown_status(driver) == "settled"
    record = review_record_id(entry)
    stored = service.ledger.fetch(user, [entry, review_entry_id(user, entry)])
    quarantine, review = stored[entry], stored[review_entry_id(user, entry)]
    settlement = service.ledger.fetch(user, [quarantine.settled_by])[quarantine.settled_by]
    assert (quarantine.status, review.data["reviewer"], review.settler) == (
        "settled", "alice", record)
    assert (settlement.entry_type, settlement.settler, settlement.superseded) == (
        "settlement", record, ["work-1"])
    now = statuses(service, user)
    assert (now["work-1"], now["work-2"], now[record]) == ("superseded", "active", "active")
    written = service.store.get(user, record).record
    assert (written.source, written.source_class.value, written.epoch) == (
        "review:alice", "user", "studio-v3")
    # a second submission for an item already reviewed (here: a page opened before an
    # agent answered through the API) writes nothing more
    entry = items[("timeout-1", "timeout-2")]
    open_item(driver, base_url, user, entry)
    import httpx

    answer = httpx.post(f"{base_url}/v1/reviews", headers={"X-API-Key": KEY}, json={
        "user_id": user, "entry_id": entry, "action": "current", "chosen": "timeout-1",
        "reviewer": "agent-7"}, timeout=120).json()
    assert answer["already"] is False and answer["item"]["status"] == "settled"
    count = service.ledger.count(user)
    act(driver, ".action-current[data-member='timeout-2'] button")
    assert by_css(driver, "#done")[0].get_attribute("data-done") == "already"
    assert service.ledger.count(user) == count
    assert service.ledger.fetch(user, [review_entry_id(user, entry)])[
        review_entry_id(user, entry)].data["reviewer"] == "agent-7"
    open_item(driver, base_url, user, items[("work-1", "work-2")])
    # history names the reviewer
    by_css(driver, "li.member[data-member='work-1'] a.history")[0].click()
    screenshots.wait_for(driver, lambda: by_css(driver, "#story"), "the history")
    story = by_css(driver, "#story")[0].text
    assert "review by alice" in story and "review:alice" in story

    # both are true: the epoch change of where Sam lives
    entry = items[("home-1", "home-2")]
    open_item(driver, base_url, user, entry)
    act(driver, ".action-both_true button")
    assert shown_status(driver) == "settled"
    review = service.ledger.fetch(user, [review_entry_id(user, entry)])[
        review_entry_id(user, entry)]
    assert review.data["action"] == "both_true" and review.data["reviewer"] == "alice"
    now = statuses(service, user)
    assert (now["home-1"], now["home-2"]) == ("active", "active")
    assert not [c for c in service.batch_scan(user).conflicts if c.key.relation == "live in"]

    # dismiss: the tie
    entry = items[("glaze-1", "glaze-2")]
    open_item(driver, base_url, user, entry)
    act(driver, ".action-dismiss button")
    assert shown_status(driver) == "dismissed"
    assert service.ledger.fetch(user, [entry])[entry].status == "dismissed"
    now = statuses(service, user)
    assert (now["glaze-1"], now["glaze-2"]) == ("unresolved", "unresolved")

    # what is left open; the other user's items untouched; nothing deleted
    driver.get(f"{base_url}/review?{urlencode({'user_id': user})}")
    assert {r.get_attribute("data-entry") for r in by_css(driver, "tr.item")} == {
        items[("color-1", "color-2")]}
    assert {tuple(e.members) for e in ReviewService(service).inbox(other).items} == set(PAIRS)
    assert len(statuses(service, user)) == 12  # ten memories and two review records


def test_memory_text_with_markup_is_shown_as_text_and_never_runs(driver, base_url, service):
    user, items = seeded(service, "xss")
    driver.get(f"{base_url}/review?{urlencode({'user_id': user})}")
    screenshots.wait_for(driver, lambda: by_css(driver, "tr.item"), "inbox rows")
    assert "onerror" in by_css(driver, "#items")[0].text  # the value, as text
    assert by_css(driver, "#items img") == []
    open_item(driver, base_url, user, items[("color-1", "color-2")])
    texts = {r.get_attribute("data-member"): r.find_element("css selector", "p.text").text
             for r in by_css(driver, "li.member")}
    assert MARKUP_SCRIPT in texts["color-1"] and MARKUP_ONERROR in texts["color-2"]
    assert by_css(driver, "#members img") == [] and by_css(driver, "main script") == []
    assert driver.execute_script("return window.__pwned === undefined")
    assert "&lt;script&gt;window.__pwned" in driver.page_source


def test_a_post_without_the_sessions_csrf_token_records_nothing(driver, base_url, service):
    user, items = seeded(service, "csrf")
    entry = items[("timeout-1", "timeout-2")]
    count = service.ledger.count(user)
    # a forged token in the page's own form
    open_item(driver, base_url, user, entry)
    driver.execute_script("document.querySelector('form.action-dismiss input[name=csrf]')"
                          ".value = 'forged';")
    act(driver, ".action-dismiss button")
    assert "CSRF" in by_css(driver, "#error")[0].text
    # a form on another origin posting to the item: the session cookie stays home
    target = screenshots.item_url(base_url, user, entry)
    driver.get("data:text/html,<form method='post' action='" + target + "'>"
               "<input name='action' value='dismiss'><input name='csrf' value='x'></form>"
               "<script>document.forms[0].submit()</script>")
    screenshots.wait_for(driver, lambda: by_css(driver, "#error"), "the refusal")
    assert "Log in" in by_css(driver, "#error")[0].text
    assert service.ledger.count(user) == count
    assert service.ledger.fetch(user, [entry])[entry].status == "open"


def _png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_screenshots_at_1280_and_760_px_show_every_button_whole(driver, base_url, service,
                                                                tmp_path):
    """Issue 35, item 6: at 760 px the action buttons were cut off. Screenshots of the inbox
    and of the escalation at both widths, and every item of the sample measured at both:
    each button's bounding box lies inside the window, and no page is wider than it."""
    user, items = seeded(service, "shots")
    shots = screenshots.capture(driver, base_url, tmp_path, user_id=user,
                                entry_id=items[("timeout-1", "timeout-2")])
    assert set(shots) == {f"{page}-{w}" for page in ("inbox", "item") for w in (1280, 760)}
    for name, shot in shots.items():
        width = int(name.rsplit("-", 1)[1])
        assert shot.buttons and shot.clipped == [], (name, shot.clipped)
        assert shot.page_width <= width, name  # nothing to scroll sideways to
        assert shot.width == width and _png_size(shot.path) == (shot.width, shot.height)
        labels = [b["label"] for b in shot.buttons]
        if name.startswith("item"):
            assert sorted(labels) == sorted(["This one is current"] * 2 + [
                "Both are true", "Dismiss", "log out"]), name
            for b in shot.buttons:  # each fully inside the viewport, by its bounding box
                assert 0 <= b["left"] < b["right"] <= width, (name, b)
                assert 0 <= b["top"] < b["bottom"] <= shot.height, (name, b)
        else:
            assert "Filter" in labels
    before = driver.get_window_size()
    try:
        for members, entry in items.items():
            open_item(driver, base_url, user, entry)
            for width in screenshots.WIDTHS:
                shot = screenshots.shoot(driver, None, width)
                actions = [b for b in shot.buttons if b["label"] != "log out"]
                assert len(actions) == len(members) + 2, (members, width)
                assert shot.clipped == [] and shot.page_width <= width, (members, width)
    finally:
        driver.set_window_size(before["width"], before["height"])


def test_the_inbox_shows_the_texts_of_the_memories_in_dispute(driver, base_url, service):
    user, items = seeded(service, "texts")
    driver.get(f"{base_url}/review?{urlencode({'user_id': user})}")
    screenshots.wait_for(driver, lambda: by_css(driver, "tr.item"), "inbox rows")
    texts = {r.id: r.text for r in sample_records(user)}
    for members, entry in items.items():
        row = by_css(driver, f"tr.item[data-entry='{entry}']")[0]
        shown = row.find_elements("css selector", "li.memory")
        assert sorted(li.get_attribute("data-member") for li in shown) == sorted(members)
        for li in shown:  # each memory's whole text (none is longer than the inbox shows)
            assert f"“{texts[li.get_attribute('data-member')]}”" in li.text
    escalated = by_css(driver, f"tr.item[data-entry='{items[('timeout-1', 'timeout-2')]}']")[0]
    first = escalated.find_elements("css selector", "li.memory")[0]
    assert first.get_attribute("data-member") == "timeout-1"
    assert "recommended" in first.text and "The deploy timeout is 30 seconds." in first.text


def test_the_item_page_puts_the_recommended_member_first_and_says_why_in_words(
        driver, base_url, service):
    user, items = seeded(service, "words")
    entry = items[("timeout-1", "timeout-2")]
    open_item(driver, base_url, user, entry)
    members = by_css(driver, "li.member")
    assert [m.get_attribute("data-member") for m in members] == ["timeout-1", "timeout-2"]
    first = members[0]
    assert "recommended" in first.get_attribute("class").split()
    assert "Recommended" in first.find_element("css selector", "h3").text
    assert "The policy would keep this one and retire timeout-2." in first.text
    assert "more trusted class wins" in first.text  # why: observation beats user
    assert "Recommended" not in members[1].text
    # the reason in words, its code beside it
    assert by_css(driver, "#rule-words")[0].text.startswith(RULE_WORDS["safety_relation"])
    assert by_css(driver, "#rule")[0].text == "safety_relation"
    reasons = by_css(driver, "#reasons")[0].text
    assert "the policy would keep timeout-1" in reasons and "recommended:timeout-1" in reasons
    # every action explained on the page, beside its button
    forms = by_css(driver, "form.act")
    assert len(forms) == 4
    for form in forms:
        button = form.find_element("css selector", "button")
        explain = form.find_element("css selector", "p.explain")
        assert explain.is_displayed() and len(explain.text) > 40
        assert button.get_attribute("aria-describedby") == explain.get_attribute("id")
    both = by_css(driver, "form.action-both_true p.explain")[0].text
    dismiss = by_css(driver, "form.action-dismiss p.explain")[0].text
    current = by_css(driver, "form.action-current[data-member='timeout-2'] p.explain")[0].text
    assert "several values" in both and "without choosing" in dismiss
    assert "review:alice" in current and "“60 s”" in current and "superseded" in current
    # an epoch change recommends nothing: no member is marked
    open_item(driver, base_url, user, items[("home-1", "home-2")])
    assert by_css(driver, "li.member.recommended") == [] and by_css(driver, ".badge") == []
    assert "world-state epochs" in by_css(driver, "#rule-words")[0].text


def test_an_escalated_safety_item_is_not_shown_as_low_severity(driver, base_url, service):
    """Issue 35, item 6: the escalation showed severity "low" (its members' confidences); an
    escalation's severity is that of its escalation, in the ledger and on both pages."""
    user, items = seeded(service, "severity")
    entry = items[("timeout-1", "timeout-2")]
    assert service.ledger.fetch(user, [entry])[entry].severity == "high"
    driver.get(f"{base_url}/review?{urlencode({'user_id': user, 'severity': 'high'})}")
    rows = by_css(driver, "tr.item")
    assert [r.get_attribute("data-entry") for r in rows] == [entry]
    assert rows[0].get_attribute("data-severity") == "high"
    assert "high severity" in rows[0].text and "low" not in rows[0].text
    open_item(driver, base_url, user, entry)
    shown = by_css(driver, "#severity")[0].text
    assert shown.startswith("high") and "low" not in shown


def test_the_screenshots_command_writes_them_under_its_out_directory(tmp_path):
    out = tmp_path / "review"
    assert screenshots.main(["--out", str(out)]) == 0
    for width in screenshots.WIDTHS:
        for page in ("inbox", "item"):
            assert _png_size(out / f"{page}-{width}.png")[0] == width
    assert _png_size(out / "item-after.png")[0] == screenshots.PAGE_WIDTH
    import json

    ledger = json.loads((out / "ledger.json").read_text())
    assert {"escalation", "review", "settlement"} <= {e["entry_type"] for e in ledger["current"]}
    assert {e["entry_type"]: e["status"] for e in ledger["both_true"]} == {
        "epoch_change": "settled", "review": "recorded"}
    assert {e["entry_type"]: e["status"] for e in ledger["dismiss"]} == {
        "quarantine": "dismissed", "review": "recorded"}
