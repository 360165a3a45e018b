"""Things named one way when stated and another when ended, beyond
:func:`extractors.state_changes.same_referent`: a vehicle named by model year, make and model
("drives a 2016 Kia Rio", then "sold the kia")."""

from __future__ import annotations

import re

_MODEL_YEAR = re.compile(r"^(?:19[5-9]\d|20\d\d)$")
"""A model year before a make ("a 2014 Mazda 3"; years of mass-produced vehicles)."""


def make_of_model(ended: str, stated: str, others: frozenset[str] = frozenset()) -> bool:
    """Whether ``ended`` is the make alone of a vehicle ``stated`` by model year, make and
    model ("mazda" / "2014 mazda 3", "honda" / "2012 honda civic"), however it is written:
    the word after a model year is the make (the year-make-model order in which vehicles are
    described and listed; makers' products other than vehicles are named the same way: "a
    1965 fender stratocaster"). A thing named after a make ("mazda pickup") is another thing, and a year before a common noun with no model after it ("a 2019 laptop")
    is no vehicle description. When the memory's ``others`` objects hold a second vehicle of
    that make ("a 2014 mazda 3 and a 2009 mazda bt-50"), the make alone names neither."""
    a, b = ended.split(), stated.split()
    return (len(a) == 1 and len(b) >= 3 and _MODEL_YEAR.match(b[0]) is not None
            and a[0] == b[1] and a[0].isalpha() and b.count(a[0]) == 1
            and not any(_MODEL_YEAR.match(w) for w in b[2:])  # (one vehicle only)
            and not any(o != stated and a[0] in o.split() for o in others))
