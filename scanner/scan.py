"""The scan: records + their triples -> a SPEC §5 report. Pure; the same function serves
``scan-file``, read-time scans of search hits and batch scans of a tenant."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from extractors import DEFAULT_TABLE, Cardinality, RelationTable, Triple
from scanner.core.detect import CandidatePair, Stance, contested, pairs_in_group
from scanner.core.duplicates import duplicate_groups
from scanner.core.keys import AliasTable, GroupKey, group_by_key, near_key_pairs
from scanner.core.named_changes import named_change_pairs
from scanner.core.endings import ending_pairs
from scanner.core.corrections import correction_pairs
from scanner.core.never import never_pairs
from scanner.core.value_changes import value_change_pairs
from scanner.core.preferences import preference_pairs
from scanner.core.value_notes import value_note_pairs
from scanner.core.policy import decide, epoch_event
from scanner.core.policy_config import PolicyConfig, epoch_of
from scanner.core.report import assemble_report
from scanner.core.settlement import settle_conflicts
from scanner.core.pet_endings import with_pet_endings
from scanner.core.value_endings import with_value_endings
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, RejectedLine, ScanReport
from scanner.pair_judge import PairJudge


@dataclass(frozen=True)
class ScanConfig:
    """Relation table, aliases and policy a scan runs under (all default to SPEC behaviour)."""

    table: RelationTable = DEFAULT_TABLE
    aliases: AliasTable = field(default_factory=AliasTable)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    extra_patterns: tuple[tuple[str, str], ...] = ()
    """Extra ``(relation, pattern)`` extraction patterns (see :mod:`extractors.lexicon`)."""
    relation_similarity: bool = False
    """Match unknown relation phrases to known ones by embedding similarity
    (:mod:`scanner.relation_matching`); such matches only ever give ``possible`` conflicts.
    Off by default: on counterfact-train no threshold made the matches precise."""
    relation_similarity_threshold: float | None = None
    """Cosine threshold; None = :data:`scanner.relation_matching.DEFAULT_THRESHOLD`."""
    state_changes: str | None = None
    """A TOML file of state-change rows added to the shipped table
    (:func:`extractors.state_changes.load_state_changes`)."""
    pattern_packs: tuple[str, ...] = ()
    """Opt-in extraction pattern packs by name (:data:`extractors.lexicon.PATTERN_PACKS`):
    templates learned from a data set's training split, never part of the defaults."""
    judge: PairJudge | None = None
    """The pair judge that confirms each conflict the keys find (:mod:`scanner.pair_judge`);
    None = the rules alone (the default; :class:`scanner.engine.Engine` sets the cached
    cross-encoder when ``$CONTRASCAN_PAIR_JUDGE`` asks for it)."""


