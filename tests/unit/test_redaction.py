"""Nothing memory-derived steers the terminal, and access-log targets carry no keys or ids
(scanner.redaction, issue 18 item 3)."""

from __future__ import annotations

import io
import logging

import pytest
from rich.console import Console

from scanner.redaction import AccessLogRedaction, redact_target, terminal_text
from scanner.render import render_history
from scanner.service import HistoryEntry

ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe"


@pytest.mark.parametrize(("target", "logged"), [
    ("/v1/memories/m-17/history?user_id=alice", "/v1/memories/{memory_id}/history?…"),
    ("/v1/memories/a/b/history", "/v1/memories/{memory_id}/history"),
    ("/v1/batch-scans/job-1?user_id=alice", "/v1/batch-scans/{job_id}?…"),
    ("/v1/scan?api_key=s3cret", "/v1/scan?…"),
    ("/healthz", "/healthz"),
])
def test_access_log_targets_keep_the_route_only(target, logged):
    assert redact_target(target) == logged


def test_the_access_log_filter_rewrites_uvicorns_record():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/v1/memories/x/history?user_id=bob",
                                "1.1", 200), None)
    assert AccessLogRedaction().filter(record)
    assert record.getMessage() == (
        '127.0.0.1:5 - "GET /v1/memories/{memory_id}/history?… HTTP/1.1" 200')


def test_terminal_text_escapes_controls_and_keeps_the_rest():
    assert terminal_text("plain · text, ü 日本\n\tnext") == "plain · text, ü 日本\n\tnext"
    shown = terminal_text(ESCAPES)
    assert shown == "\\x1b[2J\\x1b]0;owned\\x07\\x9b31m\\u202egnp.exe"
    assert shown.isprintable()


def test_history_prints_no_control_sequence_of_a_memory():
    entry = HistoryEntry(id="m\x1b[1", text=ESCAPES, values=[f"glaze · is · {ESCAPES}"],
                         source=f"chat{ESCAPES}", source_class="user", epoch=ESCAPES,
                         observed_at="2026-03-01T00:00:00Z", status="active", retired_rule=None)
    out = io.StringIO()
    render_history([entry], "m\x1b[1", Console(file=out, width=300, color_system=None),
                   story=[f"m1 said {ESCAPES}"])
    text = out.getvalue()
    assert not any(c in text for c in "\x1b\x07\x9b\u202e")
    assert "\\x1b[2J" in text and "\\u202egnp.exe" in text


def test_rich_markup_in_memory_text_is_shown_not_applied():
    entry = HistoryEntry(id="m1", text="x", values=["glaze · is · [link=http://x]y[/link]"],
                         source="[bold]chat[/bold]", source_class="user", epoch=None,
                         observed_at=None, status="active", retired_rule=None)
    out = io.StringIO()
    render_history([entry], "m1", Console(file=out, width=300, color_system=None))
    assert "[bold]chat[/bold]" in out.getvalue() and "[link=http://x]" in out.getvalue()
