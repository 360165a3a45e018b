"""When two subject names may name one entity: one is a short form of the other.

SPEC §3 quarantines a conflict as ``subject_unconfirmed`` when subject identity is "not confirmed
equal". Which pairs of *different* names deserve that doubt is fixed here (issue 14, kind 5): a
subject is unconfirmed only when one name can be a short form of the other —

* a person's first or last name alone ("obama" / "barack obama", "sam" / "sam lee");
* an acronym ("ibm" / "international business machines");
* an organisation's name without its legal form ("hasbro" / "hasbro, inc.", "acme corp" /
  "acme corp.").

Never by edit distance or string similarity: "basketball" / "baseball", "ipad" / "ipad pro",
"rugby" / "rugby union" name different things and must not push a settled answer into
``unresolved``. Words that are not a person's given name are never taken for one, so a
compound's modifier or head alone ("rugby", "union") is not a short form of it.

The same rule tells when two *values* written as proper names are one value ("Omar's manager
is Lena" / "... is Lena Fischer" agree: :mod:`scanner.core.names`, :func:`written_as_name`).

Pure functions over canonical (lower-cased) subjects; no I/O beyond reading the packaged
given-name list once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

MAX_PERSON_WORDS = 4
"""A person's full name is 2 to 4 words ("barack hussein obama"); a longer phrase is not read
as one."""

ACRONYM_SKIP = frozenset({"of", "and", "the", "for", "&", "de", "du", "der", "la", "le", "y"})
"""Function words an acronym may leave out ("Bank of America" -> "BoA" or "BA"): both readings,
with and without them, are tried."""

LEGAL_FORMS = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc",
    "llp", "lp", "plc", "gmbh", "ag", "sa", "nv", "bv", "ab", "oy", "spa", "srl", "pty", "kg",
    "se", "sarl", "sas"})
"""Legal-form abbreviations after an organisation's name, from the common English and European
forms of the ISO 20275 Entity Legal Forms code list (GLEIF)."""

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Lower-cased given names: every name with at least 200 births in the US Social Security
    Administration's national baby-name counts, 1880-2015 (26,043 names; public-domain data,
    see ``scanner/data/PROVENANCE.md``)."""
    text = resources.files("scanner.data").joinpath("given_names.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def name_words(name: str) -> tuple[str, ...]:
    """The words of a canonical name, punctuation dropped ("hasbro, inc." -> hasbro, inc)."""
    return tuple(_WORD.findall(name.lower()))


def _without_legal_form(words: tuple[str, ...]) -> tuple[str, ...]:
    while len(words) > 1 and words[-1] in LEGAL_FORMS:
        words = words[:-1]
    return words


def _acronyms(words: tuple[str, ...]) -> set[str]:
    if len(words) < 2:
        return set()
    out = {"".join(w[0] for w in words)}
    content = [w for w in words if w not in ACRONYM_SKIP]
    if len(content) >= 2:
        out.add("".join(w[0] for w in content))
    return out


def _is_person_name(words: tuple[str, ...]) -> bool:
    """2-4 words whose first is a given name (a middle initial or name may follow)."""
    return 2 <= len(words) <= MAX_PERSON_WORDS and words[0] in given_names()


def short_forms(name: str) -> set[str]:
    """Every short form of ``name`` under the rule of this module, as space-joined words.

    Args:
        name: a canonical subject ("barack obama").

    Returns:
        The forms another name may have to count as possibly the same entity: the first and
        the last name alone of a person's name, the acronyms of a name of two or more words,
        the name without its legal form; empty for a one-word name.
    """
    words = name_words(name)
    out: set[str] = set()
    bare = _without_legal_form(words)
    if bare != words:
        out.add(" ".join(bare))
    if _is_person_name(bare):
        out.update({bare[0], bare[-1]})
    out.update(_acronyms(bare))
    out.discard(" ".join(words))
    return out


def is_short_form(a: str, b: str) -> bool:
    """True when one of two different names can be a short form of the other.

    The rule of issue 14 (kind 5), applied to SPEC §3's ``subject_unconfirmed``: a person's
    first or last name alone (the full name is 2-4 words and starts with a given name of
    :func:`given_names`), an acronym of a name of two or more words (with or without its
    function words), or an organisation's name without its legal form (:data:`LEGAL_FORMS`).
    Spellings that differ only in punctuation count as one name. Edit distance and string
    similarity never count: "basketball" / "baseball", "ipad" / "ipad pro" and "rugby" /
    "rugby union" are False.

    Args:
        a: a canonical subject.
        b: another canonical subject.

    Returns:
        False for equal names or an empty one.

    Example:
        >>> is_short_form("obama", "barack obama"), is_short_form("rugby", "rugby union")
        (True, False)
    """
    if a == b or not a.strip() or not b.strip():
        return False
    wa, wb = name_words(a), name_words(b)
    if not wa or not wb:
        return False
    if wa == wb:  # "acme corp" / "acme corp.": one name, spelt two ways
        return True
    ja, jb = " ".join(wa), " ".join(wb)
    return ja in short_forms(b) or jb in short_forms(a)


def written_as_name(written: str, canonical: str) -> bool:
    """Whether a value was written as a proper name, so that :func:`is_short_form` may compare
    it with another value ("Lena" / "Lena Fischer" name one person): every word starts with a
    capital letter, function words of :data:`ACRONYM_SKIP` aside ("Bank of America"), and
    the written words are the canonical value's. A common noun ("coffee" / "iced coffee") is
    never compared this way; a value written in lower case ("lena fischer") neither.

    Args:
        written: the value as written (:attr:`extractors.Triple.object_text`).
        canonical: its canonical form (:attr:`extractors.Triple.object`).

    Example:
        >>> written_as_name("Lena Fischer", "lena fischer"), written_as_name("coffee", "coffee")
        (True, False)
    """
    words = written.split()
    return (bool(words) and words[0][:1].isupper()
            and all(w[:1].isupper() or w.lower() in ACRONYM_SKIP for w in words)
            and name_words(written) == name_words(canonical))


def short_form_candidates(names: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, for which :func:`is_short_form` is true; sorted.

    A hash join on each name's own words and its :func:`short_forms`, so a tenant with
    thousands of subjects per relation is never compared pair by pair (linear in the number of
    names plus the pairs found).

    Args:
        names: distinct canonical subjects, any order.
    """
    full: dict[str, list[int]] = defaultdict(list)
    for i, name in enumerate(names):
        full[" ".join(name_words(name))].append(i)
    out: set[tuple[int, int]] = set()
    for group in full.values():  # one name, spelt differently
        out.update((min(i, j), max(i, j)) for i in group for j in group if i != j)
    for i, name in enumerate(names):
        for form in short_forms(name):
            out.update((min(i, j), max(i, j)) for j in full.get(form, ()) if j != i)
    return sorted(p for p in out if is_short_form(names[p[0]], names[p[1]]))


def short_form_pairs(names: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs ``(a, b)``, ``a < b``, of distinct names where one is a short form of the other,
    sorted."""
    ordered = sorted(set(names))
    return [(ordered[i], ordered[j]) for i, j in short_form_candidates(ordered)]
