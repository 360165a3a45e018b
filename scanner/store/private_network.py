"""Run the embedded Weaviate in a network namespace of its own, reachable only through REST
and gRPC on the host's loopback.

Weaviate 1.39 has four cluster listeners besides REST and gRPC, and binds them to TCP ports
(``CLUSTER_BIND_ADDR``, ``RAFT_PORT``, ...): memberlist gossip (TCP and UDP,
``CLUSTER_GOSSIP_BIND_PORT``), the cluster data API (``CLUSTER_DATA_BIND_PORT``, basic auth),
the Raft transport (``RAFT_PORT``; hashicorp/raft's ``NetworkTransport``, no authentication,
repo:cluster/store.go ``init``) and the internal Raft RPC server (``RAFT_INTERNAL_RPC_PORT``;
a plain ``grpc.NewServer`` whose ``Query`` and ``Apply`` list, create and delete collections
and tenants for any caller, repo:cluster/rpc/server.go ``Open``). None of them can be turned
off, put on a Unix socket or given a key, and a TCP port on 127.0.0.1 is open to every user of
the machine. A network namespace is the one place a non-root user can put a TCP port that no
one else reaches.

So the embedded server is started through this program: it binds REST and gRPC on the host's
loopback, moves itself into a new network namespace (``unshare(CLONE_NEWNET)``, inside a new
user namespace when it lacks ``CAP_SYS_ADMIN``: unprivileged user namespaces, Linux >= 3.8;
user_namespaces(7)), brings the namespace's loopback up and starts Weaviate there, where every
one of its listeners binds the namespace's own 127.0.0.1. It then copies bytes between each
connection to the host ports and a connection to the same port inside the namespace (REST and
gRPC keep their API key). Weaviate dials its own Raft RPC port when it restarts with state
(repo:cluster/service.go ``Open``, bootstrap joiner): inside the namespace that works as before.

Where no namespace can be made (not Linux; ``user.max_user_namespaces=0``; Ubuntu's
``kernel.apparmor_restrict_unprivileged_userns=1``), which a child process finds out first
(:func:`why_no_private_network`), it says why on standard error (the server's log) and execs
Weaviate in its place, in the host's network, as before
(:func:`scanner.store.embedded.connect_embedded` reports it).

Signals: SIGTERM, SIGINT and SIGHUP are passed on to Weaviate, whose exit ends this program
with the same status (128 + the signal's number when a signal ended it); should this program
die first, Weaviate receives SIGTERM (``PR_SET_PDEATHSIG``, prctl(2)).

Run as a program (by weaviate-client's embedded mode, through the script of
:func:`scanner.store.processes.launcher_dir`)::

    python -I -S private_network.py WEAVIATE_BINARY WEAVIATE_ARGS...

with ``--host`` and ``--port`` among the arguments and ``GRPC_PORT`` in the environment
(client:embedded.py ``start``). This module imports nothing from ``scanner`` so that it runs
without the package on the path.

Sources: ``repo:PATH`` is a file of weaviate/weaviate at tag v1.39.0; ``client:PATH`` one of
weaviate-client 4.24.1.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import signal
import socket
import struct
import subprocess
import sys
import threading

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
_PR_SET_PDEATHSIG = 1
_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1
_BUFFER_BYTES = 256 * 1024
_THREAD_STACK_BYTES = 512 * 1024
WARNING_PREFIX = "contrascan: no private network for Weaviate"
"""Start of the line written to standard error when Weaviate runs in the host's network."""


