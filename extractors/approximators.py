"""An approximator the parser took for a preposition: "smokes about a pack a day".

"About", "around" and "roughly" before a quantity with a rate ("a pack a day", "six hours a
night") approximate the quantity (Quirk et al. 1985 §7.56, approximators of number and
measure; Cambridge Grammar of English §2.62); the small parser reads "about" as a preposition
of topic there, so the habit "smokes about a pack a day" became the relation "smoke about".
The parser's own reading of "drinks about three coffees" (an adverb of the number, the noun
the object) is given to it instead. Only with a rate: "talked about three books" may name
its topic, and so do the verbs of :data:`TOPIC_VERBS` with a rate too ("talks about two
books a week")."""

from __future__ import annotations

from spacy.tokens import Token

APPROXIMATORS = frozenset({"about", "around", "roughly", "approximately"})
"""Words that approximate a quantity (Quirk et al. 1985 §7.56)."""
RATE_UNITS = frozenset({"day", "night", "week", "weekend", "month", "year", "hour",
                        "morning", "evening"})
"""Time units of a rate ("a day", "per week", "every morning")."""
TOPIC_VERBS = frozenset("""
    talk speak write read think worry complain ask argue joke dream care know hear learn
    chat post blog tweet rant forget remember wonder tell laugh cry teach sing read
    """.split())
"""Verbs whose "about" names a topic (Levin 1993 §37, verbs of communication; §30-31,
verbs of perception and psychological state)."""


def approximated_rate(rate: Token) -> None:
    """Repair "VERB about a QUANTITY a UNIT" in place, given the rate's unit token ``rate``
    (``npadvmod`` of the quantity noun): the approximator becomes the quantity's adverb
    (``advmod``), the quantity the verb's object (``dobj``). Nothing changes unless the
    approximator is the verb's preposition and the verb has no object of its own."""
    if rate.dep_ != "npadvmod" or rate.lower_ not in RATE_UNITS or not any(
            c.dep_ == "det" and c.lower_ in ("a", "an", "per", "every", "each")
            for c in rate.children):
        return
    quantity = rate.head
    prep = quantity.head
    if quantity.dep_ != "pobj" or prep.lower_ not in APPROXIMATORS or prep.dep_ != "prep":
        return
    verb = prep.head
    if verb.pos_ != "VERB" or verb.lemma_ in TOPIC_VERBS or any(
            c.dep_ in ("dobj", "obj") for c in verb.children):
        return
    quantity.head, quantity.dep_ = verb, "dobj"
    prep.head, prep.dep_, prep.pos_, prep.tag_ = quantity, "advmod", "ADV", "RB"