def scan_records(records: Sequence[MemoryRecord], triples: Sequence[Sequence[Triple]],
                 config: ScanConfig | None = None, *,
                 rejected: Sequence[RejectedLine] = (),
                 near_pairs: Iterable[tuple[GroupKey, GroupKey]] | None = None) -> ScanReport:
    """Find and decide every conflict among ``records``.

    Args:
        records: the memories to scan (any scopes; only same-scope records are compared).
        triples: ``triples[i]`` are the triples of ``records[i]``.
        config: tables and policy.
        rejected: input lines that were not scanned, carried into the report.
        near_pairs: the pairs of :func:`scanner.core.keys.near_key_pairs` when the caller already
            found them over the keys of these records or of a superset of them (a batch scan
            finds them during its pass, :mod:`scanner.batch`); pairs with a key that none of
            ``records`` holds are skipped. None = find them here.

    Returns:
        The report, with conflicts sorted by members and every id list sorted.

    Raises:
        ValueError: ``records`` and ``triples`` differ in length.
    """
    if len(records) != len(triples):
        raise ValueError(f"{len(records)} records but {len(triples)} triple lists")
    config = config or ScanConfig()
    if config.policy.now is None:  # the scan's clock: records observed after it never win
        config = replace(config, policy=config.policy.model_copy(
            update={"now": datetime.now(timezone.utc)}))
    items = list(zip(records, triples))
    groups = with_pet_endings(with_value_endings(group_by_key(items, config.aliases)))

    candidates = []
    for key in sorted(groups, key=lambda k: (k.scope.user_id, k.subject, k.relation)):
        if len(groups[key]) > 1:  # one assertion makes no pair
            candidates.extend(pairs_in_group(key, groups[key], config.table))
    if near_pairs is None:
        near = near_key_pairs(groups)
    else:  # in the order near_key_pairs(groups) gives them (ties below keep the first)
        rank: dict[tuple, int] = {}
        for key in groups:
            rank.setdefault((key.scope, key.relation), len(rank))
        near = sorted(((a, b) for a, b in near_pairs if a in groups and b in groups),
                      key=lambda p: (rank[(p[0].scope, p[0].relation)], p[0].subject,
                                     p[1].subject))
    for left, right in near:
        candidates.extend(pairs_in_group(left, groups[left], config.table,
                                         other=groups[right], other_key=right))

    by_pair: dict[tuple[str, str], Conflict] = {}
    events: list[EpochChangeEvent] = []
    # One verdict per pair. When several keys link the same two records, the most telling
    # one decides: an exact-subject key before a short-form one, and a conflict the
    # policy can act on (polarity, or a functional relation) before a merely possible one.
    candidates.sort(key=_most_telling)
    if config.judge is not None:
        # a denial of any time and a report of the same thing, in other words than the key's
        known = {c.ids for c in candidates}
        for found in (never_pairs(groups), correction_pairs(records), value_note_pairs(records),
                      value_change_pairs(records, triples),
                      named_change_pairs(records), ending_pairs(records),
                      preference_pairs(records)):
            candidates += [c for c in found if c.ids not in known]
            known |= {c.ids for c in found}
        candidates.sort(key=_most_telling)
        candidates = _strongest_denials([
            c for c in judged(candidates, config.judge, config.table) if c.found_by == "key"
            or c.judgment.label in STRUCTURE_LABELS[c.found_by]])
    reps = _representatives(candidates, config.policy)
    for cand in candidates:
        if cand.ids in by_pair:
            continue
        ea, eb = epoch_of(cand.a.record, config.policy), epoch_of(cand.b.record, config.policy)
        conflict = decide(cand, config.policy, representatives=(
            reps.get((cand.key, _label(cand, cand.a), ea), cand.a.record),
            reps.get((cand.key, _label(cand, cand.b), eb), cand.b.record)))
        by_pair[cand.ids] = conflict
        if conflict.verdict == "epoch_change":
            events.append(epoch_event(conflict, cand.a.record, cand.b.record, config.policy))
    by_pair = settle_conflicts(by_pair, candidates, groups, config.policy)
    return build_report(records, by_pair, events, duplicate_groups(items), rejected)


def _most_telling(cand: CandidatePair) -> tuple:
    """Sort key: by member ids, then the pair that decides best first (an exact subject, a
    relation read rather than matched by similarity, a functional relation)."""
    return (cand.ids, cand.subject_unconfirmed, cand.similarity_matched,
            cand.kind == "value_mismatch" and cand.cardinality is not Cardinality.functional)


_UPDATE = frozenset({"update"})
STRUCTURE_LABELS: dict[str, frozenset[str]] = {
    "never": frozenset({"contradiction", "update"}), "named": _UPDATE, "redone": _UPDATE,
    "from_value": _UPDATE, "quoted": _UPDATE, "valued": _UPDATE, "valued_near": _UPDATE,
    "noted": _UPDATE, "ended": _UPDATE, "revoked": _UPDATE, "preferred": _UPDATE,
    "corrected": _UPDATE}
"""The judge's readings that keep a pair found outside the keys (:mod:`scanner.core.never`,
:mod:`scanner.core.named_changes`, :mod:`scanner.core.value_changes`,
:mod:`scanner.core.corrections`,
:mod:`scanner.core.value_notes`, :mod:`scanner.core.endings`,
:mod:`scanner.core.preferences`); any other reading drops it, so structure alone flags
nothing. A denial of any time and a report are kept when the judge reads either kind of
conflict: which of the two it is, the denial's time and wording settle
(:func:`scanner.core.policy.contradictory_statements`)."""


MAX_CONTRADICTED = 2
"""Reports kept per denial of any time, the strongest structure first (rare words shared and
the report of the same act: :attr:`CandidatePair.evidence`), then the
judge's likeliest contradiction: "I have never met Bryan" contradicts the report of meeting
him, not every memory that names him. The judge reads almost any report beside a denial as a
contradiction (0.96-0.99 on BEAM's), so its probability only breaks ties."""


