"""Things named one way when stated and another when ended, beyond
:func:`extractors.state_changes.same_referent`: an employer named with the head noun of one of
its sites ("works at the Harbour Mills depot", then "quit Harbour Mills"), and a vehicle named
by model year, make and model ("drives a 2016 Kia Rio", then "sold the kia")."""

from __future__ import annotations

import re

from extractors.referents import NAME_ADJECTIVES, WORKPLACE_HEADS
from extractors.syntax import NOUN_INDEX

_MODEL_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
"""A model year before a make ("a 2014 Mazda 3"; years of mass-produced vehicles)."""


def workplace_of(name: str, stated: str) -> bool:
    """Whether ``stated`` is the firm ``name`` followed by the head noun of one of its sites,
    with at most one modifier before it ("harbour mills" / "harbour mills depot", "brightline"
    / "brightline call center": :data:`WORKPLACE_HEADS`). The caller makes sure ``name`` was
    written as a proper name and ended by quitting work there: a city's name before "office"
    ("the Leeds office") is no firm, and leaving Leeds is no quitting."""
    a, b = name.split(), stated.split()
    tail = b[len(a):]
    return (bool(a) and b[:len(a)] == a and 1 <= len(tail) <= 2
            and tail[-1] in WORKPLACE_HEADS and all(w.isalpha() for w in tail))


def make_of_model(ended: str, stated: str, others: frozenset[str] = frozenset()) -> bool:
    """Whether ``ended`` is the make alone of a vehicle ``stated`` by model year, make and model
    ("mazda" / "2014 mazda 3", "honda" / "2012 honda civic"), however it is written: the word after
    a model year is the make (the year-make-model order in which vehicles are described and listed;
    makers' products other than vehicles are named the same way: "a 1965 fender stratocaster"). A
    thing named after a make ("mazda pickup") is another thing, and a year before a common noun with
    no model after it ("a 2019 laptop") is no vehicle description. When the memory's ``others``
    objects hold a second vehicle of that make ("a 2014 mazda 3 and a 2009 mazda bt-50"), the make
    alone names neither."""
    a, b = ended.split(), stated.split()
    return (len(a) == 1 and len(b) >= 3 and _MODEL_YEAR.match(b[0]) is not None
            and a[0] == b[1] and a[0].isalpha() and b.count(a[0]) == 1
            and not any(_MODEL_YEAR.match(w) for w in b[2:])  # (one vehicle only)
            and not any(o != stated and a[0] in o.split() for o in others))


def model_of(ended: str, stated: str, others: frozenset[str] = frozenset()) -> bool:
    """Whether ``ended`` is the model alone of a vehicle ``stated`` by model year, make and
    model ("civic" / "2012 honda civic", "the old civic": describing adjectives aside,
    :data:`extractors.referents.NAME_ADJECTIVES`), in the year-make-model order of
    :func:`make_of_model`: what follows the make is the model. Only with a make written (a
    year before a lone word may be a common noun's: "a 2019 laptop"), and not when the
    memory's ``others`` hold a second vehicle of that model, nor when the model alone is an
    English noun (the lemmatizer's index, :data:`extractors.syntax.NOUN_INDEX`): "the old
    polo" may be a shirt, "my old soul" no car."""
    a = ended.split()
    while a and a[0] in NAME_ADJECTIVES:
        a = a[1:]
    if len(a) == 1 and a[0] in NOUN_INDEX:
        return False
    b = stated.split()
    return (bool(a) and len(b) >= 3 and _MODEL_YEAR.match(b[0]) is not None
            and b[1].isalpha() and b[2:] == a
            and not any(_MODEL_YEAR.match(w) for w in b[2:])  # (one vehicle only)
            and not any(o != stated and o.split()[-len(a):] == a for o in others))
