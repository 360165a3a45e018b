"""Start-up as light as the command: spaCy without torch until something embeds.

spaCy imports thinc, and ``thinc.compat`` imports torch whenever torch is installed (it is:
sentence-transformers needs it), only to offer thinc's PyTorch wrappers. contrascan's spaCy
pipeline (``en_core_web_sm``) runs on thinc's NumPy ops and never uses them, so a command that
parses text but embeds nothing (``scan-file``, ``validate-log``) paid for torch without using
it: 1.4 s of a 3.4 s ``scan-file`` of two lines on an idle 2-core machine
(``python -X importtime``; ``python -m benchmarks.bench_startup`` measures whole runs).

:func:`defer_torch` installs an import hook that, while ``thinc.compat`` is first imported and
torch is not loaded yet, shows thinc no torch (``has_torch`` is then ``False`` in thinc, which
only disables those wrappers). Torch itself stays importable: sentence-transformers loads it
the first time something is embedded. Where torch is already loaded, the hook does nothing.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

_HIDDEN_FROM = "thinc.compat"
_DEFERRED = "torch"


class _WithoutTorch(importlib.abc.Loader):
    """Runs ``thinc.compat`` with torch hidden (``sys.modules["torch"] = None`` makes
    ``import torch`` raise ImportError, which thinc catches), then shows torch again."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> object:  # get_source, is_package, ... of the wrapped one
        return getattr(self._loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        if _DEFERRED in sys.modules:
            self._loader.exec_module(module)
            return
        sys.modules[_DEFERRED] = None  # type: ignore[assignment]
        try:
            self._loader.exec_module(module)
        finally:
            if sys.modules.get(_DEFERRED, ...) is None:
                del sys.modules[_DEFERRED]


class _DeferTorchFinder(importlib.abc.MetaPathFinder):
    """Finds ``thinc.compat`` with the other finders and wraps its loader."""

    def find_spec(self, fullname: str, path: object = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != _HIDDEN_FROM or _DEFERRED in sys.modules:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _WithoutTorch(spec.loader)
                return spec
        return None


def defer_torch() -> None:
    """Let spaCy load without torch in this process (see the module docstring); idempotent.

    Has no effect once ``thinc.compat`` or torch is imported. Call it at start-up, before
    threads import anything: while ``thinc.compat`` runs, an ``import torch`` in another thread
    would fail too. The CLI calls it when ``scanner.cli`` is imported.
    """
    if not any(isinstance(finder, _DeferTorchFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _DeferTorchFinder())
