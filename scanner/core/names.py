"""Two spellings of one name as values: a proper name and its short form ("Lena" / "Lena Fischer").

SPEC §2: a restatement is never a conflict. Two values written as proper names, one a short
form of the other under the rule of :mod:`scanner.short_forms` (a person's first or last name
alone, an acronym, an organisation's name without its legal form), name one thing, so
"Omar's manager is Lena." and "Omar's manager is Lena Fischer." agree. The rule is the one
SPEC §3's ``subject_unconfirmed`` applies to subjects, applied to values:

* never by edit distance or string similarity: "Lena" / "Lina" still differ;
* only for values written as proper names (:func:`scanner.short_forms.written_as_name`):
  "coffee" / "iced coffee" is not a short form;
* two full names are not short forms of each other: "Lena Fischer" / "Lena Park" still differ;
* a denial meets the other spelling: "is no longer Lena" denies "is Lena Fischer" (polarity).

Pure functions over :class:`scanner.core.stances.Stance` values.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from extractors import Triple
from scanner.short_forms import is_short_form, name_words, short_forms, written_as_name

if TYPE_CHECKING:
    from scanner.core.stances import Stance


def written_name(triple: Triple) -> bool:
    """Whether the triple's object was written as a proper name ("Lena Fischer", "IBM")."""
    written = triple.object_text
    return written[:1].isupper() and written_as_name(written, triple.object)


@lru_cache(maxsize=8192)
def _short_form(a: str, b: str) -> bool:
    """:func:`scanner.short_forms.is_short_form`, remembered: a key group compares the same
    few names pair after pair (about 50 µs a comparison uncached)."""
    return is_short_form(a, b)


def agree_by_name(x: Stance, y: Stance) -> bool:
    """Whether two stances assert one thing under two spellings of its name: an asserted
    value of each, both written as proper names, one a short form of the other
    (:func:`scanner.short_forms.is_short_form`). "Lena" / "Lena Fischer" agree; "Lena
    Fischer" / "Lena Park" and "Lena" / "Lina" do not."""
    if not x.names or not y.names:
        return False
    theirs = y.names & y.asserted
    return any(_short_form(a, b) for a in x.names & x.asserted for b in theirs)


def contested_names(x: Stance, y: Stance) -> set[str]:
    """The objects one stance denies that the other asserts under another spelling of the
    name ("is no longer Lena" / "is Lena Fischer": ``{"lena"}``), named by the denied object."""
    out: set[str] = set()
    if not x.names or not y.names:
        return out
    for denier, holder in ((x, y), (y, x)):
        held = holder.names & holder.asserted
        for obj in denier.names & denier.denied:
            if any(_short_form(obj, h) for h in held):
                out.add(obj)
    return out


def name_denials(everyone: Sequence[Stance], asserting: Mapping[str, Sequence[Stance]]
                 ) -> Iterator[tuple[Stance, Stance]]:
    """``(denier, holder)`` pairs where ``denier`` denies, as a proper name, another spelling
    of a name ``holder`` asserts (:func:`contested_names`).

    A hash join on each asserted name's words and short forms, so the cost follows the pairs
    found, not the product of denials and assertions.

    Args:
        everyone: the stances of one key group.
        asserting: asserted object -> the stances asserting it.
    """
    denials = [(s, obj) for s in everyone if s.names for obj in s.denied & s.names]
    if not denials:
        return
    full: dict[str, list[str]] = defaultdict(list)  # an asserted name's words -> the name
    shorter: dict[str, list[str]] = defaultdict(list)  # its short forms -> the name
    for held, holders in asserting.items():
        if held and any(held in t.names for t in holders):
            full[" ".join(name_words(held))].append(held)
            for form in short_forms(held):
                shorter[form].append(held)
    for s, obj in denials:
        candidates = set(shorter.get(" ".join(name_words(obj)), ()))
        candidates.update(full.get(" ".join(name_words(obj)), ()))
        for form in short_forms(obj):
            candidates.update(full.get(form, ()))
        for held in sorted(candidates):
            if _short_form(obj, held):
                for t in asserting[held]:
                    if held in t.names:
                        yield s, t
