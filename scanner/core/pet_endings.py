"""A named pet's death ends its owner's having it.

"Has a parrot named Kiwi", then "Kiwi the parrot passed away" or "we had to put Kiwi down":
the later memory names the animal but not its owner (the extractor reads the death of
``kiwi``: :mod:`extractors.constructions.pet_deaths`), and "put Kiwi down" could as well
belittle a person. Only the scan knows, from the other memory, that Kiwi is the name of the
subject's pet; this module carries the death over to that memory's key group as a denial of
having the animal (rule ``state_change``), which the policy decides as any polarity conflict
(SPEC §3: by provenance, then recency).

Precision first: a death counts only when its memory says the animal is one ("Kiwi the
parrot": the ``pet`` qualifier; "put Kiwi down", "euthanized Kiwi": the verb's patient is an
animal, FrameNet Killing), and the name only when another memory of the same scope introduces
it as the name of a pet ("a parrot named Kiwi", "my dog Kiwi is 14") held by exactly one
subject; the owner then has neither the animal's name nor its noun ("has a parrot").
"Kiwi passed away" alone may be a person's death and ends nothing.

Pure: it reads key groups (:func:`scanner.core.keys.group_by_key`) and returns new ones.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace

from extractors import Triple
from extractors.constructions.pet_deaths import EUTHANIZED, PET_QUALIFIER
from extractors.constructions.pets import PET_NOUNS
from extractors.state_changes import ENDED_RULE
from scanner.core.keys import Assertion, GroupKey

DEATH_RELATIONS = frozenset({"die", "pass away"})
"""Deaths (FrameNet Death) that end a named pet when said with its pet noun."""

HOLDING_RELATIONS = frozenset({"have", "own"})
"""Relations of keeping an animal that a death ends (its ``[[ends_possessed]]`` states)."""


def with_pet_endings(groups: Mapping[GroupKey, list[Assertion]]
                     ) -> dict[GroupKey, list[Assertion]]:
    """``groups`` with each death of a named animal added, as a denial, to the group of the
    one subject of its scope that holds a pet of that name.

    Args:
        groups: key -> assertions, as :func:`scanner.core.keys.group_by_key` gives them.

    Returns:
        A new mapping (the input is not changed); other groups are the same lists. A group
        gains at most one denial per dying name and record.
    """
    deaths = [(key, a) for key, assertions in groups.items()
              if _named_death(key, assertions) for a in assertions if _animal_death(a.triple)]
    if not deaths:  # (most scans: one pass over the keys, nothing else)
        return dict(groups)
    names = {(key.scope, key.subject) for key, _ in deaths}
    holders: dict[tuple, dict[GroupKey, set[str]]] = defaultdict(dict)
    for key, assertions in groups.items():
        if key.relation not in HOLDING_RELATIONS:
            continue
        for a in assertions:
            if a.triple.negated or a.triple.object.split()[-1:] == [] or \
                    a.triple.object.split()[-1] not in PET_NOUNS:
                continue
            for name in _names_given(a.triple.object, a.record.text):
                if (key.scope, name) in names:
                    holders[(key.scope, name)].setdefault(key, set()).add(a.triple.object)
    out = dict(groups)
    for key, death in deaths:
        found = holders.get((key.scope, key.subject), {})
        if len({k.subject for k in found}) != 1:
            continue  # no pet of that name, or two owners' pets: whose died is not said
        for holder, pets in found.items():
            for value in sorted({key.subject, *pets}):
                if any(a.record.id == death.record.id and a.triple.negated
                       and a.triple.object == value for a in out[holder]):
                    continue
                out[holder] = [*out[holder], Assertion(death.record, _denial(
                    death.triple, holder.subject, holder.relation, value))]
    return out


def _named_death(key: GroupKey, assertions: list[Assertion]) -> bool:
    """Whether the key is a death of a bare name (no possessor: "kiwi", not "user's dog")."""
    return (key.relation in DEATH_RELATIONS or key.relation == EUTHANIZED) and \
        "'s " not in key.subject and bool(assertions)


def _animal_death(triple: Triple) -> bool:
    """A death its memory says is an animal's: euthanised, or named with a pet noun."""
    if triple.negated or triple.object:
        return False
    return triple.relation == EUTHANIZED or bool(triple.qualifiers) and \
        triple.qualifier(PET_QUALIFIER) is not None


def _names_given(pet: str, text: str) -> set[str]:
    """The names ``text`` gives the pet it calls ``pet``, lower-cased: written right after
    the pet noun or after "named"/"called" ("a parrot named Kiwi", "my dog Kiwi", "a golden
    retriever called Kiwi"); a capitalised word only."""
    noun = re.escape(pet.split()[-1])
    return {m.group(1).lower() for m in re.finditer(
        rf"\b{noun}(?:e?s)?\s*,?\s+(?:(?:named|called)\s+)?([A-Z][\w'-]*)", text,
        re.IGNORECASE) if m.group(1)[:1].isupper()}


def _denial(triple: Triple, owner: str, relation: str, value: str) -> Triple:
    """The death as a denial that ``owner`` still has the animal, by its name or its noun
    (time dropped: the having it ends is over now)."""
    return replace(triple, subject=owner, relation=relation, object=value,
                   object_text=value, negated=True, rule=ENDED_RULE,
                   qualifiers=tuple(q for q in triple.qualifiers
                                    if q[0] not in ("time", PET_QUALIFIER)))
