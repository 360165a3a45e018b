"""Data shapes of the contract (SPEC §4 memory record, SPEC §5 scan report).

Every model is a frozen pydantic model: the pure core (grouping, detection, policy) receives
them and returns new objects, never mutating its inputs. Timestamps are timezone-aware UTC;
naive timestamps are rejected rather than guessed (SPEC §4).
"""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import (AwareDatetime, BaseModel, ConfigDict, Field, ValidationInfo,
                      field_validator)

MAX_TEXT_CHARS = 20_000
"""Longest memory text accepted, in characters (a memory is a statement, not a document)."""
MAX_SOURCE_CHARS = 1_024
"""Longest ``source`` accepted, in characters: a record's own, or one a mapping or the CLI
declares for records that name none (``--declare-source``)."""
MAX_SAFE_INTEGER = 2**53 - 1
"""Largest ``priority`` magnitude accepted: the largest integer n such that n and n + 1 are
both exact IEEE 754 doubles (ECMAScript's ``Number.MAX_SAFE_INTEGER``). Weaviate stores ``INT``
as int64, but its REST API and JSON clients carry numbers as float64, so a larger value comes
back rounded (2**53 + 1 reads 2**53) and 2**63 - 1 is not stored at all (issue 18)."""


class SourceClass(str, enum.Enum):
    """Who stands behind a statement, in trust order (seed 000, SPEC §1).

    ``observation`` (a direct tool or sensor reading) > ``user`` (a person's statement or
    recollection) > ``inference`` (something an agent concluded).
    """

    observation = "observation"
    user = "user"
    inference = "inference"

    @property
    def rank(self) -> int:
        """Trust rank: observation 3, user 2, inference 1 (higher is more trusted)."""
        return {"observation": 3, "user": 2, "inference": 1}[self.value]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MemoryRecord(_Frozen):
    """One stored statement with its scope and provenance (SPEC §4).

    ``id``, ``text`` and ``user_id`` are required. Provenance fields (``source``,
    ``observed_at``, ``epoch``) are optional on input because real stores lack them; a record
    without them can never win a conflict (SPEC §3 row 1). ``source_class`` defaults to
    ``inference``, the least trusted class, as seed 000 does for records of unknown origin.
    Every optional field may be given as JSON ``null``, which means absent: its default.
    """

    id: str = Field(min_length=1, max_length=256)
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    user_id: str = Field(min_length=1, max_length=256)
    group: str | None = Field(default=None, max_length=256)
    properties: dict[str, str] = Field(default_factory=dict)
    source: str | None = Field(default=None, max_length=MAX_SOURCE_CHARS)
    source_class: SourceClass = SourceClass.inference
    observed_at: AwareDatetime | None = None
    epoch: str | None = Field(default=None, max_length=256)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0, strict=True,
                                     allow_inf_nan=False)
    priority: int | None = Field(default=None, ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER,
                                 strict=True)
    source_trust: float | None = Field(default=None, ge=0.0, le=1.0, strict=True,
                                       allow_inf_nan=False)

    @field_validator("source_class", "properties", mode="before")
    @classmethod
    def _null_is_absent(cls, value: Any, info: ValidationInfo) -> Any:
        """``null`` for an optional field with a non-null default is that default, as it is
        for the fields whose default is ``None`` (SPEC §4 requires only id, text, user_id)."""
        if value is None and info.field_name is not None:
            return cls.model_fields[info.field_name].get_default(call_default_factory=True)
        return value

    @field_validator("id", "text", "user_id", "group", "source", "epoch")
    @classmethod
    def _unicode_text(cls, value: str | None) -> str | None:
        if value is not None:
            check_unicode(value)
        return value

    @field_validator("properties")
    @classmethod
    def _unicode_properties(cls, value: dict[str, str]) -> dict[str, str]:
        for key, item in value.items():
            check_unicode(key, f"key {printable(key)}")
            check_unicode(item, f"value of {printable(key)}")
        return value

    @field_validator("text", "id", "user_id")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is blank")
        return value

    @field_validator("source", "epoch", "group")
    @classmethod
    def _blank_is_missing(cls, value: str | None) -> str | None:
        return value if value is None or value.strip() else None

    @field_validator("observed_at")
    @classmethod
    def _to_utc(cls, value: datetime | None) -> datetime | None:
        try:
            return value.astimezone(timezone.utc) if value is not None else None
        except OverflowError as err:  # 0001-01-01T00:00:00+01:00 is year 0 in UTC
            raise ValueError("timestamp out of range once converted to UTC "
                             "(0001-01-01 .. 9999-12-31)") from err

    def missing_provenance(self) -> list[str]:
        """Names of the provenance fields this record lacks, in SPEC order."""
        return [f for f in ("source", "observed_at", "epoch") if getattr(self, f) is None]

    def scope(self) -> Scope:
        """The scope this record lives in: two records conflict only inside one scope.

        Built without re-validation: every field comes from this already validated record
        (grouping calls it once per record, so a batch scan calls it for every memory). Equal
        scopes are one shared object (records of a user share few scopes), so grouping keys
        compare by identity before they compare field by field."""
        properties = tuple(sorted(self.properties.items()))
        key = (self.user_id, self.group, properties)
        found = _SCOPES.get(key)
        if found is None:
            if len(_SCOPES) >= _SCOPES_KEPT:
                _SCOPES.clear()
            found = _SCOPES[key] = Scope.model_construct(user_id=self.user_id, group=self.group,
                                                         properties=properties)
        return found


