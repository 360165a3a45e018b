"""Provisioning of the ``weaviate-server`` binary that embedded mode runs (SPEC §7).

:func:`ensure_binary` puts the binary where weaviate-client's embedded mode looks for it
(:func:`embedded_binary_path`): an already-present binary, one found on this machine, or a
``go install`` of the pinned version. ``python -m scanner.store.server`` runs it ahead of time
(``make setup``).

Sources cited below: ``client:PATH`` is a file of the installed weaviate-client 4.24.1
(``weaviate/PATH``); ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0;
``WEAVIATE.md`` is the project's Weaviate notes.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections import deque
from pathlib import Path

from scanner.errors import ConfigurationError
from scanner.store.locks import Log, flocked, quiet

WEAVIATE_VERSION = "1.39.0"
"""Pinned server version. weaviate-client 4.24.1 defaults to 1.40.2 (client:embedded.py), so it
is always passed explicitly."""


BINARY_ENV = "CONTRASCAN_WEAVIATE_BINARY"
"""Env var naming a ``weaviate-server`` binary to use instead of searching for one."""


_GO_PACKAGE = "github.com/weaviate/weaviate/cmd/weaviate-server"


_VERSION_RE = re.compile(r"^\d\.\d{1,2}\.\d{1,2}$")  # client:embedded.py accepts this (and -rc.N)


_GO_BUILDINFO_MAGIC = b"\xff Go buildinf:"  # Go's debug/buildinfo header, Go >= 1.18


def check_version(version: str) -> None:
    if not _VERSION_RE.match(version):
        raise ConfigurationError("weaviate version", f"{version!r} is not of the form 1.39.0")


def embedded_binary_path(version: str = WEAVIATE_VERSION) -> Path:
    """Where weaviate-client's embedded mode looks for the server binary of ``version``.

    Rule (client:embedded.py, ``EmbeddedOptions`` and ``ensure_weaviate_binary_exists``): the
    directory is ``$XDG_CACHE_HOME`` **itself** when that variable is set (no
    ``weaviate-embedded/`` subfolder, despite the docstring of ``connect_to_embedded``), else
    ``~/.cache/weaviate-embedded``; the file is ``weaviate-v<version>-<sha256("v<version>")>``.
    The client reads the variable once, at import time; this function reads it on every call
    and :func:`connect_embedded` passes the directory explicitly, so both always agree. An empty
    ``XDG_CACHE_HOME`` counts as unset (the XDG rule; the client would use the working dir).

    Args:
        version: server version, e.g. ``"1.39.0"``.

    Returns:
        Absolute path of the binary (it may not exist yet), e.g.
        ``~/.cache/weaviate-embedded/weaviate-v1.39.0-f5768c3a…676e``.

    Raises:
        ConfigurationError: ``version`` is not of the form ``1.39.0``.
    """
    check_version(version)
    cache = os.environ.get("XDG_CACHE_HOME")
    base = Path(cache) if cache else Path.home() / ".cache" / "weaviate-embedded"
    tag = "v" + version
    digest = hashlib.sha256(tag.encode()).hexdigest()
    return base.expanduser().absolute() / f"weaviate-{tag}-{digest}"


def _go_build_info(path: Path) -> tuple[str, str] | None:
    """Main package path and main-module version that the Go toolchain recorded in a binary.

    Reads the build-info blob (Go >= 1.18 layout, as Go's ``debug/buildinfo`` does: 16-byte
    aligned 14-byte magic, pointer size, flags byte with bit 2 = inline strings, then two
    uvarint-length strings from offset 32: Go version and module info). ``go install
    github.com/weaviate/weaviate/cmd/weaviate-server@v1.39.0`` records
    ``("github.com/weaviate/weaviate/cmd/weaviate-server", "v1.39.0")``; a build from a
    checkout records the version ``"(devel)"``.

    Returns:
        ``(package path, version)``, or ``None`` when the file has no readable build info.
    """
    try:
        with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(_GO_BUILDINFO_MAGIC)
            while at != -1:
                if at % 16 == 0 and data[at + 15] & 0x2:
                    strings: list[bytes] = []
                    pos = at + 32
                    for _ in range(2):
                        length, shift = 0, 0
                        while True:
                            byte = data[pos]
                            pos += 1
                            length |= (byte & 0x7F) << shift
                            shift += 7
                            if byte < 0x80:
                                break
                        strings.append(data[pos : pos + length])
                        pos += length
                    if strings[0].startswith(b"go"):
                        info = strings[1].decode("utf-8", "replace")
                        main_path = re.search(r"path\t(\S+)", info)  # after a 16-byte sentinel
                        module = re.search(r"^mod\t\S+\t(\S+)", info, re.MULTILINE)
                        return (
                            main_path.group(1) if main_path else "",
                            module.group(1) if module else "(devel)",
                        )
                at = data.find(_GO_BUILDINFO_MAGIC, at + 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


def _binary_candidates() -> list[tuple[Path, str]]:
    """``weaviate-server`` binaries that could be installed, with where each was found."""
    found: list[tuple[Path, str]] = []
    explicit = os.environ.get(BINARY_ENV)
    if explicit:
        found.append((Path(explicit).expanduser(), BINARY_ENV))
    go = shutil.which("go")
    bin_dirs: list[Path] = []
    if go:
        try:
            out = subprocess.run(
                [go, "env", "GOBIN", "GOPATH"],
                capture_output=True, text=True, timeout=60, check=True,
            ).stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            out = []
        if out and out[0].strip():
            bin_dirs.append(Path(out[0].strip()))
        if len(out) > 1:
            bin_dirs += [Path(p) / "bin" for p in out[1].split(os.pathsep) if p]
    else:
        bin_dirs.append(Path.home() / "go" / "bin")  # Go's default GOPATH
    for directory in bin_dirs:
        found.append((directory / "weaviate-server", "GOPATH/bin"))
    on_path = shutil.which("weaviate-server")
    if on_path:
        found.append((Path(on_path), "PATH"))
    unique: dict[Path, tuple[Path, str]] = {}
    for path, origin in found:
        key = path.resolve() if path.exists() else path
        unique.setdefault(key, (path, origin))
    return list(unique.values())


def _install_binary(source: Path, target: Path) -> None:
    """Hard-link (or copy) ``source`` to ``target`` with mode 755, atomically via os.replace."""
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    staging.unlink(missing_ok=True)
    try:
        if source.stat().st_mode & 0o777 == 0o755:
            try:
                os.link(source, staging)  # same inode; no 150 MB copy
            except OSError:
                shutil.copyfile(source, staging)
        else:
            shutil.copyfile(source, staging)  # a link would change the mode of the user's file
        os.chmod(staging, 0o755)
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)


def _go_build(go: str, version: str, target: Path, log: Log) -> Path | None:
    """``go install`` the server into a temp GOBIN next to ``target``, then move it in place."""
    build_dir = Path(tempfile.mkdtemp(prefix=".go-build-", dir=target.parent))
    command = [go, "install", "-v", "-trimpath", "-ldflags=-s -w", f"{_GO_PACKAGE}@v{version}"]
    env = {**os.environ, "CGO_ENABLED": "0", "GOBIN": str(build_dir)}
    log(f"building Weaviate {version} from source (~10-20 min cold, 1-2 min with a warm Go "
        f"build cache): CGO_ENABLED=0 GOBIN={build_dir} {shlex.join(command)}")
    tail: deque[str] = deque(maxlen=15)
    started = time.monotonic()
    try:
        with subprocess.Popen(
            command, cwd=build_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace",
        ) as proc:
            try:
                for line in proc.stdout or ():
                    line = line.rstrip()
                    tail.append(line)
                    log(line)
                code = proc.wait()
            finally:
                if proc.poll() is None:
                    proc.kill()
        built = build_dir / "weaviate-server"
        if code != 0 or not built.is_file():
            log(f"go install failed (exit {code}):\n" + "\n".join(tail))
            return None
        os.chmod(built, 0o755)
        os.replace(built, target)
        log(f"built {target} in {time.monotonic() - started:.0f} s")
        return target
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)


def _is_executable_file(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def ensure_binary(
    version: str = WEAVIATE_VERSION, *, build: bool = True, log: Log | None = None
) -> Path | None:
    """Make the ``weaviate-server`` binary available where embedded mode looks for it.

    Order (SPEC §7):

    1. the binary already at :func:`embedded_binary_path`;
    2. a ``weaviate-server`` named by ``$CONTRASCAN_WEAVIATE_BINARY``, or found in
       ``$(go env GOBIN)``, ``$(go env GOPATH)/bin`` or on ``PATH``, whose Go build info (read
       from the file, no process started) names the ``weaviate-server`` package at module
       version ``v<version>``; a binary named by the env var is also accepted when its version
       is unknown (no build info, or ``(devel)`` as in builds from a checkout). It is
       hard-linked or copied into place with mode 755;
    3. ``CGO_ENABLED=0 go install -v -trimpath -ldflags="-s -w"
       github.com/weaviate/weaviate/cmd/weaviate-server@v<version>`` into a temp ``GOBIN``,
       then an atomic ``os.replace`` into place (build recipe: WEAVIATE.md §2; release builds
       also use CGO_ENABLED=0, repo:.goreleaser.yaml); needs Go >= 1.26 (repo:go.mod);
    4. otherwise ``None``: weaviate-client then downloads the release from GitHub on first
       start (client:embedded.py), which fails without internet access.

    Steps 2-3 run under an exclusive ``flock`` on a lock file next to the binary, so two
    processes never write it at the same time; the second one waits and reuses the result.

    Args:
        version: server version, e.g. ``"1.39.0"``.
        build: whether step 3 may run (it takes minutes and ~2 GB of Go module cache).
        log: receives one progress line at a time (the ``go install -v`` output included);
            ``None`` discards them.

    Returns:
        Path of the executable binary, or ``None`` when neither a binary nor Go was found or the
        build failed (the reason was sent to ``log``).

    Raises:
        ConfigurationError: ``version`` is malformed, or ``$CONTRASCAN_WEAVIATE_BINARY`` names no
            executable file or a binary of another version.
    """
    say = log or quiet
    target = embedded_binary_path(version)
    if _is_executable_file(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with flocked(target.parent / f".{target.name}.lock"):
        if target.is_file() and not os.access(target, os.X_OK):
            os.chmod(target, 0o755)  # the client only chmods what it downloads itself
        if _is_executable_file(target):
            return target  # present, or another process finished while we waited
        wanted = "v" + version
        for candidate, origin in _binary_candidates():
            explicit = origin == BINARY_ENV
            if not _is_executable_file(candidate):
                if explicit:
                    raise ConfigurationError(BINARY_ENV, f"{candidate} is not an executable file")
                continue
            info = _go_build_info(candidate)
            if info is not None and info[0] != _GO_PACKAGE:
                problem = f"{candidate} is {info[0] or 'a Go program'}, not {_GO_PACKAGE}"
            elif info is not None and info[1] not in (wanted, "(devel)"):
                problem = f"{candidate} is Weaviate {info[1]}, not {wanted}"
            elif (info is None or info[1] == "(devel)") and not explicit:
                problem = f"cannot tell the version of {candidate}; set {BINARY_ENV} to use it"
            else:
                problem = ""
            if problem:
                if explicit:
                    raise ConfigurationError(BINARY_ENV, problem)
                say(f"skipping {candidate} ({origin}): {problem}")
                continue
            _install_binary(candidate, target)
            say(f"installed {candidate} ({origin}) as {target}")
            return target
        go = shutil.which("go")
        if build and go:
            return _go_build(go, version, target, say)
        say("no weaviate-server binary found" + ("" if go else " and Go is not installed")
            + f"; weaviate-client will try to download Weaviate {version} on first start")
        return None
