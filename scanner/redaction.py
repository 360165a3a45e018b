"""What must not leave contrascan: memory text in logs, keys and user ids in access logs, and
terminal control sequences carried by memory text.

* :func:`quiet_batch_error_log`: weaviate-client logs every rejected object of
  ``insert_many`` whole, properties included, at ERROR on its ``weaviate-client`` logger
  (client:collections/data/executor.py, ``insert_many``), which reaches stderr through
  logging's last-resort handler; the store reports each rejection itself (id and server
  message, :class:`scanner.errors.StoreWriteError`), so the record is cut to its count.
* :class:`AccessLogRedaction`: uvicorn's access log line carries the full request target
  (uvicorn/protocols/http/h11_impl.py, ``get_path_with_query_string``): a key sent as a query
  parameter, the user, memory and review-entry ids of ``?user_id=``,
  ``/v1/memories/{id}/history`` and ``/review/items/{id}``, and any path a client makes up
  would be written to every log the sidecar feeds. The line shows the route template the app
  matched instead (:data:`CURRENT_ROUTE`), or ``<unmatched>``.
* :func:`terminal_text`: memory text is data, never terminal control. ESC (``\\x1b``) starts
  ANSI/VT100 sequences that can recolour, clear or retitle a terminal (ECMA-48 §5.4), other C0
  and C1 controls move the cursor, and Unicode bidirectional overrides reorder what is shown
  (CVE-2021-42574, "Trojan Source"); each is shown as its escape instead.

``client:PATH`` is a file of weaviate-client 4.24.1 (``weaviate/PATH``).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from contextvars import ContextVar

CLIENT_LOGGER = "weaviate-client"
"""Name of weaviate-client's logger (client:logger.py)."""
ACCESS_LOGGER = "uvicorn.access"
"""Name of uvicorn's access logger."""

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")


class _BatchErrorSummary(logging.Filter):
    """Replace a logged ``{"message": ..., "errors": {index: ErrorObject}}`` by its message
    and the count of errors (the ErrorObjects hold the objects' properties)."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.msg
        if isinstance(msg, dict) and "errors" in msg:
            errors = msg.get("errors") or {}
            record.msg = (f"weaviate-client: {len(errors)} object(s) of a batch were rejected "
                          "(details withheld: they hold memory text)")
            record.args = ()
        return True


_BATCH_FILTER = _BatchErrorSummary()


def quiet_batch_error_log() -> None:
    """Install the batch-error filter on weaviate-client's logger (idempotent)."""
    logger = logging.getLogger(CLIENT_LOGGER)
    if _BATCH_FILTER not in logger.filters:
        logger.addFilter(_BATCH_FILTER)


UNMATCHED = "<unmatched>"
"""What is logged for a path no route of the app matched: the path is the client's choice."""

CURRENT_ROUTE: ContextVar[str | None] = ContextVar("contrascan_current_route", default=None)
"""The route template of the request whose response is starting, set by
:class:`scanner.api.middleware.RequestMetrics` (:data:`UNMATCHED` when no route matched);
uvicorn writes the access log line while that response starts, in the same context."""


def logged_target(target: str) -> str:
    """The request target as the access log shows it: the route template of the request in
    :data:`CURRENT_ROUTE` ("/review/items/{entry_id}"), or :data:`UNMATCHED` when no route
    matched or none is known, and "?…" for any query string. Never the client's path: it
    carries ids (users, memories, review entries) and whatever a client chose to send."""
    route = _CONVERTER.sub(r"{\1}", CURRENT_ROUTE.get() or UNMATCHED)
    return route + ("?…" if "?" in target else "")


_CONVERTER = re.compile(r"\{(\w+):\w+\}")
"""A path parameter's converter in a route template ("{memory_id:path}"): not logged."""


class AccessLogRedaction(logging.Filter):
    """Logging filter for uvicorn's access log: the request target becomes
    :func:`logged_target` (uvicorn logs ``'%s - "%s %s HTTP/%s" %d'`` with the args
    ``(client, method, target, http_version, status)``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], logged_target(args[2]), args[3], args[4])
        return True


def redact_access_log() -> None:
    """Install :class:`AccessLogRedaction` on uvicorn's access logger (idempotent; a filter on
    a logger survives uvicorn's own ``dictConfig``)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, AccessLogRedaction) for f in logger.filters):
        logger.addFilter(AccessLogRedaction())


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """``text`` safe to print on a terminal: control characters (Unicode category Cc, but
    newline and tab), bidirectional controls and lone surrogates shown as ``\\xNN`` /
    ``\\uNNNN`` escapes; everything else unchanged.

    Args:
        text: memory-derived text (a memory's text, id, value, source or epoch).

    Returns:
        The escaped text, e.g. ``"\\x1b[31mred"`` (a literal backslash) for ESC [31m red.
    """
    if text.isprintable() and not any(c in _BIDI_CONTROLS for c in text):
        return text
    out = []
    for char in text:
        if char in "\n\t":
            out.append(char)
        elif (unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI_CONTROLS):
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)
