"""Denials that a stated diet or abstinence state implies.

"Is vegetarian" denies "eats meat", "is teetotal" denies "drinks alcohol": :func:`implied`
turns an affirmed, present ``be`` triple of such a state (also "follows a strict vegan diet",
"a lifelong vegan") into negated triples with rule ``implication``
(:data:`IMPLIED_DENIALS`, after WordNet glosses); a past state ("was vegetarian in her
twenties") implies nothing now.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from extractors.types import Triple


IMPLIED_RULE = "implication"
"""The rule of a denial a state implies (:data:`IMPLIED_DENIALS`)."""
IMPLIED_DENIALS: dict[str, tuple[tuple[str, str], ...]] = {
    "vegetarian": (("eat", "meat"),),         # vegetarian.n.01 "eats no meat"
    "pescatarian": (("eat", "meat"),),        # eats fish but no other meat
    "vegan": (("eat", "meat"), ("eat", "fish"), ("eat", "egg"), ("eat", "dairy")),
    "teetotal": (("drink", "alcohol"),),      # teetotaler.n.01 "abstains from alcohol"
    "teetotaler": (("drink", "alcohol"),),
    "teetotaller": (("drink", "alcohol"),),
}
"""What a diet or abstinence state denies (WordNet 3.1 glosses of vegetarian.n.01, vegan.n.01,
teetotaler.n.01): "Is vegetarian" denies "eats meat", and so every kind of meat
(:data:`extractors.relations.HYPERNYMS`: "started eating chicken again")."""


_PAST_STATE = re.compile(r"\b(?:was|were|used to|had been|former(?:ly)?|once)\b", re.IGNORECASE)
"""Words of a state that held before now ("Was vegetarian in her twenties")."""


_DIET_VERBS = frozenset({"follow", "be on", "keep", "stick to", "eat", "maintain", "start"})
"""Verbs of keeping a diet ("follows a vegan diet", "is on a vegetarian diet")."""


_DEGREE_MODIFIERS = frozenset({"strict", "committed", "lifelong", "devout", "full", "complete",
                               "total", "proper", "longtime", "long-time", "dedicated"})
"""Modifiers of a diet noun that keep its kind ("a strict vegetarian", "a lifelong vegan")."""


def implied(triples: Iterable[Triple], text: str) -> list[Triple]:
    """The denials the affirmed, present diet and abstinence states among ``triples`` imply
    (:data:`IMPLIED_DENIALS`), rule ``implication``, on the stating triple's span of
    ``text``; a past state implies nothing now (:data:`_PAST_STATE`)."""
    out = []
    for t in triples:
        if t.relation in _DIET_VERBS and t.object.endswith(" diet") and not t.negated:
            # "follows a strict vegan diet": the diet's adjective is the state
            diet = next((w for w in t.object.split() if w in IMPLIED_DENIALS), None)
            t = replace(t, relation="be", object=diet) if diet else t
        words = t.object.split()
        if len(words) > 1 and words[-1] in IMPLIED_DENIALS and all(
                w in _DEGREE_MODIFIERS for w in words[:-1]):
            t = replace(t, object=words[-1])  # "a strict vegetarian" is a vegetarian
        if t.negated or t.relation != "be" or t.qualifiers or t.object not in IMPLIED_DENIALS:
            continue
        if _PAST_STATE.search(text[t.start:t.end]):
            continue
        for relation, obj in IMPLIED_DENIALS.get(t.object, ()):
            out.append(replace(t, relation=relation, object=obj, object_text=obj,
                               negated=True, rule=IMPLIED_RULE))
    return out
