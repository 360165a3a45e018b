"""The resolution policy: one verdict per conflicting pair (SPEC §3, seed 000, seed 001).

:func:`decide` tries the rows of :data:`ROWS` in order and the first that applies decides; each
row is one function of a :class:`Case`:

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
ran under and its ``severity`` (:func:`severity`: an escalation is ``high``); unresolved
verdicts carry a clarification ``question`` (:mod:`scanner.core.questions`) and escalations a
``recommended`` member. A new strategy is one :class:`~scanner.core.policy_config.Strategy`
member and one chooser in :data:`CHOOSERS`.

Settlement of quarantines and epoch changes by a later observation is
:mod:`scanner.core.settlement`.

``decide`` is pure: it reads frozen records and returns a new :class:`Conflict`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from extractors import Cardinality
from extractors.change_cues import marks_correction
from scanner.core.detect import CandidatePair
from scanner.core.policy_config import PolicyConfig, Strategy, epoch_of
from scanner.core.experience import denies_any_time, denies_experience
from scanner.core.questions import clarification_question
from scanner.core.value_notes import same_but_values
from scanner.models import Conflict, EpochChangeEvent, MemoryRecord, Severity


def severity(a: MemoryRecord, b: MemoryRecord, verdict: str | None = None) -> Severity:
    """low / medium / high from the verdict, confidence and time divergence (seed 001).

    An ``escalated`` pair is ``high`` whatever its members: it is queued for a person because
    the policy may not pick (seed 001, "For high-severity conflicts, don't auto-resolve; flag
    for human review", whose escalation queue records ``"severity": "high"``; seed 004, "For
    safety rules, escalate instead of auto-picking"). Otherwise ``high``: both confidences
    > 0.8 and observations more than 7 days apart; ``medium``: both > 0.6; else ``low``. A
    missing confidence counts as 0.5.

    Args:
        a, b: the pair's members.
        verdict: the pair's verdict (None: the members alone decide).
    """
    if verdict == "escalated":
        return "high"
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


# -- named strategies (seed 001) ----------------------------------------------------------

def by_confidence(a: MemoryRecord, b: MemoryRecord, config: PolicyConfig) -> MemoryRecord | None:
    """``confidence``: the higher confidence wins; None when either is missing or they tie."""
    ca, cb = a.confidence, b.confidence
    if ca is None or cb is None or ca == cb:
        return None
    return a if ca > cb else b


def by_weighted(a: MemoryRecord, b: MemoryRecord, config: PolicyConfig) -> MemoryRecord | None:
    """``weighted``: ``recency_weight`` x recency (0 for the older, 1 for the newer) plus
    ``confidence_weight`` x confidence (missing = 0.5); None without both times or on a tie."""
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


CHOOSERS: dict[Strategy, Callable[[MemoryRecord, MemoryRecord, PolicyConfig],
                                  MemoryRecord | None]] = {
    Strategy.confidence: by_confidence,
    Strategy.weighted: by_weighted,
}
"""Strategy -> the function that picks a winner among two representatives, or None to fall
through to the default table. ``provenance`` is the default table itself; ``manual_review``
escalates (:func:`manual_review`)."""


# -- the table ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Case:
    """What a row reads: the pair, the policy, the two members ``a`` and ``b`` and their
    representatives ``ra`` and ``rb`` (the members themselves unless :func:`decide` got
    representatives)."""

    pair: CandidatePair
    config: PolicyConfig
    a: MemoryRecord
    b: MemoryRecord
    ra: MemoryRecord
    rb: MemoryRecord

    @property
    def relation(self) -> str:
        """The pair's relation."""
        return self.pair.key.relation

    def member_of(self, chosen: MemoryRecord | None) -> MemoryRecord | None:
        """The member a chosen representative stands for."""
        return None if chosen is None else (self.a if chosen is self.ra else self.b)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A row's decision: the verdict, its rule and reasons, and the members it names."""

    verdict: str
    rule: str
    reasons: tuple[str, ...] = ()
    winner: MemoryRecord | None = None
    latest: MemoryRecord | None = None
    recommended: MemoryRecord | None = None


Row = Callable[[Case], "Ruling | None"]


def similarity_only(case: Case) -> Ruling | None:
    """Row 1: a relation matched by embedding similarity only -> ``possible``."""
    if case.pair.similarity_matched:
        return Ruling("possible", "relation_similarity",
                      ("relation matched by embedding similarity only",))
    return None


def unknown_cardinality(case: Case) -> Ruling | None:
    """Row 1: a value mismatch of a relation of unknown cardinality -> ``possible``."""
    if case.pair.kind == "value_mismatch" and case.pair.cardinality is Cardinality.unknown:
        return Ruling("possible", "unknown_cardinality",
                      (f"relation '{case.relation}' has unknown cardinality",))
    return None


def pair_judge(case: Case) -> Ruling | None:
    """Row 1: the pair judge does not confirm the keys' conflict -> ``possible`` (SPEC §2, last
    paragraph: a decided verdict needs both the keys and the judge). A pair the judge did not
    read (no judge configured) goes on to the next row."""
    judgment = case.pair.judgment
    if judgment is None or judgment.confirms(case.config.judge_threshold) or \
            same_but_values(case.pair.a.record.text, case.pair.b.record.text):
        return None
    return Ruling("possible", "pair_judge", (judgment.reason(),))


_OTHER_WORDS = {"ended": "ended_in_other_words", "named": "named_in_other_words",
                "valued_near": "value_in_other_words"}
"""Pairs found by a shared word rather than a key (:data:`scanner.core.detect.CandidatePair`
``found_by``), and the rule that keeps them ``possible``."""


def in_other_words(case: Case) -> Ruling | None:
    """Row 1: a pair found by a shared word, not by a key that names the whole attribute ->
    ``possible``, even when the judge reads an update, so it goes to a person (SPEC §1 key;
    issue 37: a structure that cannot name the attribute is at most ``possible``):

    * ``ended_in_other_words``: a later ending of a state said in other words
      (:mod:`scanner.core.endings`: "Maya is dating Leo" / "Maya and Leo are not together
      anymore");
    * ``named_in_other_words``: a later change of something an earlier memory named, sharing
      the name and one word stem (:mod:`scanner.core.named_changes`: "Mobile Team allocated to
      Project Phoenix" / "Mobile Team reallocated to Project Alpha"). On BEAM's public half the
      judge read 118 such pairs as updates: 4 were labelled updates, 89 touched no marked
      memory (docs/benchmarks.md#pair-judge);
    * ``value_in_other_words``: a later new value whose attribute no reading names, only the
      words written before it, met by an earlier value of its type near one of those words
      (:mod:`scanner.core.value_changes`: "The seaplane fare has recently increased, now
      closer to $650" / "the seaplane takes 45 minutes, costing $600"). Of 80 such and other
      BEAM pairs that touched no marked memory, a reader who had not seen the rules found
      44 a true update and 27 another thing or instance (docs/benchmarks.md#pair-judge)."""
    rule = _OTHER_WORDS.get(case.pair.found_by)
    if rule is None:
        return None
    reason = case.pair.judgment.reason() if case.pair.judgment else rule.replace("_", " ")
    return Ruling("possible", rule, (rule, reason))


def contradictory_statements(case: Case) -> Ruling | None:
    """Row 4b: the judge reads one speaker's statements that cannot both hold at any time
    ("Deployed the app on Render" / "I have never deployed this app"; "born in 1979" / "born
    in 1983") -> ``quarantined`` (``contradictory_statements``) with a clarification question:
    time does not settle it (SPEC §2, last row). Structure must say so too: the pair was found
    as a denial of any time against a report (:mod:`scanner.core.never`), or a member denies
    for any time; otherwise the judge's reading alone decides nothing here. A polarity pair
    whose later member denies any past time ("I have never deployed this app") is
    quarantined whatever the judge reads, unless that member says the report was wrong
    ("Actually, I never deployed it": :func:`extractors.change_cues.marks_correction`) and
    the judge reads an update: a denial of any past time cannot be a change of the world
    since the report, only a retraction of it."""
    judgment = case.pair.judgment
    later = _newer(case.a, case.b)
    if case.pair.kind == "polarity" and later is not None and \
            denies_experience(later.text) and not (
                judgment is not None and judgment.label == "update"
                and marks_correction(later.text)):
        # "Deployed the app on Render" / later "I have never deployed this app": no time
        # settles a denial of any past time against a report (issue 37, kind 4)
        return Ruling("quarantined", "contradictory_statements",
                      ("contradictory_statements",
                       judgment.reason() if judgment else "denial of any past time"))
    if judgment is None or judgment.label != "contradiction":
        return None
    if case.pair.found_by != "never" and not any(denies_any_time(r.text)
                                                 for r in (case.a, case.b)):
        return None  # structure first: a denial of any time ("never", "not ever") in a member
    return Ruling("quarantined", "contradictory_statements",
                  ("contradictory_statements", judgment.reason()))


def missing_provenance(case: Case) -> Ruling | None:
    """Row 2: a member without ``source``, ``observed_at`` or an epoch -> ``quarantined``."""
    config = case.config
    missing = [f"missing_provenance:{field}@{r.id}" for r in (case.a, case.b)
               for field in ("source", "observed_at", "epoch")
               if (epoch_of(r, config) if field == "epoch" else getattr(r, field)) is None]
    return Ruling("quarantined", "missing_provenance", tuple(missing)) if missing else None


def future_observed_at(case: Case) -> Ruling | None:
    """Row 2b: a member observed after the scan's clock plus the skew -> ``quarantined``."""
    config = case.config
    future = [f"future_observed_at:{r.id}@{r.observed_at.isoformat()}" for r in (case.a, case.b)
              if config.is_future(r)]
    if not future:
        return None
    clock = config.now.isoformat() if config.now else "?"
    return Ruling("quarantined", "future_observed_at",
                  (*future, f"after_clock:{clock}+{config.max_clock_skew_s:g}s"))


def subject_unconfirmed(case: Case) -> Ruling | None:
    """Row 3: one subject only a short form of the other -> ``quarantined``."""
    pair = case.pair
    if not pair.subject_unconfirmed:
        return None
    other = pair.other_key.subject if pair.other_key else "?"
    return Ruling("quarantined", "subject_unconfirmed",
                  (f"subject_unconfirmed:{pair.key.subject}~{other}",))


def epoch_change(case: Case) -> Ruling | None:
    """Row 4: the members' epochs differ -> ``epoch_change``, the newer one ``latest``."""
    ea, eb = epoch_of(case.a, case.config), epoch_of(case.b, case.config)
    if ea == eb:
        return None
    return Ruling("epoch_change", "epoch_change", (f"epochs {ea} != {eb}",),
                  latest=_newer(case.a, case.b))


def _escalated(case: Case, rule: str) -> Ruling:
    recommended = case.member_of(_recommend(case.ra, case.rb))
    return Ruling("escalated", rule, (f"recommended:{recommended.id}" if recommended
                                      else "recommended:none",), recommended=recommended)


def safety_relation(case: Case) -> Ruling | None:
    """Row 5: a declared safety relation -> ``escalated``, with a recommended member."""
    if case.relation in case.config.safety_relations:
        return _escalated(case, "safety_relation")
    return None


def manual_review(case: Case) -> Ruling | None:
    """Row 6: the ``manual_review`` strategy -> ``escalated``, with a recommended member."""
    if case.config.strategies.get(case.relation) is Strategy.manual_review:
        return _escalated(case, "manual_review")
    return None


def named_strategy(case: Case) -> Ruling | None:
    """Row 6: a strategy of :data:`CHOOSERS` configured for the relation picks the winner;
    rule = the strategy's name."""
    strategy = case.config.strategies.get(case.relation, Strategy.provenance)
    choose = CHOOSERS.get(strategy)
    if choose is None:
        return None
    chosen = choose(case.ra, case.rb, case.config)
    if chosen is None:
        return None
    return Ruling("resolved", strategy.value, winner=case.member_of(chosen))


def recency_override(case: Case) -> Ruling | None:
    """Row 7: the caller asked for recency -> the newer wins, logged as an override."""
    if not case.config.recency_override:
        return None
    newer = _newer(case.ra, case.rb)
    if newer is None:
        return None
    return Ruling("resolved", "recency_override", ("override:recency requested by caller",),
                  winner=case.member_of(newer))


def source_class(case: Case) -> Ruling | None:
    """Row 8: source classes differ -> the higher class wins, even when older (logged)."""
    ra, rb = case.ra, case.rb
    if ra.source_class == rb.source_class:
        return None
    chosen = ra if ra.source_class.rank > rb.source_class.rank else rb
    reasons = []
    if _newer(ra, rb) not in (None, chosen):
        reasons.append(f"override:source_class {chosen.source_class.value} beats newer "
                       f"{(rb if chosen is ra else ra).source_class.value}")
    return Ruling("resolved", "source_class", tuple(reasons), winner=case.member_of(chosen))


def recency(case: Case) -> Ruling | None:
    """Row 9: ``observed_at`` differ -> the newer wins."""
    newer = _newer(case.ra, case.rb)
    return None if newer is None else Ruling("resolved", "recency", winner=case.member_of(newer))


def tie(case: Case) -> Ruling:
    """Row 10: same class and ``observed_at`` -> ``quarantined``."""
    return Ruling("quarantined", "tie", ("tie:same class and observed_at",))


MEMBER_ROWS: tuple[Row, ...] = (similarity_only, unknown_cardinality, pair_judge,
                                in_other_words, missing_provenance, future_observed_at, subject_unconfirmed,
                                epoch_change, contradictory_statements)
"""The rows that read the members themselves, in order."""
REPRESENTED_ROWS: tuple[Row, ...] = (safety_relation, manual_review, named_strategy,
                                     recency_override, source_class, recency, tie)
"""The rows that pick a winner, in order: they compare the representatives, and a verdict of
theirs lists the ``represented_by`` reasons. The last, :func:`tie`, always applies."""
ROWS: tuple[Row, ...] = MEMBER_ROWS + REPRESENTED_ROWS
"""SPEC §3 as an ordered table: the first row that returns a :class:`Ruling` decides."""

_QUESTIONED = frozenset({"quarantined", "epoch_change", "escalated"})


def decide(pair: CandidatePair, config: PolicyConfig | None = None, *,
           representatives: tuple[MemoryRecord, MemoryRecord] | None = None) -> Conflict:
    """The verdict for one conflicting pair: the first row of :data:`ROWS` that applies.

    Args:
        pair: the candidate from :mod:`scanner.core.detect`.
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
    ra, rb = representatives or (a, b)
    case = Case(pair, config, a, b, ra, rb)
    represented: list[str] = []
    for row in MEMBER_ROWS:
        ruling = row(case)
        if ruling is not None:
            break
    else:
        represented = [f"represented_by:{r.id}@{m.id}" for r, m in ((ra, a), (rb, b))
                       if r.id != m.id]
        for row in REPRESENTED_ROWS:
            ruling = row(case)
            if ruling is not None:
                break
    return _conflict(case, ruling, represented)


def _conflict(case: Case, ruling: Ruling, represented: list[str]) -> Conflict:
    """The :class:`Conflict` of a row's ruling."""
    pair, config, a, b = case.pair, case.config, case.a, case.b
    relation = pair.key.relation
    winner = ruling.winner
    loser = None if winner is None else (b if winner is a else a)
    shown = ruling.latest or winner
    question = None
    if ruling.verdict in _QUESTIONED:
        question = clarification_question(pair, epochs=ruling.verdict == "epoch_change",
                                          config=config)
    return _constructed({
        "key": pair.key.public(), "kind": pair.kind, "members": [a.id, b.id],
        "values": {a.id: pair.a.value_text(relation), b.id: pair.b.value_text(relation)},
        "verdict": ruling.verdict, "winner": winner.id if winner else None,
        "superseded": [loser.id] if loser else [], "latest": shown.id if shown else None,
        "rule": ruling.rule, "reasons": [*ruling.reasons, *_judged(pair, ruling), *represented,
                                         *config.declarations()],
        "severity": severity(a, b, ruling.verdict),
        "inputs": {a.id: _inputs(a, config), b.id: _inputs(b, config)},
        "config": config.for_relation(relation), "question": question,
        "recommended": ruling.recommended.id if ruling.recommended else None})


def _judged(pair: CandidatePair, ruling: Ruling) -> tuple[str, ...]:
    """The judge's reading of the pair (``judge:update 0.97``) when it read the pair and the
    row's reasons do not give it already: what let a decided verdict through is shown."""
    if pair.judgment is None:
        return ()
    reason = pair.judgment.reason()
    return () if reason in ruling.reasons else (reason,)


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
