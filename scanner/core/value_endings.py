"""A switch away from a value ends the setting that held it.

"The user's email provider is Gmail", then "The user switched from Gmail to Proton Mail": the
second memory names no setting, only the value it left. The extractor reads "switch from" as
ending the user's use of Gmail (``extractors/data/state_changes.toml``, class
``replacement``: FrameNet Replacing, the old theme gives way to the new); this module carries
that ending over to every singular attribute of the same subject, in the same scope, that
holds the value left: the ending memory is added to the attribute's key group as a denial of
that value (rule ``state_change``), so the policy decides the pair as any polarity conflict
(SPEC §3: by provenance, then recency; an attribute stated after the switch still wins).

Pure: it reads key groups (:func:`scanner.core.keys.group_by_key`) and returns new ones.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace

from extractors import Triple
from extractors.state_changes import ENDED_RULE
from scanner.core.keys import Assertion, GroupKey

LEFT_VALUE_RELATIONS = frozenset({"switch from", "change from", "migrate from"})
"""Relations whose object is a value the subject left for another (FrameNet Replacing: "switch
from X", "change from X", "migrate from X"). "move from" is left out: moving from a city ends
living there, never a hometown."""

ATTRIBUTE_RULES = frozenset({"attribute", "key_value"})
"""Extraction rules of a singular attribute ("the user's email provider is Gmail", "Email
provider: Gmail"): one value at a time, so the value left is no longer its value."""


_FINITE_SWITCH = re.compile(
    r"(?<!\bto )(?<!\bnot )\b(?:switched|changed|migrated)\s+(?:over\s+|away\s+)?from\b",
    re.IGNORECASE)
"""A switch that happened, with nothing switched but the subject's own choice: a past form
right before "from" (not "to switch from", "will switch from", "switched his dad from")."""
_UNDONE = re.compile(r"\b(?:switched|changed|went|moved)\s+back\b|\b(?:tried|attempted)\s+to\b",
                     re.IGNORECASE)
"""A switch undone or only attempted ("… but switched back", "tried to switch")."""
_SITUATED = re.compile(r"\bfor\b(?!\s+(?:\w+\s+)?reasons?\b)|\b(?:at|in|on|during|inside|"
                       r"within|ago|since|last|when|while|until|before|after|yesterday)\b",
                       re.IGNORECASE)
"""Words after the values of a switch that restrict or date it (its clause is then left
alone: which situation, or whether before the attribute was stated, is not known); "for
privacy reasons" gives a reason, no situation."""


def with_value_endings(groups: Mapping[GroupKey, list[Assertion]]
                       ) -> dict[GroupKey, list[Assertion]]:
    """``groups`` with each switch away from a value added, as a denial of that value, to the
    group of the same scope and subject whose singular attribute holds it.

    Only a plain switch is carried over (precision first; each condition was a reviewer's
    counterexample): one that happened (:data:`_FINITE_SWITCH`, not :data:`_UNDONE`),
    undated (a dated switch may predate the attribute: "10 years ago"), restricted to no
    situation ("… for personal email", "… at work", "… in his novel"), and whose value only
    one attribute of the subject holds (two settings holding Honda: which one changed is not
    said).

    Args:
        groups: key -> assertions, as :func:`scanner.core.keys.group_by_key` gives them.

    Returns:
        A new mapping (the input is not changed); groups without such a value are the same
        lists. An attribute group gains at most one denial per ending record.
    """
    switches = [(key, a) for key, assertions in groups.items()
                if key.relation in LEFT_VALUE_RELATIONS for a in assertions]
    if not switches:  # (most scans: one pass over the keys, nothing else)
        return dict(groups)
    ids = {a.record.id for _, a in switches}
    relations: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for key, assertions in groups.items():
        for a in assertions:
            if a.record.id in ids:
                relations[a.record.id].add((key.relation, a.triple.object))
    left: dict[tuple, list[Assertion]] = defaultdict(list)
    for key, a in switches:
        if _plain_switch(a, relations[a.record.id]):
            left[(key.scope, key.subject)].append(a)
    if not left:
        return dict(groups)
    holders: dict[tuple, list[GroupKey]] = defaultdict(list)
    for key, assertions in groups.items():
        if (key.scope, key.subject) in left and key.relation not in LEFT_VALUE_RELATIONS:
            for value in {a.triple.object for a in assertions
                          if a.triple.rule in ATTRIBUTE_RULES and not a.triple.negated}:
                holders[(key.scope, key.subject, value)].append(key)
    out = dict(groups)
    for (scope, subject), endings in left.items():
        for ending in endings:
            keys = holders.get((scope, subject, ending.triple.object), [])
            if len(keys) != 1:
                continue
            key = keys[0]
            if any(a.record.id == ending.record.id for a in out[key]):
                continue
            out[key] = [*out[key], Assertion(ending.record, _denial(ending.triple,
                                                                    key.relation))]
    return out


def _plain_switch(a: Assertion, relations: set[tuple[str, str]]) -> bool:
    """Whether a "switch from" assertion states a switch that happened, undated and
    unrestricted (see :func:`with_value_endings`)."""
    t = a.triple
    if t.negated or not t.object or t.qualifiers:
        return False
    verb = t.relation.rsplit(" ", 1)[0]
    if any(r.startswith(verb + " ") and r.rsplit(" ", 1)[-1] not in ("from", "to")
           and not obj.endswith("reason") for r, obj in relations):
        return False  # "switched from Gmail to Proton Mail for personal email"
    text = a.record.text
    found = _FINITE_SWITCH.search(text)
    if found is None or _UNDONE.search(text):
        return False
    clause = re.split(r"[.;!?]| and | but ", text[found.end():], maxsplit=1)[0]
    # ("… to green for the kitchen walls", "… at work", "… 10 years ago")
    return not _SITUATED.search(clause)


def _denial(triple: Triple, relation: str) -> Triple:
    """The ending's triple as a denial of ``relation``'s value (time dropped: the state it
    ends is over now, as :func:`extractors.state_changes._now` reads it)."""
    return replace(triple, relation=relation, negated=True, rule=ENDED_RULE,
                   qualifiers=tuple(q for q in triple.qualifiers if q[0] != "time"))
