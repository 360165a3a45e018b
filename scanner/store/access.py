"""Who may use the embedded Weaviate and read its data directory.

The embedded server is contrascan's private store, so nothing else on the machine may use it:

* **Authentication.** Anonymous access is off and the server accepts one API key, generated on
  the data directory's first start (:func:`server_key`, 32 random bytes from :mod:`secrets`)
  and kept in ``<data_dir>/.contrascan-weaviate.key`` (mode 0600). Weaviate checks it on REST
  and gRPC alike (``AUTHENTICATION_APIKEY_ENABLED`` / ``_ALLOWED_KEYS`` / ``_USERS``,
  repo:usecases/config/environment.go); without an authorization module every authenticated
  user may do everything, which is what contrascan needs. The internal cluster API on
  ``CLUSTER_DATA_BIND_PORT`` takes the same key as its basic-auth password
  (``CLUSTER_BASIC_AUTH_USERNAME`` / ``_PASSWORD``, repo:usecases/config/environment.go,
  ``parseClusterConfig``): without them every endpoint of that API is open.
* **Binding.** The server runs in a network namespace of its own, reachable only through REST
  and gRPC on the host's 127.0.0.1 (:mod:`scanner.store.private_network`): its memberlist
  (gossip), Raft and Raft RPC ports take no key at all. Where no namespace can be made, REST,
  memberlist and Raft bind 127.0.0.1 (``--host``, ``CLUSTER_BIND_ADDR``, WEAVIATE.md §1) and
  the gRPC and cluster data listeners ``":port"`` (all interfaces, no setting for them;
  repo:adapters/handlers/grpc/server.go, repo:adapters/handlers/rest/clusterapi/serve.go):
  the key above guards REST, gRPC and the data API, nothing guards the rest
  (docs/weaviate.md).
* **Files.** The data directory is created 0700 (an existing one of this user is narrowed to
  0700), and the server is started under umask 077, so the segment files that hold memory text
  are 0600 and its directories 0700 (:func:`prepare_data_dir`, :func:`private_umask`).
* **Locks held by other users.** A lock file another user opened while the directory was still
  readable must never stall contrascan, however the lock was taken: :func:`held_by_another_user`
  tells a lock none of this user's processes holds (:func:`foreign_holders`, :func:`own_openers`),
  and no caller waits for one (:mod:`scanner.store.locks`, :mod:`scanner.store.embedded`).
* **Environment.** The server inherits the caller's environment (client:embedded.py ``start``
  copies ``os.environ``); :func:`scrubbed_environment` blanks every ``CONTRASCAN_*`` variable
  (the sidecar's ``CONTRASCAN_API_KEY`` among them) and the usual cloud credentials, so none of
  them reaches Weaviate's process.

Sources: ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0; ``client:PATH`` one of
weaviate-client 4.24.1; WEAVIATE.md is the project's Weaviate notes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path

import psutil

from scanner.errors import ConfigurationError

KEY_FILE_NAME = ".contrascan-weaviate.key"
"""File in the data dir holding the embedded server's API key (mode 0600)."""
SERVER_USER = "contrascan"
"""The one user the embedded server knows (``AUTHENTICATION_APIKEY_USERS``) and the cluster
API's basic-auth user name."""
KEY_BYTES = 32
"""Random bytes of a generated key (256 bits; :func:`secrets.token_urlsafe`)."""
_SECRET_NAMES = ("OPENAI_APIKEY", "OPENAI_API_KEY", "COHERE_APIKEY", "HUGGINGFACE_APIKEY",
                 "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_APIKEY",
                 "GOOGLE_APIKEY", "HF_TOKEN")
"""Credentials of other tools that Weaviate's modules would read; blanked like ours."""


def _narrow(path: Path, mode: int) -> None:
    """chmod ``path`` to ``mode`` when it is wider (group or other bits set) and ours."""
    st = path.stat()
    if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(path, mode)


def prepare_data_dir(data_dir: Path) -> Path:
    """Create the data directory private (0700), or narrow an existing one of this user.

    Missing parents are created 0700 too. Narrowing the top directory is enough to close an
    existing store: nobody else can reach the files below it, whatever their own modes.

    Args:
        data_dir: the embedded server's data directory (absolute).

    Returns:
        ``data_dir``.

    Raises:
        ConfigurationError: the directory belongs to another user (its key and memories
            would be that user's; contrascan never shares a store across users).
    """
    old = os.umask(0o077)
    try:
        data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    finally:
        os.umask(old)
    owner = data_dir.stat().st_uid
    if owner != os.getuid():
        raise ConfigurationError(
            "data-dir", f"{data_dir} belongs to user id {owner}, not to this user "
            f"({os.getuid()}); pass a --data-dir of your own")
    _narrow(data_dir, 0o700)
    return data_dir


def open_private(path: Path, flags: int = os.O_RDWR | os.O_CREAT) -> int:
    """``os.open`` with mode 0600, narrowing an existing file of this user to 0600."""
    fd = os.open(path, flags, 0o600)
    with contextlib.suppress(OSError):
        st = os.fstat(fd)
        if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, 0o600)
    return fd