class NoNamespace(Exception):
    """No network namespace could be made here; the message says why."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(libc: ctypes.CDLL, flags: int) -> int:
    """0, or the errno of ``unshare(flags)``."""
    if libc.unshare(flags) == 0:
        return 0
    return ctypes.get_errno()


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def enter_private_network() -> str:
    """Move this (single-threaded) process into a new network namespace with loopback up.

    Tries ``unshare(CLONE_NEWNET)`` (needs ``CAP_SYS_ADMIN``), then
    ``unshare(CLONE_NEWUSER | CLONE_NEWNET)`` mapping this user and group to themselves
    (``/proc/self/setgroups`` ``deny`` first, user_namespaces(7)), so that files keep their
    owner. Sockets made before the call stay in the host's network.

    Returns:
        ``"network"`` or ``"user+network"``: the namespaces made.

    Raises:
        NoNamespace: not Linux, or both calls failed, or the loopback could not be raised.
    """
    if not sys.platform.startswith("linux"):
        raise NoNamespace(f"network namespaces are Linux only (this is {sys.platform})")
    try:
        libc = _libc()
    except OSError as err:
        raise NoNamespace(f"no C library: {err}") from err
    uid, gid = os.geteuid(), os.getegid()
    made = "network"
    code = _unshare(libc, CLONE_NEWNET)
    if code != 0:
        code = _unshare(libc, CLONE_NEWUSER | CLONE_NEWNET)
        if code != 0:
            raise NoNamespace(f"unshare(CLONE_NEWUSER|CLONE_NEWNET): {os.strerror(code)} "
                              "(unprivileged user namespaces are off: user.max_user_namespaces,"
                              " kernel.apparmor_restrict_unprivileged_userns)")
        made = "user+network"
        try:
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        except OSError as err:
            raise NoNamespace(f"cannot map user {uid} into the user namespace: {err}") from err
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            request = struct.pack("16sh22x", b"lo", 0)
            flags = struct.unpack_from("h", fcntl.ioctl(s, _SIOCGIFFLAGS, request), 16)[0]
            fcntl.ioctl(s, _SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", flags | _IFF_UP))
    except OSError as err:
        raise NoNamespace(f"cannot bring up the namespace's loopback: {err}") from err
    return made


def why_no_private_network() -> str | None:
    """Why :func:`enter_private_network` would fail here, or ``None`` when it works: it is
    tried in a child process first, since a failure after ``unshare`` (mapping the user,
    raising the loopback) would leave this process in a namespace of no use, with no way back
    for an unprivileged user (setns(2) needs ``CAP_SYS_ADMIN`` in the caller's own user
    namespace)."""
    if not sys.platform.startswith("linux"):
        return f"network namespaces are Linux only (this is {sys.platform})"
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: try, say why not, exit
        os.close(read_end)
        code = 0
        try:
            enter_private_network()
        except NoNamespace as err:
            os.write(write_end, str(err).encode())
            code = 1
        except BaseException as err:  # noqa: BLE001 - reported, never raised in the child
            os.write(write_end, f"{type(err).__name__}: {err}".encode())
            code = 1
        os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reason:
        said = reason.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return said or f"the trial exited with status {status}"


def _listener(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (SO_REUSEADDR, as Go's listeners)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, port))
    s.listen(1024)
    return s


class _Pair:
    """The two sockets of one forwarded connection, closed once both directions end."""

    def __init__(self, outer: socket.socket, inner: socket.socket):
        self.sockets = (outer, inner)
        self._open = 2
        self._lock = threading.Lock()

    def pump(self, src: socket.socket, dst: socket.socket) -> None:
        buffer = bytearray(_BUFFER_BYTES)
        view = memoryview(buffer)
        failed = False
        try:
            while True:
                n = src.recv_into(buffer)
                if not n:
                    break
                dst.sendall(view[:n])
        except OSError:
            failed = True
        with self._lock:
            self._open -= 1
            last = self._open == 0
        if failed or last:
            for s in self.sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            if last:
                for s in self.sockets:
                    s.close()
        else:
            try:
                dst.shutdown(socket.SHUT_WR)  # pass the end of one direction on
            except OSError:
                pass


def _start(target, *args) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


def _serve(listener: socket.socket, inner: tuple[str, int]) -> None:
    """Accept on ``listener`` (host network) and connect each client to ``inner`` (inside)."""
    while True:
        try:
            outer, _ = listener.accept()
        except OSError as err:
            if err.errno in (errno.EINTR, errno.ECONNABORTED, errno.EMFILE, errno.ENFILE):
                continue
            return
        try:
            inside = socket.create_connection(inner)
        except OSError:
            outer.close()  # not listening yet (starting) or any more (stopping)
            continue
        for s in (outer, inside):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        pair = _Pair(outer, inside)
        _start(pair.pump, outer, inside)
        _start(pair.pump, inside, outer)


def _option(args: list[str], name: str) -> str | None:
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def _die_with_parent(parent: int) -> None:
    """In Weaviate's process before exec: SIGTERM when this program's process ends."""
    _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it ended before the prctl
        os.kill(os.getpid(), signal.SIGTERM)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: private_network.py WEAVIATE_BINARY WEAVIATE_ARGS...", file=sys.stderr)
        return 2
    binary, args = argv[1], argv[2:]
    host = _option(args, "--host") or "127.0.0.1"
    ports = [int(p) for p in (_option(args, "--port"), os.environ.get("GRPC_PORT")) if p]
    reason = why_no_private_network()
    if reason is not None:
        print(f"{WARNING_PREFIX} ({reason}); its cluster ports listen on the host's loopback",
              file=sys.stderr, flush=True)
        os.execv(binary, [binary, *args])
    listeners = [_listener(host, port) for port in ports]  # in the host's network
    try:
        enter_private_network()
    except NoNamespace as err:  # it worked in the trial a moment ago
        print(f"contrascan: cannot start Weaviate in a network of its own: {err}",
              file=sys.stderr, flush=True)
        return 1
    me = os.getpid()
    weaviate = subprocess.Popen([binary, *args], preexec_fn=lambda: _die_with_parent(me))

    def pass_on(signum: int, _frame: object) -> None:
        try:
            weaviate.send_signal(signum)
        except ProcessLookupError:
            pass

    passed_on = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    for signum in passed_on:
        signal.signal(signum, pass_on)
    # Only this thread takes them: Python runs handlers in the main thread, and a signal that
    # a forwarding thread took would not interrupt the wait below (seen: SIGTERM ignored).
    # Threads inherit the mask of the thread that starts them.
    signal.pthread_sigmask(signal.SIG_BLOCK, passed_on)
    threading.stack_size(_THREAD_STACK_BYTES)
    for listener, port in zip(listeners, ports):
        _start(_serve, listener, (host, port))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, passed_on)
    code = weaviate.wait()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.stdout.flush()
    os._exit(main(sys.argv))
