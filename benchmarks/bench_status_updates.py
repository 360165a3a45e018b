"""Status merge updates: the store's own keep-alive PATCH requests against the client's
``data.update`` (:mod:`scanner.store.status_updates`).

Weaviate has no batch merge update, so a batch scan writes every status change as one PATCH.
On a loopback server the store sends them on its own connections
(:class:`~scanner.store.status_updates.LoopbackPatcher`); this measures whether that is still
worth its code against the client's ``data.update``, the path every other server takes.

What is measured: ``--objects`` (3,000) memories in one tenant of a throw-away embedded
Weaviate (the pinned version, temporary data dir, free ports), all of them given a new status
by :func:`scanner.store.status_updates.update_many` with ``--workers`` (8) threads, once
through a client this package made (loopback: our connections) and once through a plain
``weaviate.connect_to_local`` client of the same server (the package does not know it, so it
takes ``data.update``). ``--rounds`` (5) rounds alternate the two and flip the status each
time, so every update changes the object; the median seconds of each are reported, with their
ratio (``primary_metric``: ``client_over_patch``) and the load average (the machine may be
shared). Results go to ``results/status_updates/<UTC stamp>.json``.

Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.bench_status_updates [--objects 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.provenance import REPO, git_state, package_versions

RESULTS = REPO / "results" / "status_updates"
USER = "bench-status"


class StatusUpdateEvaluator:
    """Median seconds of each way to send the updates, and their ratio."""

    primary_metric = "client_over_patch"

    def evaluate(self, seconds: dict[str, list[float]]) -> dict[str, Any]:
        """``seconds``: ``{"patch": [...], "client": [...]}``, one value per round."""
        patch, client = (statistics.median(seconds[k]) for k in ("patch", "client"))
        return {"patch_median_s": round(patch, 3), "client_median_s": round(client, 3),
                self.primary_metric: round(client / patch, 2), "rounds": seconds}


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print the figures; exit 1 when no server binary is found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--objects", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)

    import weaviate
    from weaviate.classes.data import DataObject
    from weaviate.classes.init import Auth

    from scanner.store import access, server
    from scanner.store.memories import MemoryStore
    from scanner.store.status_updates import update_many
    from scanner.store.tenants import object_uuid, open_tenant

    if server.ensure_binary() is None:
        print("no weaviate-server binary: run `make setup`", file=sys.stderr)
        return 1
    data_dir = Path(tempfile.mkdtemp(prefix="contrascan-bench-status-"))
    port, grpc_port = server.free_ports()
    owner = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    load_before = os.getloadavg()
    try:
        store = MemoryStore(owner, "BenchStatus")
        store.ensure_schema()
        col = open_tenant(owner, store.name, USER, set(), create=True)
        rng = np.random.default_rng(0)
        ids = [f"m{i}" for i in range(args.objects)]
        objects = [DataObject(properties={"memory_id": m, "text": f"memory {m}",
                                          "user_id": USER, "status": "active"},
                              vector=rng.standard_normal(384).astype(np.float32).tolist(),
                              uuid=object_uuid(USER, m)) for m in ids]
        for start in range(0, len(objects), 500):
            col.data.insert_many(objects[start:start + 500])
        plain = weaviate.connect_to_local(port=port, grpc_port=grpc_port, skip_init_checks=True,
                                          auth_credentials=Auth.api_key(
                                              access.server_key(data_dir)))
        try:
            ways = {"patch": (owner, col), "client": (plain, plain.collections.use(store.name)
                                                     .with_tenant(col.tenant))}
            if server.rest_endpoint(owner) is None or server.rest_endpoint(plain) is not None:
                raise RuntimeError("the two clients do not take the two paths")
            seconds: dict[str, list[float]] = {"patch": [], "client": []}
            flips = 0
            for _ in range(args.rounds):
                for name, (client, handle) in ways.items():
                    flips += 1
                    status = "unresolved" if flips % 2 else "active"
                    started = time.perf_counter()
                    update_many(client, handle, USER, [(m, {"status": status}) for m in ids],
                                args.workers)
                    seconds[name].append(round(time.perf_counter() - started, 3))
        finally:
            plain.close()
    finally:
        owner.close()
    result = StatusUpdateEvaluator().evaluate(seconds)
    out = args.out or RESULTS / (datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ") + ".json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({
        **result, "objects": args.objects, "workers": args.workers,
        "weaviate": server.WEAVIATE_VERSION,
        "packages": package_versions(["weaviate-client", "httpx"]),
        "git": git_state(), "load_before": load_before, "load_after": os.getloadavg(),
    }, indent=1) + "\n")
    print(f"{args.objects} status updates, {args.workers} threads, median of {args.rounds}: "
          f"store's keep-alive PATCH {result['patch_median_s']} s, client data.update "
          f"{result['client_median_s']} s (x{result['client_over_patch']}); load "
          f"{load_before[0]:.1f}; {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