def check_unicode(value: str, what: str = "text") -> None:
    """Reject a string that is not valid Unicode text: one holding a lone surrogate
    (``"\\ud800"`` decodes from JSON but cannot be encoded as UTF-8, so no store, terminal
    or JSON writer can take it).

    Raises:
        ValueError: naming ``what`` and the position of the first bad code point.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"{what} holds a lone surrogate (U+{ord(value[err.start]):04X} at "
                         f"character {err.start + 1}), which is not valid Unicode") from None


def printable(value: str) -> str:
    """``value`` quoted, with lone surrogates and control characters escaped (safe to print
    and to encode as UTF-8)."""
    return ascii(value) if not value.isprintable() or _has_surrogate(value) else repr(value)


def _has_surrogate(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class Scope(_Frozen):
    """``(user_id, group, properties)``; hashable so it can be part of a grouping key."""

    user_id: str
    group: str | None = None
    properties: tuple[tuple[str, str], ...] = ()


_SCOPES: dict[tuple, Scope] = {}
"""Scopes handed out by :meth:`MemoryRecord.scope`, by ``(user_id, group, properties)``."""
_SCOPES_KEPT = 4096
"""Most scopes kept in :data:`_SCOPES` (all are forgotten at once when it is full)."""


class ConflictKey(_Frozen):
    """The key a conflict is about: scope + canonical subject + canonical relation (SPEC §5)."""

    user_id: str
    group: str | None = None
    properties: dict[str, str] = Field(default_factory=dict)
    subject: str
    relation: str


ConflictKind = Literal["value_mismatch", "polarity"]
Verdict = Literal["resolved", "quarantined", "epoch_change", "escalated", "possible"]
Severity = Literal["low", "medium", "high"]


class Conflict(_Frozen):
    """One conflicting pair and what was decided about it (SPEC §5)."""

    key: ConflictKey
    kind: ConflictKind
    members: list[str]
    values: dict[str, str]
    verdict: Verdict
    winner: str | None = None
    superseded: list[str] = Field(default_factory=list)
    latest: str | None = None
    rule: str | None = None
    reasons: list[str] = Field(default_factory=list)
    severity: Severity = "low"
    inputs: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="The provenance fields the policy read, per member id.")
    config: dict[str, Any] = Field(
        default_factory=dict,
        description="The policy configuration the verdict ran under (strategy, declarations).")
    question: str | None = Field(
        default=None,
        description="For an unresolved pair: a short question the agent can ask the user.")
    recommended: str | None = Field(
        default=None,
        description="For an escalated pair: the member the default table would keep.")
    settled_by: str | None = Field(
        default=None,
        description="A later record that settled this quarantined or epoch-change pair by "
                    "re-observation; ``superseded`` then lists the members it retired.")


class EpochChangeEvent(_Frozen):
    """A value that changed across world-state epochs (SPEC §3 row 3)."""

    type: Literal["epoch_change"] = "epoch_change"
    key: ConflictKey
    from_: dict[str, Any] = Field(alias="from")
    to: dict[str, Any]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class RejectedLine(_Frozen):
    """An input line that was not scanned, and why."""

    line: int
    id: str | None = None
    field: str
    reason: str


class ScanReport(_Frozen):
    """What a scan found (SPEC §5). Ids are sorted so reports diff cleanly.

    ``cite``: safe to use as current; ``withhold``: superseded; ``unresolved``: members of
    quarantined, epoch-change and escalated pairs. ``declared``: what the store the memories
    come from declares instead of stating it (SPEC §3's declared epoch; an attached source's
    preset, docs/attached-sources.md): ``declared:single_epoch``,
    ``declared:source=<value>``, ``declared:observed_at=<property>``, in every report of such
    a store whether or not it holds a conflict (each verdict's ``reasons`` carry them too).
    """

    scanned: int
    conflicts: list[Conflict] = Field(default_factory=list)
    duplicates: list[list[str]] = Field(default_factory=list)
    cite: list[str] = Field(default_factory=list)
    withhold: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)
    events: list[EpochChangeEvent] = Field(default_factory=list)
    rejected: list[RejectedLine] = Field(default_factory=list)
    declared: list[str] = Field(default_factory=list, exclude_if=lambda names: not names)
    """Left out of every dump when empty, so reports of stores that declare nothing keep the
    SPEC §5 shape."""

    def to_json_dict(self) -> dict[str, Any]:
        """The report as plain JSON types, with ``from`` spelled as in SPEC §5."""
        return self.model_dump(mode="json", by_alias=True)
