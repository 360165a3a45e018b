"""Replication settings: the quorum rule, the config table, what collections are created with."""

from __future__ import annotations

import pytest

from scanner.config import load_settings
from scanner.errors import ConfigurationError
from scanner.store import replication
from scanner.store.replication import Consistency, ReplicationSettings


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
