"""Defaults shared by the CLI, the HTTP API and its client, attached sources and the service:
each is defined here once and imported wherever it is a default.

Only plain values: importing this module loads nothing else (the CLI reads it at start-up).
"""

DEFAULT_LIMIT = 12
"""Hits per read-time scan (seed 004 searches with ``limit=12``)."""
DEFAULT_ALPHA = 0.5
"""Hybrid weight: 0 = BM25 only, 1 = vector only; 0.5 weighs the two equally."""
DEFAULT_HOST = "127.0.0.1"
"""Interface ``contrascan serve`` listens on (loopback: nothing outside the machine)."""
DEFAULT_PORT = 8765
"""Port of ``contrascan serve`` (and the client's default base URL)."""
DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
"""Default cap on a request body of the sidecar, in bytes (413 beyond it)."""
