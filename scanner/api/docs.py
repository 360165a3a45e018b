"""The contract's pages, served with no network: Swagger UI at ``/docs`` and ReDoc at
``/redoc``, over ``/openapi.json``.

FastAPI's own pages load their scripts and styles from a CDN (swagger-ui-dist 5, redoc 2 on
cdn.jsdelivr.net; ``fastapi.openapi.docs``), so on a machine without internet access ``/docs``
is a blank page (issue 35, item 4). The same files come here from the ``fastapi-offline``
package (MIT; it ships swagger-ui-dist 5 and redoc 2's standalone bundle for this purpose) and
are served by the sidecar itself under :data:`ASSETS_PATH`. Swagger UI's online validator
(``validatorUrl``, which sends the document to validator.swagger.io) is turned off, and ReDoc
loads no web fonts: every URL the pages name is the sidecar's own.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.routing import APIRouter
from starlette.exceptions import HTTPException

from scanner.errors import ConfigurationError

ASSETS_PATH = "/docs/assets"
"""Where the pages' scripts, styles and icon are served (``/docs/assets/{name}``)."""
ASSETS: dict[str, str] = {"swagger-ui-bundle.js": "text/javascript",
                          "swagger-ui.css": "text/css",
                          "redoc.standalone.js": "text/javascript",
                          "favicon.png": "image/png"}
"""The files served, by name, with their media type: nothing else of the directory."""
_DIRECTORY = Path(fastapi_offline.__file__).parent / "static"
"""The package's copy of the files (as ``fastapi_offline.core`` finds it)."""
_CACHE_S = 24 * 3600
"""Seconds a browser may keep an asset: they change only with the installed package."""

_router = APIRouter(include_in_schema=False)


@_router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI over the OpenAPI document, from the sidecar's own assets."""
    root = _root(request)
    return get_swagger_ui_html(
        openapi_url=root + request.app.openapi_url,
        title=f"{request.app.title} - Swagger UI",
        swagger_js_url=f"{root}{ASSETS_PATH}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS_PATH}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_PATH}/favicon.png",
        swagger_ui_parameters={**(request.app.swagger_ui_parameters or {}),
                               "validatorUrl": None})


@_router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    """ReDoc over the OpenAPI document, from the sidecar's own assets (no web fonts)."""
    root = _root(request)
    return get_redoc_html(openapi_url=root + request.app.openapi_url,
                          title=f"{request.app.title} - ReDoc",
                          redoc_js_url=f"{root}{ASSETS_PATH}/redoc.standalone.js",
                          redoc_favicon_url=f"{root}{ASSETS_PATH}/favicon.png",
                          with_google_fonts=False)


@_router.get(ASSETS_PATH + "/{name}")
def asset(name: str) -> Response:
    """One of :data:`ASSETS`; 404 ``not_found`` for any other name."""
    media_type = ASSETS.get(name)
    if media_type is None:
        raise HTTPException(404, f"no documentation asset {name!r}")
    return FileResponse(_DIRECTORY / name, media_type=media_type,
                        headers={"Cache-Control": f"public, max-age={_CACHE_S}",
                                 "X-Content-Type-Options": "nosniff"})


def _root(request: Request) -> str:
    """The path the app is mounted under (behind a proxy), as FastAPI's own pages use it."""
    return request.scope.get("root_path", "").rstrip("/")


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs``, ``/redoc`` and their assets on ``app``, which must be built with
    ``docs_url=None, redoc_url=None`` (FastAPI's own pages name the CDN).

    Raises:
        ConfigurationError: ``app`` still serves FastAPI's own pages.
    """
    if app.docs_url is not None or app.redoc_url is not None:
        raise ConfigurationError("install_docs", "build the app with docs_url=None, "
                                 "redoc_url=None: /docs and /redoc are served here")
    app.include_router(_router)
