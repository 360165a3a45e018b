"""Replication settings: the quorum rule, the config table, what collections are created with;
the retries of a schema call while a cluster elects a Raft leader (``through_election``; the
cluster itself is exercised by tests/integration/test_cluster.py)."""

from __future__ import annotations

import time

import pytest
from weaviate.exceptions import WeaviateBaseError

from scanner.config import load_settings
from scanner.errors import ConfigurationError
from scanner.store import replication
from scanner.store.replication import Consistency, ReplicationSettings, through_election


@pytest.mark.parametrize("level, factor, replicas", [
    ("ONE", 3, 1), ("QUORUM", 3, 2), ("ALL", 3, 3),
    ("QUORUM", 1, 1), ("QUORUM", 4, 3), ("QUORUM", 5, 3), ("ALL", 5, 5),
])
def test_levels_count_replicas(level, factor, replicas):
    assert Consistency(level).replicas(factor) == replicas


@pytest.mark.parametrize("factor, read, write, ok", [
    (3, "QUORUM", "QUORUM", True),   # 2 + 2 > 3
    (3, "ONE", "ALL", False),        # ALL is acknowledged by 2 of 3 once a node is dead
    (3, "QUORUM", "ALL", True),
    (2, "ONE", "QUORUM", True),      # 1 + 2 > 2
    (3, "ONE", "QUORUM", False),     # 1 + 2 = 3: a read may miss the write
    (4, "QUORUM", "QUORUM", True),   # 3 + 3 > 4
    (1, "ONE", "QUORUM", True),      # one node: every level is the one replica
])
def test_read_and_write_sets_must_overlap(factor, read, write, ok):
    if ok:
        s = ReplicationSettings(factor=factor, read_consistency=read, write_consistency=write)
        assert s.read_consistency.replicas(factor) + s.write_consistency.replicas(factor) > factor
    else:
        with pytest.raises(ValueError, match="do not overlap"):
            ReplicationSettings(factor=factor, read_consistency=read, write_consistency=write)


def test_writes_at_one_are_refused():
    with pytest.raises(ValueError, match="write_consistency ONE"):
        ReplicationSettings(factor=3, write_consistency="ONE", read_consistency="ALL")


def test_the_config_table_is_read_and_a_bad_field_is_named(tmp_path):
    good = tmp_path / "cluster.toml"
    good.write_text('[replication]\nfactor = 3\nwrite_consistency = "ALL"\n'
                    'async_frequency_ms = 2000\n')
    settings = load_settings(good).replication
    assert (settings.factor, settings.write_consistency, settings.read_consistency,
            settings.async_frequency_ms) == (3, Consistency.ALL, Consistency.QUORUM, 2000)
    bad = tmp_path / "bad.toml"
    bad.write_text('[replication]\nfactor = 3\nread_consistency = "SOME"\n')
    with pytest.raises(ConfigurationError, match="replication.read_consistency"):
        load_settings(bad)


def test_collections_get_the_configured_factor_and_unconfigured_clients_the_default():
    class Client:  # a stand-in key for the per-client registry; never sent a request
        pass

    plain, clustered = Client(), Client()
    replication.configure(clustered, ReplicationSettings(factor=3, async_frequency_ms=1500))
    assert replication.settings_of(plain) == replication.DEFAULT
    assert replication.replication_config(plain) is None  # the server's default, factor 1
    config = replication.replication_config(clustered)
    assert config.factor == 3 and config.asyncConfig.frequency == 1500


NO_LEADER = "get tenants: failed to execute query: grpc: the client connection is closing"


def _failing(times: int, message: str = NO_LEADER):
    """``(calls, call)``: ``call`` fails ``times`` times with ``message``, then returns its
    argument; ``calls[0]`` counts the calls."""
    calls = [0]

    def call(value: str = "ok") -> str:
        calls[0] += 1
        if calls[0] <= times:
            raise WeaviateBaseError(message)
        return value

    return calls, call


def test_a_call_without_a_leader_is_retried_until_it_succeeds():
    calls, call = _failing(2)
    start = time.monotonic()
    assert through_election(call, value="done") == "done"
    assert calls == [3]
    assert time.monotonic() - start >= 0.2 + 0.4  # backs off 0.2 s, then twice as long


def test_another_failure_is_raised_at_once():
    calls, call = _failing(1, "unauthorized: wrong API key")
    with pytest.raises(WeaviateBaseError, match="unauthorized"):
        through_election(call)
    assert calls == [1]


def test_no_leader_past_the_wait_is_raised_after_one_retry_at_least():
    calls, call = _failing(100)
    with pytest.raises(WeaviateBaseError, match="connection is closing"):
        through_election(call, wait_s=0.0)
    assert calls == [2]
    calls, call = _failing(100)
    start = time.monotonic()
    with pytest.raises(WeaviateBaseError):
        through_election(call, wait_s=0.5)
    assert time.monotonic() - start >= 0.5 and calls[0] < 100  # retried through the wait only
