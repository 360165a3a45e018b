"""The one table from errors of the Weaviate client, httpx and gRPC to this package's errors.

The client raises its own exceptions (``weaviate.exceptions.WeaviateBaseError``), and lets some
of httpx's and gRPC's through; none of them is meant for a person, and a lost server shows up as
any of them, e.g. ``WeaviateConnectionError`` caused by ``httpx.ConnectError: [Errno 111]
Connection refused`` for a REST call, or ``WeaviateRetryError`` / ``WeaviateQueryError``
around a gRPC ``StatusCode.UNAVAILABLE`` after the client's five retries (about a minute).

:data:`FAILURE_TABLE` sorts such an error into one of two :class:`Failure` kinds, first
matching row wins (the error or any error it was raised from, ``__cause__`` /
``__context__``, is matched):

==============================================================  ==========================
third-party error                                               kind
==============================================================  ==========================
``WeaviateConnectionError``, ``WeaviateGRPCUnavailableError``,  ``UNREACHABLE``
``WeaviateRetryError``, ``WeaviateStartUpError``,
``WeaviateTimeoutError``, ``httpx.TransportError``,
``ConnectionError``, ``TimeoutError``
``grpc.RpcError`` with code ``UNAVAILABLE`` or                  ``UNREACHABLE``
``DEADLINE_EXCEEDED``
``WeaviateBaseError`` whose text names one of those codes,      ``UNREACHABLE``
``Connection refused`` or ``failed to connect to all
addresses`` (``WeaviateQueryError`` keeps only the text of
the gRPC error it wraps)
any other ``WeaviateBaseError``, ``httpx.HTTPError``,           ``REJECTED``
``grpc.RpcError``
==============================================================  ==========================

:func:`map_exceptions` (after ``map_exceptions`` of httpcore, the transport under httpx) turns
the two kinds into our errors inside a ``with`` block; every place that meets client errors
uses it:

* the store classes (:func:`translate_unreachable`): ``UNREACHABLE`` becomes
  :class:`~scanner.errors.WeaviateUnavailable` naming the server (``cannot reach …``);
  ``REJECTED`` passes unchanged, for callers that tell them apart;
* creating or reading a collection (:func:`store_failure`): both kinds become
  :class:`~scanner.errors.WeaviateUnavailable` saying what failed;
* the CLI's last line of defence (:func:`as_unavailable`): both kinds become
  :class:`~scanner.errors.WeaviateUnavailable` (``cannot reach …`` / ``… failed a request``).

Connecting (:mod:`scanner.store.connection`, :mod:`scanner.store.embedded`) maps the client's
errors itself, since there a failure to answer means a server that is not (yet) there
(:class:`~scanner.errors.DataDirectoryBusy`, a start that failed), and per-object write
failures are collected, not raised (:mod:`scanner.store.batching`,
:class:`~scanner.errors.StoreWriteError`).
"""

from __future__ import annotations

import contextlib
import enum
import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc
import httpx
from weaviate.exceptions import (
    WeaviateBaseError,
    WeaviateConnectionError,
    WeaviateGRPCUnavailableError,
    WeaviateRetryError,
    WeaviateStartUpError,
    WeaviateTimeoutError,
)

from scanner.errors import ScannerError, WeaviateUnavailable
from scanner.store.connection import describe, one_line


class Failure(enum.Enum):
    """What a third-party error says about the server."""

    UNREACHABLE = "unreachable"
    """The server did not answer: connection refused or reset, a timeout, gRPC
    ``UNAVAILABLE``, retries exhausted."""
    REJECTED = "rejected"
    """The server answered and failed or refused the request."""


_UNREACHABLE_CODES = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
_UNREACHABLE_TEXT = ("StatusCode.UNAVAILABLE", "StatusCode.DEADLINE_EXCEEDED",
                     "Connection refused", "failed to connect to all addresses")


def _grpc_unreachable(e: BaseException) -> bool:
    return isinstance(e, grpc.RpcError) and callable(getattr(e, "code", None)) \
        and e.code() in _UNREACHABLE_CODES


def _text_unreachable(e: BaseException) -> bool:
    return isinstance(e, WeaviateBaseError) and any(t in str(e) for t in _UNREACHABLE_TEXT)


FAILURE_TABLE: tuple[tuple[tuple[type[BaseException], ...] | Callable[[BaseException], bool],
                           Failure], ...] = (
    ((WeaviateConnectionError, WeaviateGRPCUnavailableError, WeaviateRetryError,
      WeaviateStartUpError, WeaviateTimeoutError, httpx.TransportError, ConnectionError,
      TimeoutError), Failure.UNREACHABLE),
    (_grpc_unreachable, Failure.UNREACHABLE),
    (_text_unreachable, Failure.UNREACHABLE),
    ((WeaviateBaseError, httpx.HTTPError, grpc.RpcError), Failure.REJECTED),
)
"""``(matcher, kind)`` rows, first match wins (module docstring). A matcher is a tuple of
exception types or a predicate. ``REJECTED`` is matched on the error itself only, the other
rows on its whole chain."""


