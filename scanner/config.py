"""Scan configuration from a TOML or JSON file (``contrascan --config FILE …``).

Every table the scan depends on can be overridden here; whatever is not given keeps its
default (SPEC §1 "the table is configurable", §3 epoch declarations and named strategies)::

    [relations]
    functional = ["favorite team"]          # one value at a time
    multi_valued = ["hobby"]                # many values; never a value conflict
    safety = ["deploy window"]              # conflicts always escalate to a person
    [relations.synonyms]
    "squad" = "team"
    similarity = false                      # match unknown relation phrases by embedding
    similarity_threshold = 0.75             # cosine; such matches only give `possible`
    [relations.strategies]                  # provenance | confidence | weighted | manual_review
    "preferred color" = "confidence"

    [aliases]                               # resolved before comparison
    bob = "robert"

    [epochs]
    single_epoch = false                    # records without an epoch share one world state
    epoch_property = "deploy_id"            # or read the epoch from this scope property
    max_clock_skew_s = 300                  # observed_at this far past the clock still counts

    [extraction]
    pattern_packs = ["counterfact-train"]   # opt-in packs learned from a data set (none by default)
    state_changes = "my_changes.toml"       # more state-change rows (extractors/data/state_changes.toml)

    [[patterns]]                            # extra extraction patterns, ParaRel slot syntax
    relation = "place of birth"
    pattern = "[X] hails from [Y]."

    [replication]                           # on a Weaviate cluster (docs/cluster.md)
    factor = 3                              # replicas of every tenant (new collections)
    write_consistency = "QUORUM"            # QUORUM | ALL: imports, verdicts, statuses
    read_consistency = "QUORUM"             # QUORUM | ALL: the reads scans decide on
    async_frequency_ms = 5000               # replicas compare hash trees this often
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from extractors import DEFAULT_TABLE
from scanner.core.keys import AliasTable
from scanner.core.policy_config import DEFAULT_CLOCK_SKEW_S, PolicyConfig, Strategy
from scanner.errors import ConfigurationError, faults
from scanner.scan import ScanConfig
from scanner.store.replication import ReplicationSettings


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RelationSettings(_Strict):
    """The ``[relations]`` table."""

    functional: list[str] = Field(default_factory=list)
    multi_valued: list[str] = Field(default_factory=list)
    safety: list[str] = Field(default_factory=list)
    synonyms: dict[str, str] = Field(default_factory=dict)
    strategies: dict[str, Strategy] = Field(default_factory=dict)
    similarity: bool = False
    similarity_threshold: float | None = Field(default=None, ge=-1.0, le=1.0)


class EpochSettings(_Strict):
    """The ``[epochs]`` table."""

    single_epoch: bool = False
    epoch_property: str | None = None
    max_clock_skew_s: float = Field(default=DEFAULT_CLOCK_SKEW_S, ge=0.0)


class ExtractionSettings(_Strict):
    """The ``[extraction]`` table."""

    pattern_packs: list[str] = Field(default_factory=list)
    state_changes: str | None = None
    """A TOML file of more state-change rows (format of extractors/data/state_changes.toml)."""

    @field_validator("pattern_packs")
    @classmethod
    def _known_packs(cls, value: list[str]) -> list[str]:
        from extractors.lexicon import PATTERN_PACKS

        unknown = [v for v in value if v not in PATTERN_PACKS]
        if unknown:
            raise ValueError(f"unknown pattern pack(s) {unknown}; known: {sorted(PATTERN_PACKS)}")
        return value


class PatternSetting(_Strict):
    """One ``[[patterns]]`` entry."""

    relation: str = Field(min_length=1)
    pattern: str

    @field_validator("pattern")
    @classmethod
    def _has_slots(cls, value: str) -> str:
        if "[X]" not in value or "[Y]" not in value:
            raise ValueError("a pattern needs both slots [X] and [Y]")
        return value


class Settings(_Strict):
    """A whole configuration file."""

    relations: RelationSettings = Field(default_factory=RelationSettings)
    aliases: dict[str, str] = Field(default_factory=dict)
    epochs: EpochSettings = Field(default_factory=EpochSettings)
    patterns: list[PatternSetting] = Field(default_factory=list)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)
    replication: ReplicationSettings = Field(default_factory=ReplicationSettings)
    """Replication factor and consistency levels (:mod:`scanner.store.replication`)."""

    def scan_config(self, *, single_epoch: bool = False,
                    recency_override: bool = False) -> ScanConfig:
        """The :class:`ScanConfig` these settings describe; the flags can only add to them."""
        r = self.relations
        table = DEFAULT_TABLE.with_overrides(functional=r.functional,
                                             multi_valued=r.multi_valued,
                                             synonyms=r.synonyms, safety=r.safety)
        policy = PolicyConfig(single_epoch=single_epoch or self.epochs.single_epoch,
                              epoch_property=self.epochs.epoch_property,
                              recency_override=recency_override,
                              safety_relations=frozenset(r.safety),
                              strategies=dict(r.strategies),
                              max_clock_skew_s=self.epochs.max_clock_skew_s)
        return ScanConfig(table=table, aliases=AliasTable(self.aliases), policy=policy,
                          extra_patterns=tuple((p.relation, p.pattern) for p in self.patterns),
                          relation_similarity=r.similarity,
                          relation_similarity_threshold=r.similarity_threshold,
                          pattern_packs=tuple(self.extraction.pattern_packs),
                          state_changes=self.extraction.state_changes)


def load_settings(path: str | Path) -> Settings:
    """Read a ``.toml`` or ``.json`` configuration file.

    Raises:
        ConfigurationError: the file cannot be read or parsed, or a field is invalid (the
            message names the field).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
        data = json.loads(raw) if path.suffix.lower() == ".json" else tomllib.loads(
            raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigurationError(str(path), f"cannot read: {err}") from err
    try:
        return Settings.model_validate(data)
    except ValidationError as err:
        field, reason, _ = faults(err.errors(), field=lambda loc: ".".join(map(str, loc)),
                                  reason=lambda e: e["msg"])
        raise ConfigurationError(f"{path}: {field}", reason) from err
