"""Nothing memory-derived steers the terminal, and access-log targets carry no keys or ids
(scanner.redaction, issue 18 item 3)."""

from __future__ import annotations

import asyncio
import io
import logging

import pytest
from rich.console import Console

from scanner.redaction import CURRENT_ROUTE, AccessLogRedaction, terminal_text
from scanner.render import render_history
from scanner.service import HistoryEntry

ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe"


def _access_record(target: str) -> logging.LogRecord:
    """An access log record as uvicorn writes it."""
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                             '%s - "%s %s HTTP/%s" %d',
                             ("127.0.0.1:5", "GET", target, "1.1", 200), None)


def test_the_access_log_shows_the_route_template_never_the_path():
    token = CURRENT_ROUTE.set("/v1/memories/{memory_id:path}/history")
    try:
        record = _access_record("/v1/memories/x/history?user_id=bob")
        assert AccessLogRedaction().filter(record)
        assert record.getMessage() == (
            '127.0.0.1:5 - "GET /v1/memories/{memory_id}/history?… HTTP/1.1" 200')
    finally:
        CURRENT_ROUTE.reset(token)
    record = _access_record("/v1/nonexistent/PATHLEAK4")  # no route known: none shown
    AccessLogRedaction().filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "GET <unmatched> HTTP/1.1" 200'


def test_a_request_through_the_middleware_logs_its_route(caplog):
    """Issue 38, item 6: a review entry's id and a path a client made up never reach the
    access log; the route template the app matched does (the line is written while the
    response starts, as uvicorn's protocol does)."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from scanner.api.middleware import RequestMetrics
    from scanner.metrics import SidecarMetrics

    app = Starlette(routes=[Route("/review/items/{entry_id}",
                                  lambda request: PlainTextResponse("ok"))])
    wrapped = RequestMetrics(app, SidecarMetrics())
    access = logging.getLogger("uvicorn.access")
    redaction = AccessLogRedaction()
    access.addFilter(redaction)
    try:
        for path in ("/review/items/3f2a9c1e-entry", "/v1/nonexistent/PATHLEAK4"):
            scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                     "query_string": b"", "headers": [], "root_path": "",
                     "http_version": "1.1", "scheme": "http", "server": ("x", 80)}

            async def receive():
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message, path=path):
                if message["type"] == "http.response.start":
                    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", path, "1.1",
                                message["status"])

            with caplog.at_level(logging.INFO, logger="uvicorn.access"):
                asyncio.run(wrapped(scope, receive, send))
    finally:
        access.removeFilter(redaction)
    lines = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert lines == ['127.0.0.1:5 - "GET /review/items/{entry_id} HTTP/1.1" 200',
                     '127.0.0.1:5 - "GET <unmatched> HTTP/1.1" 404']
    assert not any("3f2a9c1e" in line or "PATHLEAK4" in line for line in lines)


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
