"""FactConsolidation-style contexts from CounterFact, and how an answer is scored (issue 14).

MemoryAgentBench's FactConsolidation task (Hu et al. 2025, "Evaluating Memory in LLM Agents via
Incremental Multi-Turn Interactions", arXiv:2507.05257) gives an agent a numbered list of facts
in which a later fact overrides an earlier one about the same subject and relation, then asks
for the current value. This module rebuilds that setting from CounterFact (Meng et al. 2022,
the edit + val split; ``benchmarks.pairs.load_counterfact``) as memories of one user:

* a **rewrite** is one CounterFact case: its true fact (``prompt + ground_truth``) is stored
  earlier, its counterfactual (``prompt + target_new``) later; the question is the case's
  prompt, the right answer the counterfactual memory;
* **other facts** are interleaved: each rewrite's neighbourhood fact (same relation, another
  subject, ``locality_prompt + locality_ground_truth``) and true facts of other cases;
* every memory has the same source class (``user``) and epoch, and ``observed_at`` in serial
  order, so the contract's policy (SPEC §3) can decide a found pair only by recency.

Pure functions: no I/O, no store. The runner is :mod:`benchmarks.bench_fact_consolidation`.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from benchmarks.pairs import CounterFactCase, complete
from extractors import Triple

SOURCE = "factconsolidation:context"
SOURCE_CLASS = "user"
EPOCH = "context-1"
START = datetime(2025, 1, 1, tzinfo=timezone.utc)
PAIR_SHARE = 0.25
"""Share of a context's memories that are rewrites (each gives two memories); a quarter of
the rest are their neighbourhood facts, the others true facts of other cases."""

FACT, UPDATE, NEIGHBOUR, OTHER = "fact", "update", "neighbour", "other"


@dataclass(frozen=True)
class ContextMemory:
    """One memory of a context.

    Attributes:
        id: ``m<serial, 5 digits>``; the serial is the fact's number in the context (0 first).
        serial: position in the context; later = observed later.
        text: the sentence.
        case_id: the CounterFact case it comes from.
        role: ``fact`` (a rewrite's true fact), ``update`` (its counterfactual), ``neighbour``
            or ``other``.
        subject: the case's subject; ``""`` for a neighbourhood fact (its subject is not in the
            data, and is another subject by construction).
        relation: the case's template ("The mother tongue of {} is").
    """

    id: str
    serial: int
    text: str
    case_id: int
    role: str
    subject: str
    relation: str

    @property
    def entity(self) -> str:
        """Who the memory is about: the subject, or ``~<case id>`` for a neighbourhood fact."""
        return self.subject or f"~{self.case_id}"

    @property
    def observed_at(self) -> datetime:
        """UTC; one minute per serial after :data:`START`."""
        return START + timedelta(minutes=self.serial)

    def record(self, user_id: str) -> dict[str, Any]:
        """The memory record (SPEC §4) for ``user_id``."""
        return {"id": self.id, "text": self.text, "user_id": user_id, "source": SOURCE,
                "source_class": SOURCE_CLASS, "observed_at": self.observed_at.isoformat(),
                "epoch": EPOCH}


@dataclass(frozen=True)
class Question:
    """A rewrite's question: the case's prompt; the right answer is ``update_id``."""

    case_id: int
    query: str
    subject: str
    relation: str
    target: str
    fact_id: str
    update_id: str


@dataclass(frozen=True)
class Context:
    """The memories of one user, in serial order, and the questions asked of them."""

    size: int
    memories: tuple[ContextMemory, ...]
    questions: tuple[Question, ...]

    def by_id(self) -> dict[str, ContextMemory]:
        """memory id -> memory."""
        return {m.id: m for m in self.memories}


def eligible_cases(cases: Iterable[CounterFactCase],
                   relation: Callable[[CounterFactCase], str] | None = None
                   ) -> list[CounterFactCase]:
    """Cases usable as rewrites: the prompt names the subject, the true and the counterfactual
    objects differ, and no earlier case has the same subject and a relation worded alike
    (:func:`wording_groups`). File order.

    Two rewrites of one subject under relations that share a template cannot be told apart by
    a reader of the memories: CounterFact words P176 (manufacturer) and P178 (developer) with
    the same templates ("{} is developed by", "{} is a product of"), P30 (continent) and P131
    (located in) both as "{} is located in", P495 (country of origin) and P740 (location of
    formation) both as "{} originated in". FactConsolidation's premise — a later fact about
    the same subject and relation overrides an earlier one — then has no single answer: "B-29
    Superfortress was created by Microsoft" (P178) and a later "B-29 Superfortress is
    developed by Honda" (P176) make "B-29 Superfortress was created by" ask for either. Only
    the first such case of a subject is kept.

    Args:
        cases: the cases.
        relation: a case's relation (a Wikidata id); default its template.
    """
    cases = list(cases)
    relation = relation or (lambda case: case.template)
    group = wording_groups(cases, relation)
    seen: set[tuple[str, str]] = set()
    out = []
    for case in cases:
        key = (case.subject, group[relation(case)])
        if (case.subject in case.prompt and key not in seen
                and case.ground_truth.strip().lower() != case.target_new.strip().lower()):
            seen.add(key)
            out.append(case)
    return out


def wording_groups(cases: Iterable[CounterFactCase],
                   relation: Callable[[CounterFactCase], str]) -> dict[str, str]:
    """relation -> its group: relations joined, transitively, whenever one template is used
    for both among ``cases`` (union-find); a group is named by its smallest relation."""
    parent: dict[str, str] = {}

    def root(r: str) -> str:
        while parent.setdefault(r, r) != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    by_template: dict[str, str] = {}
    for case in cases:
        rel = relation(case)
        first = by_template.setdefault(case.template, rel)
        a, b = root(first), root(rel)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {r: root(r) for r in list(parent)}


MIXES = ("alternate", "random")


def order_by_subject(cases: Sequence[CounterFactCase], seed: int,
                     mix: str = "alternate") -> list[CounterFactCase]:
    """The cases with their subjects in a seeded random order, each subject's cases together
    (in file order), so a context holds every rewrite of a subject it holds one of.

    Args:
        cases: the cases.
        seed: the shuffle's seed.
        mix: ``random`` — subjects in random order (about one CounterFact case in ten has a
            subject with facts under several relations); ``alternate`` — a subject with
            several cases, then one with a single case, and so on while both last, so that
            facts about one subject under several relations are common, as in
            FactConsolidation's contexts (where the max-serial baseline can pick another
            relation's fact).

    Raises:
        ValueError: an unknown ``mix``.
    """
    if mix not in MIXES:
        raise ValueError(f"mix must be one of {MIXES}, got {mix!r}")
    groups: dict[str, list[CounterFactCase]] = defaultdict(list)
    for case in cases:
        groups[case.subject].append(case)
    subjects = sorted(groups)
    random.Random(seed).shuffle(subjects)
    if mix == "alternate":
        several = [s for s in subjects if len(groups[s]) > 1]
        single = [s for s in subjects if len(groups[s]) == 1]
        subjects = [s for pair in zip(several, single) for s in pair]
        rest = min(len(several), len(single))
        subjects += several[rest:] + single[rest:]
    return [case for subject in subjects for case in groups[subject]]


def build_context(cases: Sequence[CounterFactCase], size: int, questions: int, *,
                  seed: int = 0, pair_share: float = PAIR_SHARE) -> Context:
    """One user's context of ``size`` memories.

    The rewrites are the first ``size * pair_share`` cases of ``cases`` (so a larger context
    holds every rewrite of a smaller one built from the same list); the questions are the first
    ``questions`` of them. Neighbourhood facts of the rewrites and true facts of the cases after
    them fill the rest. The order is a seeded shuffle in which each rewrite's true fact comes
    before its counterfactual.

    Args:
        cases: :func:`eligible_cases`, in the order to use them (:func:`order_by_subject`).
        size: memories in the context (≥ 4).
        questions: rewrites asked about, at most the number of rewrites.
        seed: the shuffle's seed.
        pair_share: share of the memories that are rewrites (two memories each).

    Returns:
        The context; its questions in rewrite order.

    Raises:
        ValueError: ``size`` < 4, or ``cases`` too few to fill it.
    """
    if size < 4:
        raise ValueError(f"size must be at least 4, got {size}")
    n_pairs = max(1, int(size * pair_share))
    if len(cases) < n_pairs + (size - 2 * n_pairs):
        raise ValueError(f"{len(cases)} cases cannot fill a context of {size} memories")
    rewrites = list(cases[:n_pairs])
    items: list[tuple[str, str, CounterFactCase]] = []
    for case in rewrites:
        items.append((FACT, case.fact, case))
        items.append((UPDATE, case.update, case))
    texts = {text for _, text, _ in items}
    subjects = [case.subject for case in rewrites]
    for case in rewrites:
        if len(items) >= size:
            break
        neighbour = complete(case.locality_prompt, case.locality_ground_truth)
        if neighbour not in texts and not any(s in neighbour for s in subjects) \
                and len(items) < 2 * n_pairs + (size - 2 * n_pairs) // 2:
            texts.add(neighbour)
            items.append((NEIGHBOUR, neighbour, case))
    for case in cases[n_pairs:]:
        if len(items) >= size:
            break
        if case.fact not in texts:
            texts.add(case.fact)
            items.append((OTHER, case.fact, case))
    if len(items) < size:
        raise ValueError(f"{len(cases)} cases cannot fill a context of {size} memories")
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    position = {item: pos for pos, item in enumerate(order)}
    # each rewrite's fact before its update: swap the two positions when needed
    for k in range(0, 2 * n_pairs, 2):
        if position[k] > position[k + 1]:
            position[k], position[k + 1] = position[k + 1], position[k]
    memories: list[ContextMemory | None] = [None] * len(items)
    for k, (role, text, case) in enumerate(items):
        serial = position[k]
        memories[serial] = ContextMemory(
            id=f"m{serial:05d}", serial=serial, text=text, case_id=case.case_id, role=role,
            subject="" if role == NEIGHBOUR else case.subject, relation=case.template)
    asked = []
    for k, case in enumerate(rewrites[:questions]):
        asked.append(Question(case_id=case.case_id, query=case.prompt, subject=case.subject,
                              relation=case.template, target=case.target_new,
                              fact_id=f"m{position[2 * k]:05d}",
                              update_id=f"m{position[2 * k + 1]:05d}"))
    return Context(size=size, memories=tuple(m for m in memories if m is not None),
                   questions=tuple(asked))


# ------------------------------------------------------------------------------- scoring

def names_subject(text: str, subject: str) -> bool:
    """Whether ``text`` mentions ``subject`` (case-insensitive substring)."""
    return bool(subject) and subject.lower() in text.lower()


def max_serial_answer(hits: Sequence[str], texts: Mapping[str, str], serials: Mapping[str, int],
                      subject: str) -> str | None:
    """The deterministic baseline: among the hits whose text names the subject, the one with the
    highest serial (the latest fact about it); ``None`` when no hit names it.

    The deterministic baseline of issue 14 ("published work found it strong"): it needs no
    key at all, only the subject's name and the order of the facts.

    Args:
        hits: hit memory ids, in rank order.
        texts: memory id -> text.
        serials: memory id -> serial.
        subject: the question's subject.
    """
    named = [h for h in hits if names_subject(texts[h], subject)]
    return max(named, key=lambda h: serials[h]) if named else None


def first_cited(hits: Sequence[str], cite: Iterable[str]) -> str | None:
    """The first hit, in rank order, that the scan cites as current (what an agent would use);
    ``None`` when it cites none of them."""
    cited = set(cite)
    return next((h for h in hits if h in cited), None)


@dataclass
class Outcome:
    """How one question came out.

    Attributes:
        first_cite: the first cited hit; ``first_cite_right`` whether it is the update.
        top1_right: the bare hybrid top-1 is the update.
        max_serial_right: :func:`max_serial_answer` is the update.
        update_retrieved / both_retrieved: the update (and the true fact) among the hits.
        pair: what the scan said about the (fact, update) pair: ``<verdict>:<rule>`` of the
            conflict between them, ``duplicate``, ``not_found`` (both retrieved, nothing said)
            or ``not_retrieved``.
        wrongly_withheld: withheld hits other than a superseded true fact
            (:func:`wrongly_withheld`).
        other_subject_withheld: those, and true facts, withheld for a memory of another
            subject.
        subject_facts: hits about the question's subject (its pair, and its other relations).
    """

    first_cite: str | None
    first_cite_right: bool
    top1_right: bool
    max_serial_right: bool
    update_retrieved: bool
    both_retrieved: bool
    pair: str
    wrongly_withheld: list[str] = field(default_factory=list)
    other_subject_withheld: list[str] = field(default_factory=list)
    subject_facts: int = 0


def pair_outcome(question: Question, hits: Sequence[str],
                 conflicts: Iterable[tuple[Sequence[str], str, str | None]],
                 duplicates: Iterable[Sequence[str]]) -> str:
    """What the scan said about the question's pair (see :attr:`Outcome.pair`).

    Args:
        conflicts: ``(members, verdict, rule)`` of each reported conflict.
        duplicates: the reported duplicate groups.
    """
    pair = {question.fact_id, question.update_id}
    if not pair <= set(hits):
        return "not_retrieved"
    for members, verdict, rule in conflicts:
        if set(members) == pair:
            return f"{verdict}:{rule}" if rule else verdict
    if any(pair <= set(group) for group in duplicates):
        return "duplicate"
    return "not_found"


def wrongly_withheld(withhold: Iterable[str], withheld_by: Mapping[str, Collection[str]],
                     memories: Mapping[str, ContextMemory]) -> tuple[list[str], list[str]]:
    """Withheld memories that should not be, and those of them withheld for another subject.

    In a context the only memory that may be withheld is a rewrite's true fact, superseded by a
    later memory of its own subject (its counterfactual). Any other withheld memory is wrong;
    it is *of another subject* when no memory known to have superseded it is about its entity
    (:attr:`ContextMemory.entity`) — also when no winner is known at all (withheld by a verdict
    the caller did not see). A true fact superseded only by memories of other entities counts
    in both.

    Args:
        withhold: the report's ``withhold``.
        withheld_by: withheld id -> the winners known to have superseded it: this report's,
            and (the runner passes them) those of every earlier verdict of the run, since a
            memory withheld by an earlier question's verdict is withheld again without its
            winner among the hits.
        memories: memory id -> memory.

    Returns:
        ``(wrong, other_subject)``, each sorted.
    """
    wrong, other = [], []
    for w in sorted(set(withhold)):
        memory = memories.get(w)
        if memory is None:
            continue
        winners = [memories[x] for x in withheld_by.get(w, ()) if x in memories]
        own = any(x.entity == memory.entity for x in winners)
        if memory.role != FACT:
            wrong.append(w)
            if not own:
                other.append(w)
        elif winners and not own:
            wrong.append(w)
            other.append(w)
    return wrong, other


def extraction_cause(fact: Sequence[Triple], update: Sequence[Triple],
                     functional: Callable[[str], bool]) -> str:
    """Why a retrieved pair was not found, read from the two memories' stored triples.

    Args:
        fact, update: the triples extracted from the true fact and the counterfactual.
        functional: whether the relation table holds a relation functional.

    Returns:
        ``no_triple`` (one memory gave none), ``subject_differs`` (no subject in common),
        ``relation_differs`` (a subject in common, no key), ``same_value`` (a key in common whose
        values agree: the two read as one fact), ``not_functional`` (keys in common with two
        values, none on a relation the table holds functional) or ``other``.
    """
    if not fact or not update:
        return "no_triple"
    if not {t.subject for t in fact} & {t.subject for t in update}:
        return "subject_differs"
    keys = {(t.subject, t.relation) for t in fact} & {(t.subject, t.relation) for t in update}
    if not keys:
        return "relation_differs"
    values: dict[tuple[str, str], list[set]] = defaultdict(lambda: [set(), set()])
    for side, triples in enumerate((fact, update)):
        for t in triples:
            if (t.subject, t.relation) in keys:
                values[(t.subject, t.relation)][side].add((t.object, t.negated))
    if any(a & b for a, b in values.values()):
        return "same_value"
    if not any(functional(rel) for _, rel in keys):
        return "not_functional"
    return "other"


def score_question(question: Question, hits: Sequence[str], memories: Mapping[str, ContextMemory],
                   *, cite: Iterable[str], withhold: Iterable[str],
                   conflicts: Iterable[tuple[Sequence[str], str, str | None]] = (),
                   duplicates: Iterable[Sequence[str]] = (),
                   withheld_by: Mapping[str, Collection[str]] | None = None) -> Outcome:
    """Score one read-time scan of a question.

    Args:
        question: the question.
        hits: hit memory ids in rank order (the bare hybrid ranking).
        memories: memory id -> memory (texts, serials, subjects).
        cite, withhold: the report's ``cite`` and ``withhold``.
        conflicts: ``(members, verdict, rule)`` of the report's conflicts.
        duplicates: the report's duplicate groups.
        withheld_by: withheld id -> the winners known to have superseded it
            (:func:`wrongly_withheld`).
    """
    conflicts = list(conflicts)
    texts = {h: memories[h].text for h in hits}
    serials = {h: memories[h].serial for h in hits}
    first = first_cited(hits, cite)
    baseline = max_serial_answer(hits, texts, serials, question.subject)
    hit_set = set(hits)
    wrong, other = wrongly_withheld(withhold, withheld_by or {}, memories)
    return Outcome(
        first_cite=first, first_cite_right=first == question.update_id,
        top1_right=bool(hits) and hits[0] == question.update_id,
        max_serial_right=baseline == question.update_id,
        update_retrieved=question.update_id in hit_set,
        both_retrieved={question.update_id, question.fact_id} <= hit_set,
        pair=pair_outcome(question, hits, conflicts, duplicates),
        wrongly_withheld=wrong, other_subject_withheld=other,
        subject_facts=sum(1 for h in hits if memories[h].entity == question.subject))


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Rates over questions (each in [0, 1]) and counts.

    Returns:
        ``questions``; ``first_cite``, ``hybrid_top1``, ``max_serial`` (accuracy of each
        answer); ``ceiling_update`` and ``ceiling_both`` (the retrieval ceiling: the update,
        and both memories of the pair, among the hits); ``pair_found`` (a conflict between the
        two, among questions whose pair was retrieved) and ``first_cite_when_found``;
        ``pairs`` (count by :attr:`Outcome.pair`); ``other_subject_withheld`` and
        ``wrongly_withheld`` (distinct memories — one withheld memory among the hits of
        several questions counts once — and questions with at least one);
        ``subject_has_other_facts``: the three accuracies over the questions whose hits hold
        more facts about the subject than its pair (where the max-serial baseline can err).
    """
    n = len(outcomes)

    def rate(values: Iterable[bool], of: int | None = None) -> float:
        total = n if of is None else of
        return round(sum(values) / total, 4) if total else 0.0

    retrieved = [o for o in outcomes if o.both_retrieved]
    found = [o for o in retrieved if o.pair not in ("not_found", "duplicate")]
    return {
        "questions": n,
        "first_cite": rate(o.first_cite_right for o in outcomes),
        "hybrid_top1": rate(o.top1_right for o in outcomes),
        "max_serial": rate(o.max_serial_right for o in outcomes),
        "ceiling_update": rate(o.update_retrieved for o in outcomes),
        "ceiling_both": rate(o.both_retrieved for o in outcomes),
        "pair_found": rate((True for _ in found), len(retrieved)),
        "first_cite_when_found": rate((o.first_cite_right for o in found), len(found)),
        "pairs": dict(sorted(Counter(o.pair for o in outcomes).items())),
        "other_subject_withheld": {
            "memories": len({m for o in outcomes for m in o.other_subject_withheld}),
            "questions": sum(bool(o.other_subject_withheld) for o in outcomes)},
        "wrongly_withheld": {
            "memories": len({m for o in outcomes for m in o.wrongly_withheld}),
            "questions": sum(bool(o.wrongly_withheld) for o in outcomes)},
        "subject_has_other_facts": _subset([o for o in outcomes if o.subject_facts > 2]),
    }


def _subset(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The three answers' accuracy over a subset of questions."""
    n = len(outcomes)
    return {"questions": n, **{name: round(sum(getattr(o, attr) for o in outcomes) / n, 4)
                                if n else 0.0
                                for name, attr in (("first_cite", "first_cite_right"),
                                                   ("hybrid_top1", "top1_right"),
                                                   ("max_serial", "max_serial_right"))}}


def by_group(keys: Sequence[str], outcomes: Sequence[Outcome]) -> dict[str, dict[str, Any]]:
    """:func:`summarise` per group (``keys[i]`` is outcome ``i``'s group), groups sorted."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for key, outcome in zip(keys, outcomes, strict=True):
        groups[key].append(outcome)
    return {key: summarise(groups[key]) for key in sorted(groups)}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by linear interpolation (numpy's default method)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
