"""Candidate pairs of a later memory that changes something an earlier one named (issue 37,
kinds 2, 3 and 5), found by structure, judged by the pair judge.

The keys meet two memories only when both readings name the same relation. Memory written by
others often changes a named thing in other words: "Mobile Team allocated to Project Phoenix"
/ "Mobile Team reallocated to Project Alpha"; "approved 2 years renewal for TechCorp" / "do not
renew TechCorp"; "CASE-5678 resolution: resolved with workaround" / "CASE-5678 status changed:
escalated to tier 2"; "$100 per unit" / "[INVALIDATED - was based on wrong data: $100 per
unit] …". A pair is a candidate when, in one scope,

* the later memory marks a change (:data:`extractors.change_cues.CHANGE_CUES`: a change
  verb, "now", "no longer", "instead", a correction or retraction) or retracts the earlier,
  quoting its opening words and saying it was wrong (:func:`_retracts`: "[INVALIDATED - …]",
  "Correction: …"; two log lines that open alike retract nothing), and
* both name the same owner: a proper name or an identifier ("Acme Supplies", "CASE-5678",
  "Project Phoenix"), and share a word stem besides it (the attribute anchor: "allocated" /
  "reallocated", "renewal" / "renew", "terms" / "terms"), or the later quotes the earlier;
  or the later changes "from A to B" and the earlier states A, with a shared stem besides A
  ("keeps its records in PostgreSQL" / "switched the invoicing service's database from
  PostgreSQL to MySQL");
* or the later revokes, right beside the name, the attribute the earlier states of it
  ("approved purchase of Server Upgrade for $5000" / "purchase of Server Upgrade cancelled";
  "approved 2 years renewal for TechCorp" / "do not renew TechCorp"): :func:`_revoked`.

Structure alone flags nothing: only a pair the judge reads as an ``update`` is kept
(:func:`scanner.scan.scan_records`). A pair found by a shared name and stem alone stays
``possible`` (:func:`scanner.core.policy.in_other_words`: one shared word names no whole
attribute); the policy decides a pair whose later memory quotes the earlier, changes from
the value the earlier states or revokes the attribute it states as any other conflict. Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence

from extractors import Cardinality
from extractors.change_cues import AGAIN_VERBS, CHANGE_CUES, CORRECTION_CUES, REVOCATION_CUES
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey
from scanner.core.stances import Stance
from scanner.models import MemoryRecord

_NAME = re.compile(
    r"\b(?:[A-Z]{2,}[-_]?\d+[\w-]*|[A-Z][\w&'.-]*\d[\w-]*"            # CASE-5678, Q4, v2
    r"|(?:[A-Z][a-z0-9&'-]+|[A-Z]{2,})(?:\s+(?:[A-Z][a-z0-9&'-]+|[A-Z]{2,}))+)")  # Acme Supplies
"""A proper name of two or more capitalised words, or an identifier with a digit."""
_INNER_CAPITAL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]*)+\b")
_WORDS = re.compile(r"\S+")


def _one_word_names(text: str) -> set[str]:
    """One-word names: with an inner capital ("TechCorp", "DataServices", "VendorA"), or a
    capitalised word inside a sentence with no capitalised word beside it ("discount for
    Initech revoked"). Met only by a revocation (:func:`_revoked`), whose structure names the
    attribute itself."""
    out = {m.lower() for m in _INNER_CAPITAL.findall(text)}
    words = _WORDS.findall(text)
    for i in range(1, len(words)):
        word = words[i].strip(".,;:!?()[]'\"’")
        beside = [words[i - 1]] + words[i + 1:i + 2]
        if re.fullmatch(r"[A-Z][a-z]{2,}", word) and not words[i - 1].endswith((".", "!", "?")) \
                and not any(w[:1].isupper() for w in beside):
            out.add(word.lower())
    return out


_NEGATED = frozenset({"not", "never", "don't", "won't", "cannot", "can't", "shouldn't"})
"""Words that negate the verb right after them: "do not renew TechCorp" revokes the renewal
an earlier memory approved (Quirk et al. 1985 §10.54, clause negation)."""
_WORD = re.compile(r"[a-z][a-z-]{3,}")
_PLAIN_WORD = re.compile(r"[\w+#-]+(?:\.[\w+#-]+)*")
_QUOTED = re.compile(r"(?<!\w)['‘\"“][^'’\"”]{2,80}['’\"”](?!\w)")
"""A quoted stretch: a title or a quotation."""
_STOP = frozenset("""this that with from have been will would should could their there
about after before when what which while into onto over under were your they them then than
also just very more most much some such each only even still same other per also upon
based data wrong original conclusion invalidated""".split())
_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "als", "al", "ed", "es", "s",
             "ion", "e")

_FROM_TO = re.compile(r"\bfrom\s+([A-Za-z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*)?)\s+to\s+\S",
                      re.IGNORECASE)
"""A change "from A to B" in the later memory: A is the value it leaves (Quirk et al. 1985
§9.21, source and goal of a change)."""

MAX_PER_MEMORY = 4
"""Earlier memories paired with one later memory, nearest in time first."""

_LEFT = re.compile(r"\b(?:from|instead\s+of)\s+$", re.IGNORECASE)
"""Words before a value that a change leaves (the source of a change, Quirk et al. 1985
§9.21)."""


def _states(text: str, value: str) -> bool:
    """Whether ``text`` says ``value`` (lower case) other than as the source of a change:
    "Switched from stovetop to oven roasting" says the stovetop was left, so a later "switched
    from stovetop to …" tells the same switch again, not a change of what it stated."""
    return any(not _LEFT.search(text[max(0, m.start() - 20):m.start()])
               for m in re.finditer(rf"\b{re.escape(value)}\b", text.lower()))


def _unsuffixed(word: str) -> str:
    """``word`` without one inflectional or derivational suffix of :data:`_SUFFIXES`, four
    letters at least left."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _stem(word: str) -> str:
    return _unsuffixed(word.removeprefix("re") if len(word) > 6 and word.startswith("re")
                       else word)


NEAR = 4
"""Words between a name and the attribute word or change cue that hang on it: the attribute
is said of the named thing ("Mobile Team reallocated to ...", "renewal for TechCorp"), not
elsewhere in a memory of several facts."""


@functools.lru_cache(maxsize=65536)
def _positions(text: str, name: str) -> tuple[int, ...]:
    words = text.lower().split()
    first = name.split()[0]
    return tuple(i for i, w in enumerate(words)
                 if w.strip(".,;:()[]'\"’").startswith(first))


def _near(text: str, name: str, stems: set[str]) -> set[str]:
    """The ``stems`` written within :data:`NEAR` words of ``name`` in ``text``."""
    words = text.lower().split()
    width = len(name.split())
    out = set()
    for at in _positions(text, name):
        for w in words[max(0, at - NEAR):at + width + NEAR]:
            stem = _stem(re.sub(r"[^a-z-]", "", w))
            if stem in stems:
                out.add(stem)
    return out


@functools.lru_cache(maxsize=65536)
def _changed_near(text: str, name: str) -> bool:
    """Whether a change cue is written within twice :data:`NEAR` words of ``name``."""
    words = text.split()
    width = len(name.split())
    return any(CHANGE_CUES.search(" ".join(words[max(0, at - 2 * NEAR):at + width + 2 * NEAR]))
               for at in _positions(text, name))


def _done_again(later: str, earlier: str, shared: set[str]) -> str | None:
    """The shared stem that ``later`` writes with the prefix "re-" and ``earlier`` without
    it ("reallocated" / "allocated", "rescheduled" / "scheduled"): the same act done again,
    whose new outcome replaces the old (Quirk et al. 1985 App. I.21, "re-" = again); None
    when there is none."""
    said = {w.lower() for w in _WORD.findall(earlier.lower())}
    for word in _WORD.findall(later.lower()):
        if word.startswith("re") and len(word) > 6 and _stem(word) in shared and (
                word not in said and word[2:] in said | {w + "d" for w in said}
                or word in said and word in AGAIN_VERBS and _other_name(earlier, later)):
            # "allocated" / "reallocated", or "reassigned to A" / "reassigned to B"
            return _stem(word)
    return None


def _base(word: str) -> str:
    """``word`` without punctuation and its inflectional or derivational suffix, prefix kept
    ("renewal" and "renew" → "renew", "purchase" → "purchas")."""
    return _unsuffixed(re.sub(r"[^a-z-]", "", word.lower()))


def _revoked(later: str, earlier: str, name: str) -> str | None:
    """The attribute that ``later`` revokes of ``name`` and ``earlier`` states of it, or None.

    The later memory revokes an attribute said right beside the name, by a participle of
    :data:`extractors.change_cues.REVOCATION_CUES` right after the phrase ("purchase of
    Software License cancelled", "discount for Acme Corp revoked") or by negating the act
    right before the name ("do not renew TechCorp"); the earlier says the same attribute word
    within :data:`NEAR` words of the name ("approved purchase of Software License for
    $25000", "approved 2 years renewal for TechCorp"). The phrase names the whole attribute
    (its head and its owner), so the pair is decidable (:data:`scanner.scan.STRUCTURE_LABELS`,
    the judge must still read an update)."""
    said = {_base(w) for at in _positions(earlier, name)
            for w in earlier.split()[max(0, at - NEAR):at + len(name.split()) + NEAR]}
    said = {w for w in said if len(w) >= 4 and w not in _STOP and w not in name}
    words = later.split()
    width = len(name.split())
    for at in _positions(later, name):
        end = at + width
        before = [_base(w) for w in words[max(0, at - 2):at]]
        after = words[end:end + 3]
        attribute = next((w for w in before + [_base(w) for w in after[:1]] if w in said), None)
        if attribute and REVOCATION_CUES.search(" ".join(after)):
            return attribute
        if at >= 2 and before[-1] in said and words[at - 2].lower() in _NEGATED:
            return before[-1]
    return None


def _words(text: str) -> set[str]:
    return {w.strip(".,;:!?()[]'\"’") for w in text.split()} - {""}


def _alike(a: str, b: str) -> bool:
    """Whether two memories share four in five of their words (Jaccard ≥ 0.8, case and
    punctuation aside): one said again, not changed."""
    x, y = {w.lower() for w in _words(a)}, {w.lower() for w in _words(b)}
    return len(x & y) >= 0.8 * len(x | y)


def _retracts(text: str) -> bool:
    """Whether ``text`` says an earlier statement was wrong
    (:data:`extractors.change_cues.CORRECTION_CUES`): "[INVALIDATED - …]", "Correction: …",
    "… was wrong". The noun "correction" inside a sentence names a topic ("spelling correction
    methods", "after bias corrections"), not a retraction: it counts only as a label, at the
    start or before a colon or dash."""
    for m in CORRECTION_CUES.finditer(text):
        if m.group().lower() != "correction" or m.start() <= 1 or \
                re.match(r"\s*[:\-–—]", text[m.end():]):
            return True
    return False


def _other_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by a capitalised word: the same sentence with another
    name in it says something else ("Ops Team reassigned to Billing" / "… to Support"), not the
    same thing again."""
    return any(w[:1].isupper() for w in _words(a) ^ _words(b))


def _names(text: str) -> set[str]:
    """Proper names and identifiers of ``text``; a capitalised verb opening it ("Attended
    Sara's dinner", "Booked Gion Corner") is no part of a name, and a quoted title ("'The Name
    of the Wind'") is a value the memory names, not the thing it is about."""
    out = set()
    for m in _NAME.finditer(_QUOTED.sub(" ", text)):
        name = m.group()
        if m.start() == 0 and " " in name and name.split()[0].lower().endswith(("ed", "ing")):
            name = name.split(" ", 1)[1]
            if _one_word(name):
                continue
        out.add(name.lower())
    out.update(_one_word_names(_QUOTED.sub(" ", text)))
    return out


def _one_word(name: str) -> bool:
    return " " not in name and not any(c.isdigit() for c in name)


def _stems(text: str, names: set[str]) -> set[str]:
    skip = {w for n in names for w in n.split()}
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and w not in skip}


_PUNCT = re.compile(r"[^\w$%.\s-]|(?<!\d)[.](?!\d)")


def _quotes(later: str, earlier: str, *, least: int = 5) -> bool:
    """Whether ``later`` repeats ``earlier``'s opening words (``least`` words or more, or all
    of a shorter memory of three or more): a retraction names what it retracts."""
    words = _PUNCT.sub(" ", earlier).split()
    told = " ".join(_PUNCT.sub(" ", later).lower().split())
    return any(" ".join(words[:n]).lower() in told
               for n in range(min(len(words), 8), min(least, len(words)) - 1, -1) if n >= 3)


def named_change_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (earlier, later) of the module docstring, at most
    :data:`MAX_PER_MEMORY` per later memory.

    Args:
        records: the memories of a scan, any scopes.

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, shared name, shared stem)``, sorted by member
        ids, each found by ``named`` (a shared name and stem: at most ``possible``,
        :func:`scanner.core.policy.in_other_words`), ``redone`` (the later does the
        earlier's act again: "reallocated" / "allocated"), ``from_value`` (the later
        changes from a value the earlier states), ``quoted`` (the later retracts the
        earlier, quoting it) or ``revoked`` (the later revokes the attribute the earlier
        states of the name: :func:`_revoked`).
    """
    by_scope: dict[tuple, list[tuple[MemoryRecord, set[str], set[str]]]] = defaultdict(list)
    for r in records:
        if r.observed_at is None:
            continue
        names = _names(r.text)
        by_scope[(r.user_id, r.group, tuple(sorted(r.properties.items())))].append(
            (r, names, _stems(r.text, names)))
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in by_scope.values():
        by_name: dict[str, list[int]] = defaultdict(list)
        by_word: dict[str, list[int]] = defaultdict(list)  # for "from A to B": who says A
        for i, (record, names, _) in enumerate(items):
            for name in names:
                by_name[name].append(i)
            for word in set(_PLAIN_WORD.findall(record.text.lower())):
                by_word[word].append(i)
        for j, (later, names, stems) in enumerate(items):
            if not CHANGE_CUES.search(later.text) and not REVOCATION_CUES.search(later.text):
                continue
            seen: dict[int, tuple[str, str]] = {}
            for name in names:
                for i in by_name[name]:
                    earlier, _, their = items[i]
                    if i == j or earlier.observed_at >= later.observed_at or \
                            _alike(earlier.text, later.text) and \
                            not _other_name(earlier.text, later.text):
                        continue
                    revoked = _revoked(later.text, earlier.text, name)
                    if revoked:  # "purchase of X cancelled" / "approved purchase of X"
                        seen[i] = (name, revoked, "revoked")
                        continue
                    if _one_word(name):  # a one-word name meets by a revocation only
                        continue
                    shared = sorted(_near(later.text, name, stems & their)
                                    & _near(earlier.text, name, stems & their))
                    changed = bool(shared) and _changed_near(later.text, name)
                    again = changed and _done_again(later.text, earlier.text, set(shared))
                    if again:  # "allocated to Phoenix" / "reallocated to Alpha"
                        seen[i] = (name, again, "redone")
                    elif _quotes(later.text, earlier.text) and _retracts(later.text):
                        seen[i] = (name, "retraction", "quoted")
                    elif changed:
                        seen.setdefault(i, (name, shared[0], "named"))
            for left in _FROM_TO.finditer(later.text):  # "switched X from PostgreSQL to MySQL"
                old_value = left.group(1).lower()
                for i in by_word.get(old_value.split()[0], ()):
                    earlier, _, their = items[i]
                    if i != j and earlier.observed_at < later.observed_at and \
                            _states(earlier.text, old_value) \
                            and (stems & their) - _stems(old_value, set()):
                        if seen.get(i, ("", "", "named"))[2] == "named":
                            seen[i] = (old_value, "from " + old_value, "from_value")
            for text in (t for t in ("invalidated", "correction", "retract")
                         if t in later.text.lower() and _retracts(later.text)):
                for i, (earlier, _, _) in enumerate(items):  # a few retractions a scope
                    if i != j and earlier.observed_at <= later.observed_at and \
                            _quotes(later.text, earlier.text, least=3):
                        seen[i] = ("", text, "quoted")
            nearest = sorted(seen, key=lambda i: later.observed_at - items[i][0].observed_at)
            for i in nearest[:MAX_PER_MEMORY]:
                earlier = items[i][0]
                name, stem, found_by = seen[i]
                a, b = sorted((earlier, later), key=lambda r: r.id)
                ids = (a.id, b.id)
                if ids in found:
                    continue
                key = GroupKey(a.scope(), name or "memory", stem)
                found[ids] = CandidatePair(key, "value_mismatch", _stance(a), _stance(b),
                                           Cardinality.functional, found_by=found_by)
    return [found[k] for k in sorted(found)]


def _stance(record: MemoryRecord) -> Stance:
    """A stance holding the memory's whole text as its value (no triple names it)."""
    return Stance(record, frozenset({record.text}), frozenset(), {record.text: record.text},
                  None, True)
