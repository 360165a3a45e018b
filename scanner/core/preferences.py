"""Candidate pairs of two preferences for one slot (issue 37, kinds 1 and 2), found by
structure, judged by the pair judge.

A short preference names its slot beside its value: the kind of thing preferred, said by the
head noun after the value ("Prefer morning meetings", "Prefers concise summary responses"),
and what it is for ("Prefer using Svelte for this project", "Prefers checklists for onboarding
docs"). Two preferences of one holder for the same slot with different values cannot both be
current: the later replaces the earlier ("Prefer morning meetings" / "Prefer afternoon
meetings"). A preference that names its alternative ("I prefer JWT over session cookies") is
read by the keys (the alternative is the slot), and one inside a longer sentence is not a
preference note.

A pair is a candidate when, in one scope (user, group, properties), both memories are
preference notes (:func:`preference_of`: the whole memory is an optional holder, a verb of
preference from ``extractors/data/note_words.toml [preference]``, and at most
:data:`MAX_WORDS` words preferred, with no "over", "to" or "than" naming an alternative), they
have the same slot (:class:`Preference`: the same head noun after a value of one or more
words and the same purpose, or the same purpose after a one-word value), and different values. The slot is the whole attribute, so a pair
the judge reads as an ``update`` may be decided (:data:`scanner.scan.STRUCTURE_LABELS`).
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from extractors import Cardinality
from extractors.note_words import PREFERENCE_VERBS
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey
from scanner.core.named_changes import _stance
from scanner.models import MemoryRecord

MAX_WORDS = 8
"""Words preferred, purpose included: a slot and a value ("using Svelte for this project"),
not a sentence of several facts."""

_HOLDER = r"(?:(?:i|we|the user|user|[A-Z][a-z]+)\s+)?"
_PREFERENCE = re.compile(
    rf"^\s*{_HOLDER}(?:(?:still|now|also|really)\s+)?(?P<verb>" +
    "|".join(map(re.escape, PREFERENCE_VERBS)) +
    r")\s+(?P<what>(?:[^.;:!?()\[\]]|\.(?=\w))+?)\s*[.!]?\s*$", re.IGNORECASE)
"""A whole memory that is a preference; a full stop inside a word is part of a name
("Next.js", "ASP.NET")."""
_ALTERNATIVE = re.compile(r"\b(?:over|to|than|rather|instead|versus|vs)\b", re.IGNORECASE)
"""A preference that names its alternative: the alternative is its slot, read by the keys."""
_PURPOSE = re.compile(r"^(?P<value>.+?)\s+(?P<purpose>(?:for|when|during|on|in|at)\s+.+)$",
                      re.IGNORECASE)
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "my", "our", "their", "all"})
_GERUND = re.compile(r"^(?:using|having|doing|getting|working with|going with)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Preference:
    """A preference note: ``slot`` = (frame, head noun or "", purpose or "") and ``value`` the
    words preferred, lower-cased, without the slot's words."""

    slot: tuple[str, str, str]
    value: str


def _norm(words: str) -> str:
    return " ".join(w for w in re.sub(r"[^\w\s.+#-]", " ", words.lower()).split()
                    if w not in _DETERMINERS)


def preference_of(text: str) -> Preference | None:
    """The preference note ``text`` is, or None (the module docstring)."""
    m = _PREFERENCE.match(text)
    if m is None or _ALTERNATIVE.search(m["what"]):
        return None
    what = m["what"].strip()
    if len(what.split()) > MAX_WORDS:
        return None
    gerund = _GERUND.match(what)
    frame = gerund.group().strip().lower() if gerund else ""
    what = what[gerund.end():] if gerund else what
    purposed = _PURPOSE.match(what)
    value, purpose = (purposed["value"], _norm(purposed["purpose"])) if purposed else (what, "")
    words = _norm(value).split()
    if not words:
        return None
    if len(words) < 2 and not purpose:  # "Prefer tea": no slot said
        return None
    # the head noun after a value of several words names the kind preferred ("window seats
    # on flights" / "vegetarian meals on flights" are two slots); a one-word value with a
    # purpose is the whole choice ("using Svelte for this project")
    head = words[-1] if len(words) > 1 else ""
    return Preference((frame, head, purpose), " ".join(words[:-1] if head else words))


def preference_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (earlier, later) of two preference notes of one slot in one scope.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired (which came first is unknown).

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "preference", slot words)``, found by
        ``preferred``, sorted by member ids.
    """
    by_slot: dict[tuple, list[tuple[MemoryRecord, Preference]]] = defaultdict(list)
    for r in records:
        if r.observed_at is None:
            continue
        note = preference_of(r.text)
        if note is not None:
            by_slot[(r.user_id, r.group, tuple(sorted(r.properties.items())), note.slot)].append(
                (r, note))
    found: dict[tuple[str, str], CandidatePair] = {}
    for (*_, slot), items in by_slot.items():
        for i, (a, x) in enumerate(items):
            for b, y in items[i + 1:]:
                if x.value == y.value or a.observed_at == b.observed_at:
                    continue
                a_, b_ = sorted((a, b), key=lambda r: r.id)
                found.setdefault((a_.id, b_.id), CandidatePair(
                    GroupKey(a_.scope(), "preference", " ".join(w for w in slot if w)),
                    "value_mismatch", _stance(a_), _stance(b_), Cardinality.functional,
                    found_by="preferred"))
    return [found[k] for k in sorted(found)]
