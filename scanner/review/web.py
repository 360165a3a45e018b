"""The review page and the review endpoints of ``contrascan serve`` (issue 17).

==========================================  ==============================================
``GET /review``                             inbox: open entries, newest first, filterable
                                            by user, relation, verdict and severity, each
                                            with its memories' texts (shortened)
``GET /review/items/{entry_id}?user_id=U``  one entry: the rule and reasons in words (codes
                                            beside them), every member with text and
                                            provenance, the recommended one first and
                                            marked, the question; the three actions, each
                                            explained beside its button
``POST /review/items/{entry_id}?user_id=U`` one action (form post, CSRF token)
``GET /review/history``                     a memory's history (``contrascan history``)
``GET|POST /review/login``, ``POST          the session: reviewer name, and the API key
/review/logout``                            when the server has one
``GET /v1/reviews``                         the inbox as JSON (API key header)
``POST /v1/reviews``                        one action as JSON (API key header)
==========================================  ==============================================

Security:

* the pages need a session: a login form takes the reviewer's name and, when
  ``$CONTRASCAN_API_KEY`` is set, the key (compared in constant time); the session cookie is
  signed by itsdangerous with a per-process secret, ``HttpOnly``, ``SameSite=Strict``, limited
  to ``/review`` and expires after :data:`SESSION_SECONDS`;
* every form post carries the session's CSRF token (a random token kept in the signed
  session), checked in constant time; a post without it is refused with 403 and writes
  nothing;
* templates are Jinja2 with autoescaping on: every memory text, value, source and question is
  HTML-escaped; a ``Content-Security-Policy`` allows only this server's own script and style
  (no inline script), so an injected ``<script>`` or ``onerror=`` could not run either;
* every page and query names one ``user_id`` and reads only that tenant; the inbox without a
  user filter lists each tenant's own entries.

Attached sources (``serve --sources FILE``): the inbox lists their open entries beside
contrascan's own, each marked with its source; an item's page, its actions and its members'
history take the source's name as the ``source`` query parameter (``POST /v1/reviews``: the
``source`` field), as ``GET /v1/reviews`` gives it with each item.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from importlib.resources import files
from typing import Annotated, Any, Literal
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Form, Query, Request, Security
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRouter
from itsdangerous import BadData, URLSafeTimedSerializer
from jinja2 import Environment, PackageLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from scanner.api.attempts import FailedAttempts, client_of
from scanner.api.dependencies import authorize as _authorize
from scanner.api.dependencies import json_response as _json
from scanner.api.dependencies import require_service as _service
from scanner.api.errors import ERROR_RESPONSES as _ERROR_RESPONSES
from scanner.api.errors import ErrorCode, ErrorField, ErrorResponse
from scanner.api.errors import Problem as _Problem
from scanner.api.settings import MAX_ID_CHARS, ApiSettings
from scanner.core.ledger import LedgerEntry
from scanner.errors import ConfigurationError, ScannerError, UnknownMemory, UnknownSource
from scanner.review.decisions import (
    EntryClosed,
    ReviewAction,
    ReviewError,
    UnknownEntry,
    check_reviewer,
)
from scanner.narration import reason_in_words, rule_in_words
from scanner.review.service import (
    INBOX_MEMBERS,
    InboxEntry,
    ReviewOutcome,
    ReviewService,
    members_in_order,
    recommended_member,
)
from scanner.wording import shortened

SESSION_COOKIE = "contrascan_review"
SESSION_SECONDS = 8 * 3600
"""Lifetime of a review session, in seconds (one working day)."""
PREFIX = "/review"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
"""Content-Security-Policy of every review page: only this server's own script and style."""
VERDICTS = ("quarantined", "epoch_change", "escalated", "possible")
SEVERITIES = ("high", "medium", "low")

_templates = Environment(loader=PackageLoader("scanner.review", "templates"),
                         autoescape=select_autoescape(default=True, default_for_string=True),
                         trim_blocks=True, lstrip_blocks=True)
