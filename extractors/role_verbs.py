"""A role said with its verb ("Tariq chairs the residents' committee", "Coaches the under-10
soccer team") is the role its agent noun names ("the committee chair", "the under-10 soccer
team coach"): the reading an ending of the role meets ("stepped down as committee chair",
"handed the under-10 coaching role to Bettina", "is no longer a teacher").

The agent nouns are English's own: the verb's conversion for the titles that are one word
with their verb (coach, chair, captain, host, head, lead; Quirk et al. 1985, App. I.43,
noun <- verb conversion) and the agentive suffix for the rest (manager, director, editor,
organizer, teacher; App. I.33, "-er"/"-or").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from extractors.types import Triple

__all__ = ["ROLE_AGENTS", "ROLE_RULE", "role_readings"]

ROLE_AGENTS: dict[str, str] = {
    "coach": "coach", "chair": "chair", "captain": "captain", "host": "host", "head": "head",
    "lead": "lead", "manage": "manager", "direct": "director", "edit": "editor",
    "organize": "organizer", "teach": "teacher", "supervise": "supervisor",
}
"""A verb of holding a role -> the agent noun that names the role."""

ROLE_RULE = "role"
"""The rule of a role read from its verb."""

_NOT_NOW = ("past", "future")


def role_readings(triples: Iterable[Triple]) -> list[Triple]:
    """``(subject, be, "<object> <agent noun>")`` for each affirmed triple of a role verb
    (:data:`ROLE_AGENTS`) with an object, said of now (no past or future time), rule
    :data:`ROLE_RULE`; the triples it reads are unchanged and not returned.

    Args:
        triples: a text's triples.

    Returns:
        The role readings, in the order of the triples they read.
    """
    out = []
    for t in triples:
        agent = ROLE_AGENTS.get(t.relation)
        if agent is None or t.negated or not t.object or t.rule != "svo" or any(
                name == "time" and value.startswith(_NOT_NOW) for name, value in t.qualifiers):
            continue
        if t.object.split()[-1] == agent:
            continue  # ("leads the lead team"): no role of its own
        out.append(replace(t, relation="be", object=f"{t.object} {agent}",
                           object_text=t.object_text, rule=ROLE_RULE))
    return out
