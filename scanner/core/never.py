"""Candidate pairs of a denial of any time against a report of the same thing (issue 37, kind 4).

"I have never written any Flask routes in this project" against an earlier "Implemented a
basic homepage route with Flask"; "I've never downloaded Zotero" against "Downloaded Zotero on
March 2". One speaker's statements that cannot both hold at any time are a contradiction, not
an update: recency does not settle them (SPEC §2, last row). The keys rarely put such a pair
together, because the two memories use different verbs, so this module finds them by structure:

* the denying memory says "never" / "not ever" / "no experience with" (Quirk et al. 1985
  §7.56 on "never" as the negative of "ever": it denies every time); each of its triples is
  met with reports of the other polarity (a denial is mostly a denied triple, but "never
  declined a meeting" reads as accepting it);
* the other memory of the same scope asserts a triple of the same subject and relation whose
  object shares a content word with the denied object ("never downloaded Zotero" /
  "Downloaded Zotero on March 2"), or says :data:`MIN_SHARED` of the denied object's content
  words in other words ("never written any Flask routes" / "Implemented a homepage route with
  Flask").

Each candidate is a ``polarity`` pair under the denied triple's key. The pair judge decides:
only a pair it reads as a conflict (``contradiction`` or ``update``) is kept
(:func:`scanner.scan.scan_records`); a later denial is quarantined with a clarification
question (:func:`scanner.core.policy.contradictory_statements`).
Pure: no I/O.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from extractors import Cardinality
from extractors.clause_frames import FUTURE
from scanner.core.detect import CandidatePair
from scanner.core.experience import _NEVER
from scanner.core.keys import Assertion, GroupKey
from scanner.core.stances import stances

_WORD = re.compile(r"[^\W_]+")
_FUNCTION = frozenset("""a an the any some my our your his her their its this that these
those of in on at to for with by from and or project projects thing things one ones time
times before yet""".split())
"""Words of an object that name nothing particular ("any", "this project")."""

MIN_SHARED = 2
"""Content words of the denied object a report in other words must say: one shared noun
("never tried publishing a book" / "has a lot of books") names a kind, not the act denied;
a report of the same act ("never met Bryan" / "Met Bryan at the festival") needs one."""

MAX_PER_DENYING_MEMORY = 3
"""Candidates kept per denying memory over all its triples, its first triples' best first:
the judge keeps at most two of them (:data:`scanner.scan.MAX_CONTRADICTED`), and each pair
judged costs about 13 ms on one thread (docs/benchmarks.md#pair-judge)."""

MAX_PER_DENIAL = 4
"""Candidates kept per denying triple, the strongest evidence first (the words the two
memories share, weighted by their rarity in the scope, plus :data:`SAME_ACT`), then the
nearest in time: a denial that shares a word with hundreds of memories
("never used any tool") names too little to pair them all."""


@functools.lru_cache(maxsize=65536)
def _content(text: str) -> frozenset[str]:
    words = {w.lower() for w in _WORD.findall(text)}
    words -= _FUNCTION
    return frozenset(words | {w[:-1] for w in words if w.endswith("s") and len(w) > 3})


SAME_ACT = 3.0
"""What reporting the same act (the denial's relation with a word of its object) adds to the
evidence of a pair: about one word that fewer than one memory in twenty of the scope says
(log 20 = 3.0), so the same act with one rare word outranks two rare words in other acts."""


def _weights(reports: Sequence[Assertion]) -> dict[str, float]:
    """Inverse document frequency (Spärck Jones 1972) of each content word over the distinct
    memories of one scope and subject that may report: ``log(N / df)``, natural log."""
    texts = {r.record.id: r.record.text for r in reports}
    df: dict[str, int] = defaultdict(int)
    for text in texts.values():
        for word in _content(text):
            df[word] += 1
    n = max(len(texts), 1)
    return {w: math.log(n / d) for w, d in df.items()}


_CAPITALISED = re.compile(r"(?<![.!?:;]\s)(?<!^)\b([A-Z][\w'’-]*|[A-Z0-9]+)\b")


def _named(denial: Assertion) -> frozenset[str]:
    """The names a denial restricts its deed by: capitalised words of its text (not the first
    of a sentence, not "I") that are words of the denied object or of its qualifiers ("never
    been to a sneaker expo in Paris", "never driven a Tesla Model S"). A report that does not
    say them all is of another thing or place, not the deed denied (a proper name picks out
    one referent: Quirk et al. 1985 §5.60)."""
    t = denial.triple
    said = _content(" ".join([t.object_text or t.object, *(v for _, v in t.qualifiers)]))
    names = {m.lower() for m in _CAPITALISED.findall(denial.record.text) if m != "I"}
    return frozenset(w for w in names if w in said)


def _planned(report: Assertion) -> bool:
    """Whether a report states a plan rather than a deed ("I will attend the meetup"; time
    qualifier ``future``, :func:`extractors.clause_frames.in_future`): a plan does not
    contradict a denial that the deed was ever done."""
    time = report.triple.qualifier("time") if report.triple.qualifiers else None
    return time is not None and time.split(" ", 1)[0] == FUTURE


def never_pairs(groups: Mapping[GroupKey, Sequence[Assertion]]) -> list[CandidatePair]:
    """Candidate ``polarity`` pairs of a never-denial and a report of the same thing.

    Args:
        groups: key -> assertions (:func:`scanner.core.keys.group_by_key`).

    Returns:
        Pairs sorted by member ids, at most one per record pair, with cardinality
        ``functional`` (a denial of any time is never one value among many).
    """
    denials: list[tuple[GroupKey, Assertion]] = []
    reports: dict[tuple, list[Assertion]] = defaultdict(list)
    for key, items in groups.items():
        for item in items:
            if _NEVER.search(item.record.text):
                denials.append((key, item))
            else:
                reports[(key.scope, key.subject)].append(item)
    if not denials:
        return []
    # word -> reports saying it, per (scope, subject): a denial looks only at reports that
    # share a word with it (a 29,053-memory file: ~1 s instead of ~11)
    index: dict[tuple, dict[str, list[Assertion]]] = {}
    weights: dict[tuple, dict[str, float]] = {}
    for slot in {(key.scope, key.subject) for key, _ in denials}:
        words: dict[str, list[Assertion]] = defaultdict(list)
        for report in reports.get(slot, ()):
            for word in _content(report.record.text) | _content(report.triple.object):
                words[word].append(report)
        index[slot] = words
        weights[slot] = _weights(reports.get(slot, ()))
    denied: dict[str, list[frozenset[str]]] = defaultdict(list)  # record -> its denied acts
    for _, denial in denials:
        denied[denial.record.id].append(_content(denial.triple.object or denial.triple.relation))
    found: dict[tuple[str, str], CandidatePair] = {}
    paired: dict[str, int] = defaultdict(int)
    for key, denial in denials:
        wanted = _content(denial.triple.object or denial.triple.relation)
        if not wanted:
            continue
        when = denial.record.observed_at
        seen: dict[int, tuple[float, Assertion]] = {}
        words = index.get((key.scope, key.subject), {})
        weight = weights.get((key.scope, key.subject), {})
        # the words of another disjunct ("never attended the interview or submitted any
        # documents") are evidence of a report of that act, not of this one
        others = frozenset().union(*denied[denial.record.id]) - wanted
        whole = frozenset(w for w in _content(denial.record.text)
                          if w not in others and w[:-1] not in others)  # (and plurals)
        named = _named(denial)
        for word in wanted:
            for report in words.get(word, ()):
                if id(report) in seen or report.record.id == denial.record.id or \
                        report.triple.negated == denial.triple.negated or _planned(report):
                    continue
                text = _content(report.record.text)
                if not named <= text:
                    continue  # "never hiked Mount Rainier" / "hiked Mount Fuji": another one
                said = _content(report.triple.object)
                same_act = report.triple.relation == denial.triple.relation and bool(said & wanted)
                shared = len(wanted & text)
                if same_act or shared >= MIN_SHARED:
                    seen[id(report)] = (round(sum(weight.get(w, 0.0) for w in whole & text)
                                              + SAME_ACT * same_act, 6), report)
        matches = sorted(seen.values(), key=lambda x: (
            -x[0], abs((x[1].record.observed_at or when) - when) if when else 0,
            x[1].record.id))
        for evidence, report in matches[:MAX_PER_DENIAL]:
            ids = tuple(sorted((denial.record.id, report.record.id)))
            if ids in found or paired[denial.record.id] >= MAX_PER_DENYING_MEMORY:
                continue
            paired[denial.record.id] += 1
            a, b = stances([denial, report])
            found[ids] = CandidatePair(key, "polarity", a, b, Cardinality.functional,
                                       found_by="never", evidence=evidence)
    return [found[k] for k in sorted(found)]