_templates.globals.update(rule_in_words=rule_in_words, reason_in_words=reason_in_words,
                          members_in_order=members_in_order,
                          recommended_member=recommended_member, shortened=shortened,
                          shown_members=INBOX_MEMBERS)


# --------------------------------------------------------------------------- JSON models


class ReviewRequest(BaseModel):
    """One reviewer's decision on one open ledger entry."""

    model_config = ConfigDict(extra="forbid")

    user_id: Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]
    entry_id: Annotated[str, Field(min_length=1, max_length=64,
                                   description="The open entry (``GET /v1/reviews``).")]
    action: ReviewAction
    chosen: Annotated[str | None, Field(default=None, max_length=MAX_ID_CHARS,
                                        description="For ``current``: the member that is "
                                                    "current.")]
    reviewer: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._@-]*$",
                                   description="Who decides; the review record's source is "
                                               "``review:<reviewer>``.")]
    source: Annotated[str | None, Field(default=None, max_length=MAX_ID_CHARS,
                                        description="The attached source whose ledger keeps "
                                                    "the entry, as `GET /v1/reviews` gives "
                                                    "it; null for contrascan's own "
                                                    "memories.")]


class ReviewResponse(BaseModel):
    """What the action wrote: the review entry, the entry as it now stands, the record a
    ``current`` review wrote, and the pair's ledger entries. ``already``: the entry had been
    reviewed before and nothing was written."""

    already: bool
    review: LedgerEntry
    item: LedgerEntry
    record: dict[str, Any] | None = None
    ledger: list[LedgerEntry]


class InboxResponse(BaseModel):
    """Open entries, newest first, with counts by verdict, severity, relation, user and
    attached source; each item names the ledger it is kept in (``source``)."""

    items: list[InboxEntry]
    counts: dict[str, Any]


def _outcome_json(outcome: ReviewOutcome) -> ReviewResponse:
    return ReviewResponse(
        already=outcome.already, review=outcome.review, item=outcome.item,
        record=outcome.record.model_dump(mode="json") if outcome.record else None,
        ledger=outcome.ledger)


def _review_problem(err: ScannerError) -> _Problem:
    if isinstance(err, (UnknownEntry, UnknownMemory, UnknownSource)):
        return _Problem(404, ErrorCode.not_found, str(err))
    if isinstance(err, EntryClosed):
        return _Problem(409, ErrorCode.http_error, str(err),
                        [ErrorField(field=err.field, message=err.reason, type="entry_closed")])
    if isinstance(err, ReviewError):
        return _Problem(422, ErrorCode.validation_error, str(err),
                        [ErrorField(field=err.field, message=err.reason, type="value_error")])
    raise err


# --------------------------------------------------------------------------- sessions


