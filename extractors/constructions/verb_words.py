"""Word tables and token tests of the verb rules (:mod:`extractors.constructions.verbs`):
roles a passive's agent holds, aspectual verbs that presuppose their complement, durations,
and objects the parser misreads (extents, participle clauses)."""

from __future__ import annotations

from spacy.tokens import Token

_AGENT_ROLES = {"found": "founder", "co-found": "founder", "develop": "developer",
                "manufacture": "manufacturer", "make": "manufacturer", "create": "creator",
                "perform": "performer", "write": "author", "direct": "director",
                "compose": "composer", "design": "designer", "invent": "inventor"}
"""Passive verbs whose agent is a role of the patient (Wikidata's founded by P112, developer
P178, manufacturer P176, creator P170, performer P175, author P50, director P57, composer P86,
designer P287, discoverer or inventor P61): "X was founded by Y" -> (x, founder, y). The
relation table decides which roles hold one value."""


_CONTINUATION = frozenset({"continue", "keep"})
"""Aspectual verbs whose complement holds when they are used ("keep running")."""


_DURATION_PREPS = frozenset({"for", "during", "throughout"})
"""Prepositions of a time phrase that says how long a state held, not when."""


def _participle_clause(obj: Token, verb: Token) -> bool:
    """"volunteers at the food bank every Saturday sorting donations": an object after the
    verb's prepositional phrase that opens with an "-ing" form is a participle clause the
    parser read as an object ("sorting" as a modifier of "donations")."""
    first = obj.doc[obj.left_edge.i]
    return (first.tag_ == "VBG" and first.dep_ == "amod" and first.head == obj
            and any(c.dep_ == "prep" and c.i < first.i for c in verb.children))


def _extent(token: Token) -> bool:
    """"full-time", "part-time", "overtime": how much a verb holds, an adverbial the parser
    reads as an object ("works full-time for the fire department")."""
    return token.lemma_.lower() == "time" and any(
        c.lower_ in ("full", "part", "over") for c in token.children)
