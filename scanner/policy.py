"""The resolution policy: one verdict per conflicting pair (SPEC §3, seed 000, seed 001).

Rows are evaluated in order and the first that applies decides:

1. a relation matched by embedding similarity only, or of unknown cardinality ->
   ``possible`` (reported, never auto-resolved; SPEC §1 and §2: similarity never decides);
2. either record lacks ``source``, ``observed_at`` or ``epoch`` -> ``quarantined``
   (``missing_provenance:<field>@<id>``; seed 000 condition 1);
2b. either record is observed after the scan's clock by more than the allowed skew ->
   ``quarantined`` (``future_observed_at:<id>``): a time that has not happened yet is not
   provenance, and would otherwise win every recency decision (issue 18);
3. one subject only a short form of the other -> ``quarantined`` (``subject_unconfirmed``;
   seed 000 condition 3);
4. epochs differ -> ``epoch_change`` (both kept; the later one is ``latest``, not a winner;
   seed 000 "Cross-epoch");
5. the relation is a declared safety rule -> ``escalated`` with a recommended resolution
   (seed 004 "For safety rules, escalate instead of auto-picking");
6. a named alternative strategy configured for the relation (seed 001: confidence, weighted
   recency+confidence, manual review) decides, and is recorded as the rule;
7. an explicit recency override from the caller -> ``resolved``, rule ``recency_override``
   (seed 000 condition 4: a discard "explicitly logged as a recency-based override");
8. source classes differ -> ``resolved``, rule ``source_class``: the higher class wins even if
   older (seed 000 "Recency is a tiebreaker, not a trust ordering");
9. ``observed_at`` differ -> ``resolved``, rule ``recency``;
10. otherwise -> ``quarantined`` (``tie``).

Every verdict carries its ``rule``, its ``inputs`` (the provenance it read), the ``config`` it
ran under and its ``severity``; unresolved verdicts carry a clarification ``question`` and
escalations a ``recommended`` member.

Settlement (:func:`settle_conflicts`): a quarantine (``missing_provenance`` or ``tie``) or an
epoch change is the request to re-observe the key (seed 000: "quarantined as an unresolved
contradiction and re-observed against the live world before any write"). A later record of the
same key with intact provenance, at least as trusted as both members and observed after both
(in the later member's epoch), is that re-observation: it settles the pair, retiring the members
it contradicts with rule ``reobservation``. The pair keeps its verdict, so both steps stay
visible. A record never settles a pair it belongs to: a pair nothing settles whose member a
settlement of another pair retired is *moot* (:func:`scanner.report.is_moot`), neither settled nor open.

``decide`` and ``settle_conflicts`` are pure: they read frozen records and return new
:class:`Conflict` objects.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from extractors import Cardinality
from scanner.detect import CandidatePair, Stance, contested, stances
from scanner.keys import Assertion, GroupKey
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, Severity
from scanner.report import MOOT

REOBSERVATION = "reobservation"
"""The rule recorded when a later record settles a quarantined or epoch-change pair."""
SETTLEABLE_RULES = frozenset({"missing_provenance", "tie", "epoch_change"})
"""Rules whose pairs a re-observation can settle (identity questions and human reviews
cannot be settled by another observation of the value)."""
FIRST_PERSON = frozenset({"user", "i", "me", "my", "we", "us", "our"})
DEFAULT_CLOCK_SKEW_S = 300.0
"""Seconds an ``observed_at`` may lie after the scan's clock and still count (5 minutes:
Kerberos' default maximum clock skew, RFC 4120 §1.6, a common bound for unsynchronised
clocks)."""


class Strategy(str, enum.Enum):
    """Named resolution strategies selectable per relation (seed 001)."""

    provenance = "provenance"
    """The default table: source class, then recency."""
    confidence = "confidence"
    """Higher ``confidence`` wins; equal confidence falls back to the default table."""
    weighted = "weighted"
    """0.6 x recency + 0.4 x confidence (seed 001's hybrid weights)."""
    manual_review = "manual_review"
    """Never decided automatically: escalated to a person."""


class PolicyConfig(BaseModel):
    """Everything a verdict depends on besides the two records; recorded with each verdict.

    Attributes:
        single_epoch: the store has no epochs and declares all records to share one; a
            missing ``epoch`` then does not quarantine.
        epoch_property: name of the record property the epoch is read from, when declared.
        recency_override: the caller asks for recency to decide within an epoch, ignoring
            source class (logged as ``recency_override``).
        safety_relations: relations whose conflicts always escalate.
        strategies: relation -> named strategy.
        recency_weight, confidence_weight: weights of the ``weighted`` strategy.
        now: the scan's clock (UTC); a record observed after ``now + max_clock_skew_s`` never
            wins, its pairs are quarantined. ``None`` = no check (scan functions fill it in
            with the current time, :func:`scanner.scan.scan_records`).
        max_clock_skew_s: seconds an ``observed_at`` may lie ahead of ``now``.
        declared: further declarations of the store the records come from (e.g. an attached
            source's ``declared:observed_at=created_at``), recorded in every verdict.
    """

    model_config = ConfigDict(frozen=True)

    single_epoch: bool = False
    epoch_property: str | None = None
    recency_override: bool = False
    safety_relations: frozenset[str] = frozenset()
    strategies: dict[str, Strategy] = Field(default_factory=dict)
    recency_weight: float = 0.6
    confidence_weight: float = 0.4
    now: datetime | None = None
    max_clock_skew_s: float = Field(DEFAULT_CLOCK_SKEW_S, ge=0.0)
    declared: tuple[str, ...] = ()

    def is_future(self, record: MemoryRecord) -> bool:
        """Whether ``record`` is observed after ``now`` plus the allowed skew."""
        return (self.now is not None and record.observed_at is not None
                and (record.observed_at - self.now).total_seconds() > self.max_clock_skew_s)

    def for_relation(self, relation: str) -> dict[str, Any]:
        """The settings a verdict about ``relation`` ran under, as recorded with it.

        Returns:
            ``strategy``, ``single_epoch``, ``epoch_property``, ``recency_override``,
            ``safety_relation`` and, for the ``weighted`` strategy, its ``weights``.
        """
        strategy = self.strategies.get(relation, Strategy.provenance)
        out: dict[str, Any] = {"strategy": strategy.value, "single_epoch": self.single_epoch,
                               "epoch_property": self.epoch_property,
                               "recency_override": self.recency_override,
                               "safety_relation": relation in self.safety_relations}
        if strategy is Strategy.weighted:
            out["weights"] = {"recency": self.recency_weight,
                              "confidence": self.confidence_weight}
        return out

    def declarations(self) -> list[str]:
        """The epoch declarations that verdicts must carry (SPEC §3, last paragraph)."""
        out = []
        if self.single_epoch:
            out.append("declared:single_epoch")
        if self.epoch_property:
            out.append(f"declared:epoch_property={self.epoch_property}")
        out.extend(self.declared)
        return out


def epoch_of(record: MemoryRecord, config: PolicyConfig) -> str | None:
    """The record's epoch, or the declared single epoch, or None."""
    if record.epoch is not None:
        return record.epoch
    if config.epoch_property and config.epoch_property in record.properties:
        return record.properties[config.epoch_property]
    return "single_epoch" if config.single_epoch else None


def severity(a: MemoryRecord, b: MemoryRecord) -> Severity:
    """low / medium / high from confidence and time divergence (seed 001).

    ``high``: both confidences > 0.8 and observations more than 7 days apart; ``medium``:
    both > 0.6; else ``low``. A missing confidence counts as 0.5.
    """
    ca = a.confidence if a.confidence is not None else 0.5
    cb = b.confidence if b.confidence is not None else 0.5
    days = None
    if a.observed_at and b.observed_at:
        days = abs((a.observed_at - b.observed_at).total_seconds()) / 86400.0
    if ca > 0.8 and cb > 0.8 and days is not None and days > 7:
        return "high"
    if ca > 0.6 and cb > 0.6:
        return "medium"
    return "low"


def _inputs(record: MemoryRecord, config: PolicyConfig) -> dict[str, Any]:
    return {"source": record.source, "source_class": record.source_class.value,
            "observed_at": record.observed_at.isoformat() if record.observed_at else None,
            "epoch": epoch_of(record, config), "confidence": record.confidence}


def _newer(a: MemoryRecord, b: MemoryRecord) -> MemoryRecord | None:
    if a.observed_at is None or b.observed_at is None or a.observed_at == b.observed_at:
        return None
    return a if a.observed_at > b.observed_at else b


def _by_strategy(strategy: Strategy, a: MemoryRecord, b: MemoryRecord,
                 config: PolicyConfig) -> MemoryRecord | None:
    if strategy is Strategy.confidence:
        ca, cb = a.confidence, b.confidence
        if ca is None or cb is None or ca == cb:
            return None
        return a if ca > cb else b
    if strategy is Strategy.weighted:
        ta, tb = a.observed_at, b.observed_at
        if ta is None or tb is None:
            return None
        oldest = min(ta, tb)
        span = max((max(ta, tb) - oldest).total_seconds(), 1.0)

        def score(r: MemoryRecord, t: datetime) -> float:
            recency = (t - oldest).total_seconds() / span
            conf = r.confidence if r.confidence is not None else 0.5
            return config.recency_weight * recency + config.confidence_weight * conf

        sa, sb = score(a, ta), score(b, tb)
        if sa == sb:
            return None
        return a if sa > sb else b
    return None


def decide(pair: CandidatePair, config: PolicyConfig | None = None, *,
           representatives: tuple[MemoryRecord, MemoryRecord] | None = None) -> Conflict:
    """The verdict for one conflicting pair.

    Args:
        pair: the candidate from :mod:`scanner.detect`.
        config: policy settings; defaults to the SPEC §3 table with nothing declared.
        representatives: for each member, the strongest record of the same key, epoch and
            value (see :func:`scanner.scan.scan_records`). The rows up to the epoch check
            read the members themselves; the rows that pick a winner compare the
            representatives, so every record holding a value shares that value's fate and
            no winner is also a loser within one key.

    Returns:
        A :class:`Conflict` whose ``rule`` names the row that decided, whose ``reasons``
        explain quarantines and declarations, and whose ``inputs`` hold the provenance read.
    """
    config = config or PolicyConfig()
    a, b = pair.a.record, pair.b.record
    relation = pair.key.relation
    members = [a.id, b.id]
    values = {a.id: pair.a.value_text(relation), b.id: pair.b.value_text(relation)}
    declared = config.declarations()
    represented: list[str] = []
    key, kind = pair.key.public(), pair.kind
    grade = severity(a, b)
    inputs = {a.id: _inputs(a, config), b.id: _inputs(b, config)}
    settings = config.for_relation(relation)

    def verdict(name: str, *, winner: MemoryRecord | None = None, rule: str | None = None,
                reasons: list[str] | None = None, latest: MemoryRecord | None = None,
                recommended: MemoryRecord | None = None) -> Conflict:
        loser = None if winner is None else (b if winner is a else a)
        shown = latest or winner
        question = None
        if name in ("quarantined", "epoch_change", "escalated"):
            question = clarification_question(pair, epochs=name == "epoch_change",
                                              config=config)
        return _constructed({
            "key": key, "kind": kind, "members": members, "values": values, "verdict": name,
            "winner": winner.id if winner else None,
            "superseded": [loser.id] if loser else [], "latest": shown.id if shown else None,
            "rule": rule, "reasons": (reasons or []) + represented + declared,
            "severity": grade, "inputs": inputs, "config": settings, "question": question,
            "recommended": recommended.id if recommended else None})

    if pair.similarity_matched:
        return verdict("possible", rule="relation_similarity",
                       reasons=["relation matched by embedding similarity only"])
    if pair.kind == "value_mismatch" and pair.cardinality is Cardinality.unknown:
        return verdict("possible", rule="unknown_cardinality",
                       reasons=[f"relation '{relation}' has unknown cardinality"])
    missing = [f"missing_provenance:{field}@{r.id}" for r in (a, b)
               for field in ("source", "observed_at", "epoch")
               if (epoch_of(r, config) if field == "epoch" else getattr(r, field)) is None]
    if missing:
        return verdict("quarantined", rule="missing_provenance", reasons=missing)
    future = [f"future_observed_at:{r.id}@{r.observed_at.isoformat()}" for r in (a, b)
              if config.is_future(r)]
    if future:
        clock = config.now.isoformat() if config.now else "?"
        return verdict("quarantined", rule="future_observed_at", reasons=[
            *future, f"after_clock:{clock}+{config.max_clock_skew_s:g}s"])
    if pair.subject_unconfirmed:
        other = pair.other_key.subject if pair.other_key else "?"
        return verdict("quarantined", rule="subject_unconfirmed",
                       reasons=[f"subject_unconfirmed:{pair.key.subject}~{other}"])
    if epoch_of(a, config) != epoch_of(b, config):
        return verdict("epoch_change", rule="epoch_change", latest=_newer(a, b),
                       reasons=[f"epochs {epoch_of(a, config)} != {epoch_of(b, config)}"])
    ra, rb = representatives or (a, b)
    represented.extend(f"represented_by:{r.id}@{m.id}" for r, m in ((ra, a), (rb, b))
                       if r.id != m.id)

    def member_of(chosen: MemoryRecord | None) -> MemoryRecord | None:
        return None if chosen is None else (a if chosen is ra else b)

    recommended = member_of(_recommend(ra, rb))
    if relation in config.safety_relations:
        return verdict("escalated", rule="safety_relation", recommended=recommended,
                       reasons=[f"recommended:{recommended.id}" if recommended
                                else "recommended:none"])
    strategy = config.strategies.get(relation, Strategy.provenance)
    if strategy is Strategy.manual_review:
        return verdict("escalated", rule="manual_review", recommended=recommended,
                       reasons=[f"recommended:{recommended.id}" if recommended
                                else "recommended:none"])
    if strategy in (Strategy.confidence, Strategy.weighted):
        chosen = _by_strategy(strategy, ra, rb, config)
        if chosen is not None:
            return verdict("resolved", winner=member_of(chosen), rule=strategy.value)
    if config.recency_override:
        newer = _newer(ra, rb)
        if newer is not None:
            return verdict("resolved", winner=member_of(newer), rule="recency_override",
                           reasons=["override:recency requested by caller"])
    if ra.source_class != rb.source_class:
        chosen = ra if ra.source_class.rank > rb.source_class.rank else rb
        reasons = []
        if _newer(ra, rb) not in (None, chosen):
            reasons.append(f"override:source_class {chosen.source_class.value} beats newer "
                           f"{(rb if chosen is ra else ra).source_class.value}")
        return verdict("resolved", winner=member_of(chosen), rule="source_class",
                       reasons=reasons)
    newer = _newer(ra, rb)
    if newer is not None:
        return verdict("resolved", winner=member_of(newer), rule="recency")
    return verdict("quarantined", rule="tie", reasons=["tie:same class and observed_at"])


_CONFLICT_FIELDS = ("key", "kind", "members", "values", "verdict", "winner", "superseded",
                    "latest", "rule", "reasons", "severity", "inputs", "config", "question",
                    "recommended", "settled_by")
_PLAIN_CONFLICT = (tuple(Conflict.model_fields) == _CONFLICT_FIELDS
                   and Conflict.model_fields["settled_by"].default is None
                   and not Conflict.__pydantic_post_init__
                   and not Conflict.__private_attributes__
                   and Conflict.model_config.get("extra") != "allow")
"""True when :class:`Conflict` is a plain model with the fields :func:`_constructed` sets
(checked once, at import)."""


def _constructed(fields: dict[str, Any]) -> Conflict:
    """``Conflict.model_construct(**fields)`` for every field but ``settled_by``, in field
    order: what pydantic's ``model_construct`` stores (``__dict__``, fields set, no extra, no
    private state), without its per-field lookups.

    No validation: :func:`decide` passes fresh lists and dicts of values read from validated
    records, a validated key and its own literals, which no validator of :class:`Conflict`
    would change (a converged 10k re-scan decides 3,737 pairs; validating them was
    0.034 s CPU, this is a few ms).
    """
    if not _PLAIN_CONFLICT:
        return Conflict.model_construct(**fields)
    conflict = Conflict.__new__(Conflict)
    fields_set = set(fields)
    fields["settled_by"] = None
    object.__setattr__(conflict, "__dict__", fields)
    object.__setattr__(conflict, "__pydantic_fields_set__", fields_set)
    object.__setattr__(conflict, "__pydantic_extra__", None)
    object.__setattr__(conflict, "__pydantic_private__", None)
    return conflict


def _recommend(a: MemoryRecord, b: MemoryRecord) -> MemoryRecord | None:
    """What the default table would pick, offered to a human reviewer."""
    if a.source_class != b.source_class:
        return a if a.source_class.rank > b.source_class.rank else b
    return _newer(a, b)


def epoch_event(conflict: Conflict, a: MemoryRecord, b: MemoryRecord,
                config: PolicyConfig | None = None) -> EpochChangeEvent:
    """The epoch-change event of an ``epoch_change`` verdict: old and new value, both epochs
    and sources (SPEC §3 row 3). ``from`` is the earlier observation."""
    config = config or PolicyConfig()
    older, newer = (a, b) if conflict.latest in (b.id, None) else (b, a)

    def side(r: MemoryRecord) -> dict[str, Any]:
        return {"id": r.id, "value": conflict.values.get(r.id), "epoch": epoch_of(r, config),
                "source": r.source, "observed_at": r.observed_at.isoformat()
                if r.observed_at else None}

    return EpochChangeEvent(key=conflict.key, **{"from": side(older)}, to=side(newer))


# -- clarification questions --------------------------------------------------------------

def _surface(canonical: str, *texts: str) -> str:
    """``canonical`` as first written in one of ``texts`` (case kept), else itself."""
    if not canonical:
        return canonical
    for text in texts:
        at = text.lower().find(canonical)
        if at >= 0:
            return text[at:at + len(canonical)]
    return canonical


_PREPOSITIONS = frozenset({"in", "at", "on", "to", "for", "with", "from", "of", "by", "about",
                           "into", "as", "under", "over"})


def _verb_like(relation: str, texts: Sequence[str]) -> bool:
    """Whether a relation reads as a verb ("live in", "like": "Does Sam still live in …?")
    rather than a noun ("headquarters", "native language": "Is the headquarters of … still
    …?"): it ends in a preposition, or it is one word the texts use as a verb form."""
    words = relation.split()
    if not words:
        return False
    if len(words) > 1:
        return words[-1] in _PREPOSITIONS
    form = re.compile(rf"\b{re.escape(words[0])}(?:s|es|d|ed|ing)?\b", re.IGNORECASE)
    return any(form.search(t) for t in texts)


def _older_newer(pair: CandidatePair) -> tuple[Stance, Stance]:
    """The two stances ordered by ``observed_at`` (unknown times first, then by id)."""
    def when(s: Stance) -> tuple:
        t = s.record.observed_at
        return (t is not None, t.timestamp() if t else 0.0, s.record.id)
    return tuple(sorted((pair.a, pair.b), key=when))  # type: ignore[return-value]


def clarification_question(pair: CandidatePair, *, epochs: bool = False,
                           config: PolicyConfig | None = None) -> str:
    """A short question the agent can ask the user about an unresolved pair.

    "Is the preferred glaze still celadon, or tenmoku?" (attribute relations), "Does Sam still
    live in Lyon, or Nice?" (verb relations), "Do you still like coffee?" (polarity), "Are
    “Sam” and “Sam Lee” the same?" (identity not confirmed). The older value comes first; with
    ``epochs`` each value names the epoch it was recorded under.

    Args:
        pair: the candidate pair (its stances give values and record texts).
        epochs: add each value's epoch (for ``epoch_change`` verdicts).
        config: for declared epochs.

    Returns:
        One sentence ending in a question mark.
    """
    config = config or PolicyConfig()
    older, newer = _older_newer(pair)
    texts = (older.record.text, newer.record.text)
    relation = pair.key.relation
    subject = pair.key.subject
    me = subject in FIRST_PERSON
    who = _surface(subject, *texts)
    if pair.subject_unconfirmed and pair.other_key is not None:
        other = _surface(pair.other_key.subject, *texts)
        return f"Are “{who}” and “{other}” the same?"
    attribute = older.attribute or newer.attribute or not _verb_like(relation, texts)
    if pair.kind == "polarity":
        disputed = sorted(contested(older, newer))
        obj = _surface(disputed[0], *texts) if disputed else ""
        if obj and not attribute and not relation.startswith("be "):
            return (f"Do you still {relation} {obj}?" if me
                    else f"Does {who} still {relation} {obj}?")
        positive = newer if disputed and disputed[0] in older.denied else older
        return f"Is this still true: “{positive.record.text.strip().rstrip('.')}”?"

    def value(s: Stance) -> str:
        shown = ", ".join(_surface(v, s.record.text) for v in s.value_text(relation).split(", "))
        if epochs:
            epoch = epoch_of(s.record, config)
            shown += f" (epoch {epoch})" if epoch else ""
        return shown

    old, new = value(older), value(newer)
    if relation == "be" or relation.startswith("be "):
        return f"Are you still {old}, or {new}?" if me else f"Is {who} still {old}, or {new}?"
    if attribute:
        owner = f"the {relation}" if me else f"the {relation} of {who}"
        return f"Is {owner} still {old}, or {new}?"
    if _participle(relation):  # "located in", "owned by": a state, asked with "be"
        return (f"Are you still {relation} {old}, or {new}?" if me
                else f"Is {who} still {relation} {old}, or {new}?")
    if me:
        return f"Do you still {relation} {old}, or {new}?"
    return f"Does {who} still {relation} {old}, or {new}?"


_IRREGULAR_PARTICIPLES = frozenset({"born", "made", "written", "known", "held", "built",
                                    "sold", "run", "kept", "found", "set", "given", "taken"})


def _participle(relation: str) -> bool:
    """Whether a verb-like relation starts with a past participle ("located in", "owned by",
    "born in"), which English asks about with "be", not "do"."""
    first = relation.split()[0] if relation.split() else ""
    return len(relation.split()) > 1 and (first.endswith("ed") or first in _IRREGULAR_PARTICIPLES)


# -- settlement by re-observation ---------------------------------------------------------

@dataclass(frozen=True)
class Settlement:
    """A later record that settles a pair: ``by`` retires ``retired`` and leaves ``confirmed``."""

    by: str
    retired: tuple[str, ...]
    confirmed: tuple[str, ...]


def _clashes(member: Stance, other: Stance, cardinality: Cardinality) -> bool:
    """Whether two stances of one key cannot both be true (SPEC §2, as detection decides)."""
    if contested(member, other):
        return True
    if cardinality is Cardinality.multi_valued:
        return False
    mine = {v for v in member.asserted if v}
    theirs = {v for v in other.asserted if v}
    return bool(mine) and bool(theirs) and not mine & theirs


def _target_epoch(conflict: Conflict, members: Sequence[Stance],
                  config: PolicyConfig) -> tuple[bool, str | None]:
    """``(settleable, epoch)``: the epoch a re-observation must be in (None = any)."""
    if conflict.verdict == "epoch_change":
        latest = next((m for m in members if m.record.id == conflict.latest), None)
        if latest is None:
            return False, None
        return True, epoch_of(latest.record, config)
    dated = [m.record for m in members if epoch_of(m.record, config) is not None]
    if not dated:
        return True, None
    newest = max(dated, key=lambda r: (r.observed_at is not None,
                                       r.observed_at.timestamp() if r.observed_at else 0.0,
                                       r.id))
    return True, epoch_of(newest, config)


def settlement(pair: CandidatePair, conflict: Conflict, group: Sequence[Stance],
               config: PolicyConfig | None = None) -> Settlement | None:
    """The re-observation that settles one quarantined or epoch-change pair, if any.

    A settler is a record of the pair's key group that is not a member, has intact provenance
    (``source``, ``observed_at``, epoch or a declared one), is observed strictly after every
    member that has an ``observed_at``, lies in the target epoch (the ``latest`` member's for an
    epoch change; the newest dated member's for a quarantine), is at least as trusted as each
    member (source class), speaks about the same place, and contradicts at least one member.
    The latest such record (then the most trusted, then the highest id) settles the pair.

    Args:
        pair: the candidate the verdict was decided on.
        conflict: its verdict.
        group: the stances of the pair's key group.
        config: the policy (safety relations and manual review are never settled).

    Returns:
        The settlement, or None when nothing settles the pair.
    """
    config = config or PolicyConfig()
    relation = pair.key.relation
    if (conflict.rule not in SETTLEABLE_RULES or pair.subject_unconfirmed
            or conflict.verdict not in ("quarantined", "epoch_change")
            or relation in config.safety_relations
            or config.strategies.get(relation) is Strategy.manual_review):
        return None
    members = (pair.a, pair.b)
    ok, target = _target_epoch(conflict, members, config)
    if not ok:
        return None
    best: tuple[tuple, Settlement] | None = None
    for s in group:
        r = s.record
        if (r.id in conflict.members or r.source is None or r.observed_at is None
                or config.is_future(r)):
            continue
        epoch = epoch_of(r, config)
        if epoch is None or (target is not None and epoch != target):
            continue
        if any(m.record.observed_at is not None and r.observed_at <= m.record.observed_at
               for m in members):
            continue
        if any(r.source_class.rank < m.record.source_class.rank for m in members):
            continue
        if any(s.place is not None and m.place is not None and s.place != m.place
               for m in members):
            continue
        retired = tuple(m.record.id for m in members if _clashes(m, s, pair.cardinality))
        if not retired:
            continue
        rank = (r.observed_at.astimezone(timezone.utc), r.source_class.rank, r.id)
        if best is None or rank > best[0]:
            confirmed = tuple(m for m in conflict.members if m not in retired)
            best = (rank, Settlement(by=r.id, retired=retired, confirmed=confirmed))
    return best[1] if best else None


def _settled(conflict: Conflict, found: Settlement) -> Conflict:
    return conflict.model_copy(update={
        "settled_by": found.by, "superseded": sorted(found.retired), "question": None,
        "reasons": [*conflict.reasons, f"settled:{REOBSERVATION}@{found.by}"]})


def settle_conflicts(by_pair: Mapping[tuple[str, str], Conflict],
                     candidates: Sequence[CandidatePair],
                     groups: Mapping[GroupKey, Sequence[Assertion]],
                     config: PolicyConfig | None = None) -> dict[tuple[str, str], Conflict]:
    """Apply :func:`settlement` to every verdict of a scan.

    Args:
        by_pair: verdicts by sorted member ids (the first candidate of each pair decided).
        candidates: the candidates in the order they were decided.
        groups: key -> assertions, as grouped for the scan.
        config: the policy.

    Returns:
        A new mapping: settled pairs carry ``settled_by`` and list the retired members in
        ``superseded``. A settlement is only ever made by a record outside the pair, observed
        after both (SPEC: "a later record … observed after both"; issue 18): a settleable
        pair that nothing settles but one of whose members a settlement of another pair
        retired (the record that retired it is often the pair's other member, which cannot
        settle its own pair) is *moot*: it keeps its verdict, is not settled, retires
        nothing, carries the reason ``moot:<retired member>@<settler>`` for each such
        member, and holds neither member ``unresolved`` (:func:`scanner.report.is_moot`): the retired
        member is withheld, and its question no longer stands.
    """
    config = config or PolicyConfig()
    first: dict[tuple[str, str], CandidatePair] = {}
    for cand in candidates:
        first.setdefault(cand.ids, cand)
    out = dict(by_pair)
    cache: dict[GroupKey, list[Stance]] = {}
    retired_by: dict[str, set[str]] = {}
    for ids in sorted(by_pair):
        conflict, cand = by_pair[ids], first.get(ids)
        if cand is None or conflict.verdict not in ("quarantined", "epoch_change"):
            continue
        if cand.key not in cache:
            cache[cand.key] = stances(groups.get(cand.key, ()))
        found = settlement(cand, conflict, cache[cand.key], config)
        if found is not None:
            out[ids] = _settled(conflict, found)
            for rid in found.retired:
                retired_by.setdefault(rid, set()).add(found.by)
    for ids in sorted(out):
        conflict = out[ids]
        if (conflict.settled_by or conflict.rule not in SETTLEABLE_RULES
                or conflict.verdict not in ("quarantined", "epoch_change")
                or conflict.key.relation in config.safety_relations
                or config.strategies.get(conflict.key.relation) is Strategy.manual_review
                or (ids in first and first[ids].subject_unconfirmed)):
            continue
        moot = [f"{MOOT}:{member}@{by}" for member in ids
                for by in sorted(retired_by.get(member, ()))]
        if moot:
            out[ids] = conflict.model_copy(update={"question": None,
                                                   "reasons": [*conflict.reasons, *moot]})
    return out