class _Sessions:
    """Signed session cookies (itsdangerous, HMAC-SHA256, per-process secret) and their CSRF
    tokens.

    A session is ``{"r": reviewer, "n": nonce, "c": CSRF token, "e": expiry}``: the nonce and
    the token are random (``secrets.token_hex``), the expiry is a Unix time in seconds. The
    cookie is the session signed with a timestamp (``URLSafeTimedSerializer``), refused
    :data:`SESSION_SECONDS` after login. The CSRF token is the session's own (the synchronizer
    token pattern, OWASP CSRF Prevention Cheat Sheet): a form post is accepted only when it
    carries the token of the session that sent it.
    """

    def __init__(self, settings: ApiSettings):
        self.settings = settings
        self._serializer = URLSafeTimedSerializer(
            secrets.token_bytes(32), salt="contrascan-review-session",
            signer_kwargs={"digest_method": hashlib.sha256})
        self._ended: dict[str, int] = {}  # nonce -> expiry of sessions logged out
        self._lock = threading.Lock()

    def end(self, session: dict[str, Any]) -> None:
        """Log ``session`` out on the server: its cookie is refused from now on, even if a
        copy of it is replayed before it expires (OWASP Session Management Cheat Sheet,
        "Manual Session Expiration")."""
        now = int(time.time())
        with self._lock:
            self._ended = {n: e for n, e in self._ended.items() if e >= now}
            self._ended[str(session.get("n"))] = int(session.get("e", now))

    def issue(self, reviewer: str) -> str:
        """A new session's cookie value for ``reviewer``."""
        return self._serializer.dumps({"r": reviewer, "n": secrets.token_hex(16),
                                       "c": secrets.token_hex(32),
                                       "e": int(time.time()) + SESSION_SECONDS})

    def read(self, request: Request) -> dict[str, Any] | None:
        """The session of ``request``'s cookie; ``None`` without one, or when it is forged,
        expired or logged out."""
        cookie = request.cookies.get(SESSION_COOKIE) or ""
        try:
            session = self._serializer.loads(cookie, max_age=SESSION_SECONDS)
        except BadData:  # a bad signature or payload, or expired
            return None
        if not isinstance(session, dict) or not isinstance(session.get("c"), str):
            return None
        with self._lock:
            if str(session.get("n")) in self._ended:
                return None  # logged out
        return session

    def csrf(self, session: dict[str, Any]) -> str:
        """The CSRF token of ``session`` (64 hex digits)."""
        return session["c"]

    def csrf_ok(self, session: dict[str, Any], given: str) -> bool:
        """Whether ``given`` is ``session``'s CSRF token (compared in constant time)."""
        return hmac.compare_digest(given.encode("utf-8", "surrogateescape"),
                                   self.csrf(session).encode())

    def check_key(self, given: str) -> bool:
        if self.settings.api_key is None:
            return True
        expected = self.settings.api_key.get_secret_value().encode("utf-8")
        return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected)


def _page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = _templates.get_template(name).render(prefix=PREFIX, **context)
    return HTMLResponse(html, status_code=status, headers={
        "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin", "Cache-Control": "no-store"})


def _login_redirect(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"{PREFIX}/login?{urlencode({'next': target})}", status_code=303)


def _safe_next(value: str | None) -> str:
    """Only a path on this server's review pages (no open redirect)."""
    if value and value.startswith(PREFIX) and not value.startswith("//") and "\\" not in value:
        return value
    return PREFIX


def _item_url(user_id: str, entry_id: str, source: str | None = None) -> str:
    """The page of one item (the user and the item's attached source in the query: user ids
    and source names may hold any character)."""
    query = {"user_id": user_id, **({"source": source} if source else {})}
    return f"{PREFIX}/items/{quote(entry_id, safe='')}?{urlencode(query)}"


def _history_url(user_id: str, memory_id: str, source: str | None = None) -> str:
    """The history page of one memory (of an attached source's, with its name)."""
    query = {"user_id": user_id, "memory_id": memory_id, **({"source": source} if source
                                                            else {})}
    return f"{PREFIX}/history?{urlencode(query)}"


# --------------------------------------------------------------------------- the routes


_STATIC = files("scanner.review").joinpath("static")
_pages = APIRouter(prefix=PREFIX, include_in_schema=False)
"""The review pages (HTML, a session cookie, CSRF tokens), outside the OpenAPI document."""


def _sessions(request: Request) -> _Sessions:
    """The app's review sessions (:func:`install_review`)."""
    return request.app.state.review_sessions


def _error(request: Request, status: int, message: str, session: dict | None) -> HTMLResponse:
    """The error page, with the session's CSRF token when there is a session."""
    return _page("error.html", status=status, message=message, session=session,
                 csrf=_sessions(request).csrf(session) if session is not None else None)


def _reviews(request: Request) -> ReviewService:
    return ReviewService(_service(request), getattr(request.app.state, "sources", None))

@_pages.get("/static/{name}")
def asset(name: str) -> Response:
    kinds = {"review.js": "text/javascript", "review.css": "text/css"}
    if name not in kinds:
        return Response("not found", status_code=404, media_type="text/plain")
    return Response(_STATIC.joinpath(name).read_text(encoding="utf-8"),
                    media_type=kinds[name], headers={"X-Content-Type-Options": "nosniff",
                                                     "Cache-Control": "no-cache"})

@_pages.get("/login")
def login_form(request: Request, next: str | None = None) -> Response:
    return _page("login.html", need_key=_sessions(request).settings.api_key is not None,
                 next=_safe_next(next), error=None, reviewer=None)