def _chain(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _matches(matcher: Any, e: BaseException) -> bool:
    return isinstance(e, matcher) if isinstance(matcher, tuple) else matcher(e)


def classify(err: BaseException) -> Failure | None:
    """The :class:`Failure` kind of ``err`` by :data:`FAILURE_TABLE`, or ``None`` when it is
    not an error of the Weaviate client, httpx or gRPC (our own errors included)."""
    if isinstance(err, ScannerError):
        return None
    rejected = FAILURE_TABLE[-1]
    if not _matches(rejected[0], err):
        return None
    for matcher, kind in FAILURE_TABLE[:-1]:
        if any(_matches(matcher, e) for e in _chain(err)):
            return kind
    return rejected[1]


def is_client_error(err: BaseException) -> bool:
    """Whether ``err`` comes from the Weaviate client, httpx or gRPC."""
    return classify(err) is not None


def is_unreachable(err: BaseException) -> bool:
    """Whether ``err`` (or an error it was raised from) means that the server did not answer."""
    return classify(err) is Failure.UNREACHABLE


Mapper = Callable[[BaseException], BaseException]
"""Builds our error from a third-party one."""


@contextlib.contextmanager
def map_exceptions(mapping: dict[Failure, Mapper]) -> Iterator[None]:
    """Inside the block, an error of kind ``k`` (:func:`classify`) with ``k`` in ``mapping``
    is raised as ``mapping[k](err)`` from it; anything else passes unchanged.

    Example::

        with map_exceptions({Failure.UNREACHABLE: unavailable}):
            collection.query.fetch_objects(limit=1)
    """
    try:
        yield
    except Exception as err:
        kind = classify(err)
        to = mapping.get(kind) if kind is not None else None
        if to is None:
            raise
        raise to(err) from err


def _reason(err: BaseException) -> str:
    text = " ".join(str(e) for e in _chain(err))
    if "Connection refused" in text or "connection refused" in text:
        return "connection refused"
    for e in _chain(err):
        if isinstance(e, (httpx.TimeoutException, TimeoutError, WeaviateTimeoutError)):
            return "timed out"
    return one_line(f"{type(err).__name__}: {err}", 240)


def as_unavailable(err: BaseException, where: str = "Weaviate") -> WeaviateUnavailable | None:
    """``err`` as a one-line :class:`WeaviateUnavailable`, or ``None`` when it is not an
    error of the Weaviate client, httpx or gRPC.

    Args:
        err: the exception.
        where: how to name the server, e.g. :func:`scanner.store.connection.describe` of the
            client.
    """
    kind = classify(err)
    if kind is None:
        return None
    what = f"cannot reach {where}" if kind is Failure.UNREACHABLE else f"{where} failed a request"
    return WeaviateUnavailable(what, _reason(err))


def store_failure(what: str) -> contextlib.AbstractContextManager[None]:
    """``map_exceptions`` for creating or reading a collection: any client error becomes
    ``WeaviateUnavailable(f"{what}: {err}")``, e.g. ``cannot create collection X: …``."""
    def build(err: BaseException) -> BaseException:
        return WeaviateUnavailable(f"{what}: {err}")
    return map_exceptions({Failure.UNREACHABLE: build, Failure.REJECTED: build})


C = TypeVar("C", bound=type)


def translate_unreachable(cls: C) -> C:
    """Class decorator: public methods (generators included) of a class with a ``client``
    attribute raise :class:`WeaviateUnavailable` instead of a client error that means the
    server cannot be reached (``UNREACHABLE`` in :data:`FAILURE_TABLE`)."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _translating(member))
    return cls


def _unreachable(self: Any) -> dict[Failure, Mapper]:
    """Only ``UNREACHABLE``, as ``cannot reach <the server of self.client>``."""
    def build(err: BaseException) -> BaseException:
        return WeaviateUnavailable(f"cannot reach {describe(getattr(self, 'client', None))}",
                                   _reason(err))
    return {Failure.UNREACHABLE: build}


def _translating(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def generator(self: Any, *args: Any, **kwargs: Any) -> Any:
            with map_exceptions(_unreachable(self)):
                yield from method(self, *args, **kwargs)
        return generator

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with map_exceptions(_unreachable(self)):
            return method(self, *args, **kwargs)
    return wrapper