def _strongest_denials(candidates: list[CandidatePair]) -> list[CandidatePair]:
    """``candidates`` with at most :data:`MAX_CONTRADICTED` pairs per denying memory among
    those found as a denial of any time (:mod:`scanner.core.never`)."""
    by_denial: dict[str, list[CandidatePair]] = {}
    for cand in candidates:
        if cand.found_by == "never":
            denier = cand.a if cand.a.denied else cand.b
            by_denial.setdefault(denier.record.id, []).append(cand)
    dropped = set()
    for found in by_denial.values():
        found.sort(key=lambda c: (-c.evidence, -c.judgment.contradiction, c.ids))
        dropped |= {id(c) for c in found[MAX_CONTRADICTED:]}
    return [c for c in candidates if id(c) not in dropped]


def judged(candidates: Sequence[CandidatePair], judge: PairJudge,
           table: RelationTable | None = None) -> list[CandidatePair]:
    """``candidates`` with the judge's reading of each pair the policy could decide (a pair of
    unknown cardinality or matched by similarity is ``possible`` whatever the judge says).
    Each record pair is judged once, earlier memory first (``observed_at``, then id).

    A pair of one key whose relation the store declared one-valued (``table``:
    :meth:`extractors.RelationTable.declares`) is not judged: the judge reads whether two
    memories can both hold in common usage ("speaks French" / "speaks Danish"), which the
    store's own schema has answered (issue 33)."""
    declared = (lambda c: table is not None and c.found_by == "key" and c.other_key is None
                and table.declares(c.key.relation))
    wanted: dict[tuple[str, str], tuple[str, str]] = {}
    for cand in candidates:
        if cand.ids in wanted or cand.similarity_matched or (
                cand.kind == "value_mismatch" and cand.cardinality is Cardinality.unknown
        ) or declared(cand):
            continue
        a, b = cand.a.record, cand.b.record
        if a.observed_at and b.observed_at and (b.observed_at, b.id) < (a.observed_at, a.id):
            a, b = b, a
        wanted[cand.ids] = (a.text, b.text)
    if not wanted:
        return list(candidates)
    readings = dict(zip(wanted, judge.judge(list(wanted.values()))))
    return [replace(c, judgment=readings[c.ids]) if c.ids in readings and not declared(c)
            else c for c in candidates]


def _label(cand: CandidatePair, stance: Stance) -> tuple:
    """What a stance holds in this pair: its set of values, or its polarity on the object
    the pair disagrees about."""
    if cand.kind == "value_mismatch":
        return ("values", frozenset(v for v in stance.asserted if v))
    if cand.found_by == "never":  # a denial and a report in other words: nothing shared
        return ("denies" if stance.denied else "asserts", stance.record.id)
    obj = min(contested(cand.a, cand.b))
    return ("denies" if obj in stance.denied else "asserts", obj)


def _representatives(candidates, policy: PolicyConfig) -> dict[tuple, MemoryRecord]:
    """(key, label, epoch) -> the strongest record with intact provenance holding that label:
    higher source class, then later ``observed_at``, then id (for determinism)."""
    best: dict[tuple, MemoryRecord] = {}
    for cand in candidates:
        for stance in (cand.a, cand.b):
            r = stance.record
            epoch = epoch_of(r, policy)
            if (r.source is None or r.observed_at is None or epoch is None
                    or policy.is_future(r)):
                continue
            slot = (cand.key, _label(cand, stance), epoch)
            cur = best.get(slot)
            if cur is None or (r.source_class.rank, r.observed_at, r.id) > (
                    cur.source_class.rank, cur.observed_at, cur.id):
                best[slot] = r
    return best


def build_report(records: Sequence[MemoryRecord], by_pair: Mapping[tuple[str, str], Conflict],
                 events: Sequence[EpochChangeEvent], duplicates: list[list[str]],
                 rejected: Sequence[RejectedLine] = ()) -> ScanReport:
    """The report over ``records`` (see :func:`scanner.core.report.assemble_report` for the rule)."""
    return assemble_report([r.id for r in records], by_pair, events, duplicates, rejected,
                           scanned=len(records))