def server_key(data_dir: Path) -> str:
    """The embedded server's API key, generated on the data directory's first start.

    Written with ``O_EXCL`` and mode 0600, so two processes starting at once agree on one key
    (the loser of the race reads the winner's). A key file readable by others is narrowed.

    Args:
        data_dir: the data directory (see :func:`prepare_data_dir`).

    Returns:
        The key: 43 URL-safe characters.

    Raises:
        ConfigurationError: the key file is empty, not a regular file or not this user's.
    """
    path = data_dir / KEY_FILE_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
    st = path.lstat()
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
        raise ConfigurationError("data-dir", f"{path} is not a regular file of this user")
    _narrow(path, 0o600)
    key = path.read_text(encoding="ascii", errors="replace").strip()
    if not key:
        raise ConfigurationError("data-dir", f"{path} is empty; remove it to make a new key")
    return key


def auth_environment(key: str) -> dict[str, str]:
    """Weaviate settings that turn anonymous access off and accept only ``key``.

    Returns:
        Env vars for the server (see the module docstring for their sources).
    """
    return {
        "AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED": "false",
        "AUTHENTICATION_APIKEY_ENABLED": "true",
        "AUTHENTICATION_APIKEY_ALLOWED_KEYS": key,
        "AUTHENTICATION_APIKEY_USERS": SERVER_USER,
        "CLUSTER_BASIC_AUTH_USERNAME": SERVER_USER,
        "CLUSTER_BASIC_AUTH_PASSWORD": key,
    }


def scrubbed_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Blank values for the caller's variables that must not reach Weaviate's process.

    The client starts the server with a copy of ``os.environ`` updated by the variables it is
    given (client:embedded.py ``start``), so a variable can only be overridden, not removed:
    an empty value leaks nothing and none of these is a Weaviate setting.

    Args:
        environ: the environment to scrub (default ``os.environ``).

    Returns:
        ``{name: ""}`` for every ``CONTRASCAN_*`` variable and known cloud credential present.
    """
    env = os.environ if environ is None else environ
    return {name: "" for name in env
            if name.startswith("CONTRASCAN_") or name in _SECRET_NAMES}


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Run the block under umask 077 (process-wide; the server inherits it when spawned in
    the block, so every file it creates is 0600 and every directory 0700)."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def process_uid(pid: int) -> int | None:
    """The real user id of ``pid``, or ``None`` when it is gone (psutil)."""
    try:
        return psutil.Process(pid).uids().real
    except psutil.Error:
        return None


def foreign_holders(pids: list[int] | None) -> list[int]:
    """The pids among ``pids`` that run as another user than this process."""
    me = os.getuid()
    return [pid for pid in pids or () if process_uid(pid) not in (me, None)]


def own_openers(path: Path) -> list[int] | None:
    """Pids of this user's other processes that have ``path`` open (psutil's open files of
    each), or ``None`` when that cannot be told."""
    try:
        target = path.stat()
        me, here = os.getuid(), os.getpid()
        processes = list(psutil.process_iter())
    except (OSError, psutil.Error):
        return None
    found = []
    for process in processes:
        if process.pid == here or process_uid(process.pid) != me:
            continue
        try:
            opened = process.open_files()
        except psutil.Error:
            continue
        for file in opened:
            try:
                st = os.stat(file.path)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) == (target.st_dev, target.st_ino):
                found.append(process.pid)
                break
    return found


def held_by_another_user(path: Path, holders: list[int] | None) -> bool:
    """Whether the ``flock`` that keeps this process from ``path`` is none of this user's.

    ``holders`` are the pids ``/proc/locks`` names for it (:func:`lock_holders`). A live
    process of this user among them (this one included: another of its descriptors) holds
    it: ours. All of them live processes of other users: theirs. A pid that is gone took the
    lock and handed its descriptor on (a shell's ``exec 9<>lock; flock 9``): the lock is then
    theirs when no other process of this user has the file open (:func:`own_openers`). No
    holder named (the lock was released meanwhile, or ``/proc/locks`` cannot be read):
    ``False``, try again."""
    if not holders:
        return False
    me = os.getuid()
    owners = [process_uid(pid) for pid in holders]
    if me in owners:
        return False
    if None not in owners:
        return True
    openers = own_openers(path)
    return openers is not None and not openers


def lock_holders(path: Path, mode: str) -> list[int] | None:
    """Pids holding a ``flock`` of ``mode`` (``"READ"`` = shared, ``"WRITE"`` = exclusive)
    on ``path``, from ``/proc/locks`` (Linux); ``None`` when that cannot be read."""
    try:
        st = path.stat()
        table = Path("/proc/locks").read_text()
    except OSError:
        return None
    wanted = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    pids = set()
    for line in table.splitlines():
        fields = line.split()  # "1: FLOCK  ADVISORY  WRITE 15833 fe:00:9977917 0 EOF"
        if len(fields) < 6 or fields[1:4] != ["FLOCK", "ADVISORY", mode]:
            continue
        try:
            major, minor, inode = fields[5].split(":")
            if (int(major, 16), int(minor, 16), int(inode)) == wanted:
                pids.add(int(fields[4]))
        except ValueError:
            continue
    return sorted(pids)
