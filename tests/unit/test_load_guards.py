"""Load guards that need no server (issue 18 items 12-13): a metrics scrape never computes the
store statistics itself, and every embedding entry point bounds torch's threads."""

from __future__ import annotations

import os
import threading

import torch
from prometheus_client import CollectorRegistry, generate_latest

from scanner.embeddings import Embedder, compute_threads
from scanner.ledger import compute_stats
from scanner.metrics import StoreStatsCollector


def test_a_scrape_returns_at_once_while_one_background_refresh_runs():
    gate, calls = threading.Event(), []

    def slow_stats():
        calls.append(1)
        gate.wait()
        return compute_stats([], {})

    collector = StoreStatsCollector(slow_stats, ttl_s=60)
    registry = CollectorRegistry()
    registry.register(collector)
    scrapes = [threading.Thread(target=generate_latest, args=(registry,)) for _ in range(20)]
    for t in scrapes:
        t.start()
    for t in scrapes:
        t.join(timeout=30)
    blocked = [t for t in scrapes if t.is_alive()]
    gate.set()
    assert blocked == []  # no scrape waited for the computation
    assert len(calls) == 1  # one refresh for twenty scrapes


def test_the_refreshed_figures_are_served_once_computed():
    collector = StoreStatsCollector(lambda: compute_stats([], {}), ttl_s=60)
    registry = CollectorRegistry()
    registry.register(collector)
    collector.refresh_now()
    assert b"contrascan_store_open_pairs 0.0" in generate_latest(registry)


def test_embedding_bounds_torch_threads():
    Embedder().encode(["one short query"])
    assert torch.get_num_threads() == compute_threads()
    expected = int(os.environ["OMP_NUM_THREADS"]) if os.environ.get(
        "OMP_NUM_THREADS", "").isdigit() else 1
    assert compute_threads() == expected