@_pages.post("/login")
async def login(request: Request, reviewer: Annotated[str, Form()] = "",
                api_key: Annotated[str, Form()] = "",
                next: Annotated[str | None, Form()] = None) -> Response:
    reviewer = reviewer.strip()
    target = _safe_next(next)
    attempts: FailedAttempts = request.app.state.failed_attempts
    client = client_of(request.client)
    wait = attempts.retry_after(client)
    if wait is not None:  # failed too often of late: slowed whatever it sends now
        page = _page("error.html", status=429, session=None, csrf=None,
                     message=f"Too many failed logins from here; retry in {wait} s.")
        page.headers["Retry-After"] = str(wait)
        return page
    error = None
    try:
        check_reviewer(reviewer)
    except ReviewError as err:
        error = f"Name: {err.reason}."
    if error is None and not _sessions(request).check_key(api_key):
        attempts.failed(client)
        error = "Wrong API key."
    if error is not None:
        return _page("login.html", status=401 if "key" in error else 422,
                     need_key=_sessions(request).settings.api_key is not None, next=target, error=error,
                     reviewer=reviewer)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(SESSION_COOKIE, _sessions(request).issue(reviewer), max_age=SESSION_SECONDS,
                        path=PREFIX, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")
    return response

@_pages.post("/logout")
async def logout(request: Request, csrf: Annotated[str, Form()] = "") -> Response:
    session = _sessions(request).read(request)
    if session is None or not _sessions(request).csrf_ok(session, csrf):
        return _page("error.html", status=403, message="Missing or wrong CSRF token.",
                     session=session, csrf=None)
    _sessions(request).end(session)
    response = RedirectResponse(f"{PREFIX}/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=PREFIX)
    return response

@_pages.get("")
async def inbox(request: Request, user_id: str | None = None, relation: str | None = None,
                verdict: str | None = None, severity: str | None = None,
                source: str | None = None) -> Response:
    session = _sessions(request).read(request)
    if session is None:
        return _login_redirect(request)
    service = _reviews(request)
    try:
        box = await run_in_threadpool(
            service.inbox, user_id or None, relation=(relation or "").strip() or None,
            verdict=verdict if verdict in VERDICTS else None,
            severity=severity if severity in SEVERITIES else None, source=source or None)
    except (UnknownSource, ConfigurationError) as err:
        return _error(request, 404, str(err), session)
    configured = service.sources.names() if service.sources is not None else []
    return _page("inbox.html", session=session, csrf=_sessions(request).csrf(session), inbox=box,
                 filters={"user_id": user_id or "", "relation": relation or "",
                          "verdict": verdict or "", "severity": severity or "",
                          "source": source or ""},
                 verdicts=VERDICTS, severities=SEVERITIES, item_url=_item_url,
                 source_names=configured)

@_pages.get("/items/{entry_id}")
async def item(request: Request, entry_id: str, user_id: str,
               done: str | None = None, source: str | None = None) -> Response:
    session = _sessions(request).read(request)
    if session is None:
        return _login_redirect(request)
    service = _reviews(request)
    source = source or None
    try:
        found = await run_in_threadpool(service.item, user_id, entry_id, source)
    except (UnknownEntry, UnknownSource, ConfigurationError) as err:
        return _error(request, 404, str(err), session)
    return _page("item.html", session=session, csrf=_sessions(request).csrf(session), item=found,
                 entry=found.entry, members=members_in_order(found.entry),
                 keep=recommended_member(found.entry), done=done,
                 history_url=lambda mid: _history_url(user_id, mid, source),
                 action_url=_item_url(user_id, entry_id, source))

@_pages.post("/items/{entry_id}")
async def act(request: Request, entry_id: str, user_id: str,
              action: Annotated[str, Form()] = "", chosen: Annotated[str, Form()] = "",
              csrf: Annotated[str, Form()] = "", source: str | None = None) -> Response:
    session = _sessions(request).read(request)
    if session is None:
        return _error(request, 401, "Log in first.", None)
    if not _sessions(request).csrf_ok(session, csrf):
        return _error(request, 403, "Missing or wrong CSRF token: nothing was recorded. Reload "
                     "the page and try again.", session)
    service = _reviews(request)
    source = source or None
    try:
        outcome = await run_in_threadpool(
            service.act, user_id, entry_id, action, session["r"], chosen=chosen or None,
            source=source)
    except (UnknownEntry, UnknownSource, ConfigurationError) as err:
        return _error(request, 404, str(err), session)
    except ReviewError as err:
        return _error(request, 409 if isinstance(err, EntryClosed) else 422, str(err), session)
    done = "already" if outcome.already else outcome.review.data.get("action", "")
    return RedirectResponse(_item_url(user_id, entry_id, source) + f"&done={done}",
                            status_code=303)

@_pages.get("/history")
async def history(request: Request, user_id: str, memory_id: str,
                  source: str | None = None) -> Response:
    session = _sessions(request).read(request)
    if session is None:
        return _login_redirect(request)
    from scanner.sources.history import history_anywhere

    reviews = _reviews(request)
    try:
        if source:
            report = await run_in_threadpool(reviews.book(source).history_report, memory_id,
                                             user_id)
        else:
            report = await run_in_threadpool(history_anywhere, reviews.service, memory_id,
                                             user_id)
    except (UnknownMemory, UnknownSource, ConfigurationError) as err:
        return _error(request, 404, str(err), session)
    return _page("history.html", session=session, csrf=_sessions(request).csrf(session),
                 report=report, user_id=user_id)

_api = APIRouter(prefix="/v1", dependencies=[Security(_authorize)],
                 responses=_ERROR_RESPONSES, tags=["review"])
"""``/v1/reviews``: the review inbox and decisions for agents, behind the API key."""

@_api.get("/reviews", response_model=InboxResponse)
def list_reviews(
    request: Request,
    user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                  description="The user whose open entries to list.")],
    relation: Annotated[str | None, Query(max_length=MAX_ID_CHARS)] = None,
    verdict: Literal["quarantined", "epoch_change", "escalated", "possible"] | None = None,
    severity: Literal["high", "medium", "low"] | None = None,
    source: Annotated[str | None, Query(max_length=MAX_ID_CHARS,
                                        description="Only this attached source's entries "
                                                    "(default: contrascan's own and every "
                                                    "attached source's).")] = None,
) -> Response:
    """Open entries of one user (quarantines, epoch changes, escalations, possible
    conflicts), newest first, each with its clarification question: what an agent puts
    to its user before recording the answer with `POST /v1/reviews`. Entries of attached
    sources (`serve --sources`) are listed too, each naming its `source`."""
    try:
        box = _reviews(request).inbox(user_id, relation=relation, verdict=verdict,
                                      severity=severity, source=source or None)
    except UnknownSource as err:
        raise _review_problem(err) from None
    return _json(InboxResponse(items=box.items, counts=box.counts))

@_api.post("/reviews", response_model=ReviewResponse,
          responses={404: {"model": ErrorResponse, "description": "No such entry."},
                     409: {"model": ErrorResponse, "description": "The entry is not "
                                                                   "open."}})
def post_review(body: ReviewRequest, request: Request) -> Response:
    """Record a decision on one open entry: `current` (with `chosen`: writes a review
    record that settles the pair), `both_true` (the key holds several values for this
    user) or `dismiss`. Repeating a request writes nothing (`already`: true)."""
    try:
        outcome = _reviews(request).act(body.user_id, body.entry_id, body.action,
                                        body.reviewer, chosen=body.chosen,
                                        source=body.source or None)
    except (ReviewError, UnknownMemory, UnknownSource) as err:
        raise _review_problem(err) from None
    return _json(_outcome_json(outcome))


def install_review(app: FastAPI, settings: ApiSettings) -> None:
    """Add the review pages and the ``/v1/reviews`` endpoints to the sidecar app."""
    app.state.review_sessions = _Sessions(settings)
    app.include_router(_pages)
    app.include_router(_api)
