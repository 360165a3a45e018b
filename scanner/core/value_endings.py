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


def with_value_endings(groups: Mapping[GroupKey, list[Assertion]]
                       ) -> dict[GroupKey, list[Assertion]]:
    """``groups`` with each switch away from a value added, as a denial of that value, to the
    groups of the same scope and subject whose singular attribute holds it.

    Args:
        groups: key -> assertions, as :func:`scanner.core.keys.group_by_key` gives them.

    Returns:
        A new mapping (the input is not changed); groups without such a value are the same
        lists. An attribute group gains at most one denial per ending record.
    """
    left: dict[tuple, list[Assertion]] = defaultdict(list)
    for key, assertions in groups.items():
        if key.relation in LEFT_VALUE_RELATIONS:
            for a in assertions:
                if not a.triple.negated and a.triple.object:
                    left[(key.scope, key.subject)].append(a)
    if not left:
        return dict(groups)
    out = dict(groups)
    for key, assertions in groups.items():
        endings = left.get((key.scope, key.subject))
        if not endings or key.relation in LEFT_VALUE_RELATIONS:
            continue
        held = {a.triple.object for a in assertions
                if a.triple.rule in ATTRIBUTE_RULES and not a.triple.negated}
        added = {a.record.id for a in assertions}
        extra = []
        for ending in endings:
            if ending.triple.object in held and ending.record.id not in added:
                added.add(ending.record.id)
                extra.append(Assertion(ending.record, _denial(ending.triple, key.relation)))
        if extra:
            out[key] = [*assertions, *extra]
    return out


def _denial(triple: Triple, relation: str) -> Triple:
    """The ending's triple as a denial of ``relation``'s value (time dropped: the state it
    ends is over now, as :func:`extractors.state_changes._now` reads it)."""
    return replace(triple, relation=relation, negated=True, rule=ENDED_RULE,
                   qualifiers=tuple(q for q in triple.qualifiers if q[0] != "time"))
