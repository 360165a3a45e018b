"""Errors of the Weaviate client, httpx and gRPC as :class:`scanner.errors.WeaviateUnavailable`.

The client raises its own exceptions (``weaviate.exceptions.WeaviateBaseError``), and lets some
of httpx's and gRPC's through; none of them is meant for a person, and a lost server shows up as
any of them, e.g. ``WeaviateConnectionError`` caused by ``httpx.ConnectError: [Errno 111]
Connection refused`` for a REST call, or ``WeaviateRetryError`` / ``WeaviateQueryError``
around a gRPC ``StatusCode.UNAVAILABLE`` after the client's five retries (about a minute).

* :func:`translate_unreachable` wraps the public methods of a store class: errors that mean
  the server cannot be reached become :class:`WeaviateUnavailable`; other client errors (a
  request the server rejected) pass unchanged, for callers that tell them apart.
* :func:`as_unavailable` converts any of these errors, for the CLI's last line of defence.
"""

from __future__ import annotations

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

_UNREACHABLE_TYPES = (
    WeaviateConnectionError, WeaviateGRPCUnavailableError, WeaviateRetryError,
    WeaviateStartUpError, WeaviateTimeoutError, httpx.TransportError, ConnectionError,
    TimeoutError,
)
_UNREACHABLE_CODES = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
# WeaviateQueryError keeps only the text of the gRPC error it wraps
_UNREACHABLE_TEXT = ("StatusCode.UNAVAILABLE", "StatusCode.DEADLINE_EXCEEDED",
                     "Connection refused", "failed to connect to all addresses")

C = TypeVar("C", bound=type)


def _chain(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def is_client_error(err: BaseException) -> bool:
    """Whether ``err`` comes from the Weaviate client, httpx or gRPC."""
    return isinstance(err, (WeaviateBaseError, httpx.HTTPError, grpc.RpcError))


def is_unreachable(err: BaseException) -> bool:
    """Whether ``err`` (or an error it was raised from) means that the server did not answer:
    connection refused or reset, a timeout, gRPC ``UNAVAILABLE``, retries exhausted."""
    for e in _chain(err):
        if isinstance(e, _UNREACHABLE_TYPES):
            return True
        if isinstance(e, grpc.RpcError) and callable(getattr(e, "code", None)) \
                and e.code() in _UNREACHABLE_CODES:
            return True
        if isinstance(e, WeaviateBaseError) and any(t in str(e) for t in _UNREACHABLE_TEXT):
            return True
    return False


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
        where: how to name the server, e.g. :func:`scanner.store.server.describe` of the
            client.
    """
    if isinstance(err, ScannerError) or not is_client_error(err):
        return None
    if is_unreachable(err):
        return WeaviateUnavailable(f"cannot reach {where}", _reason(err))
    return WeaviateUnavailable(f"{where} failed a request", _reason(err))


def translate_unreachable(cls: C) -> C:
    """Class decorator: public methods (generators included) of a class with a ``client``
    attribute raise :class:`WeaviateUnavailable` instead of a client error that means the
    server cannot be reached (:func:`is_unreachable`)."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _translating(member))
    return cls


def _translated(self: Any, err: BaseException) -> WeaviateUnavailable | None:
    if isinstance(err, ScannerError) or not is_client_error(err) or not is_unreachable(err):
        return None
    return as_unavailable(err, describe(getattr(self, "client", None)))


def _translating(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isgeneratorfunction(method):
        @functools.wraps(method)
        def generator(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                yield from method(self, *args, **kwargs)
            except Exception as err:
                translated = _translated(self, err)
                if translated is None:
                    raise
                raise translated from err
        return generator

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as err:
            translated = _translated(self, err)
            if translated is None:
                raise
            raise translated from err
    return wrapper
