"""A couple said to be together: "Dario and I are together", "me and Dario have been together
three years".

Said of two people, "together" as a predicative adverb names a romantic relationship
(Collins COBUILD English Dictionary, *together*: "If two people are together, they are
married or are having a romantic or sexual relationship with each other"), so the user and a
person named beside them hold ``(user, be in relationship with, <name>)``, which a later
break-up ends ("Dario and I split up": :mod:`extractors.state_changes`, FrameNet
Forming_relationships).

Precision first, as the word is also one of company ("we were together at school", "Tom and I
are together on this", "my sister and I are together this weekend"): only a present or
present-perfect copula that affirms, whose subject is exactly the user and one person written
as a proper name, with no complement or circumstance but a duration ("for three years",
"since 2019", chat "like 3 yrs") and a few adverbs of stance or time ("now", "still").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _negated
from extractors.times import _is_time
from extractors.types import Triple

RELATIONSHIP = "be in relationship with"

_SELF = frozenset({"i", "me"})
"""The user's pronouns as a coordinated subject ("Dario and I", chat "me and Dario")."""

_DURATION_PREPS = frozenset({"for", "since", "like"})
"""Prepositions of a duration or its start ("for three years", "since 2019"; chat "like 3
yrs", an approximation)."""

_DURATION_UNITS = frozenset({"year", "yr", "month", "mo", "week", "wk", "decade", "yrs",
                             "years", "months", "weeks", "decades"})
"""Units of a duration (a noun phrase as duration adjunct: "three years")."""

_ADVERBS = frozenset({"together", "now", "still", "officially", "finally", "happily", "almost",
                      "nearly", "over", "about", "already", "like"})
"""Adverbs that leave the relationship reading alone ("still together", "officially
together now")."""


_CHAT_AND = frozenset({"n", "&", "+"})
"""Chat's spellings of "and" (Wiktionary, "n": "(informal, Internet slang) and")."""

_FILLERS = frozenset({"like", "lol", "ngl", "tbh", "haha", "honestly"})
"""Chat fillers the parser reads as interjections ("together like 3 years now")."""


class CoupleRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_value`` and ``_make``)."""

    def _couple(self, head: Token) -> list[Triple]:
        """``(user, be in relationship with, <name>)`` for "<name> and I are / have been
        together" (the module's conditions); nothing otherwise."""
        if head.lemma_ != "be" or not any(c.dep_ == "advmod" and c.lower_ == "together"
                                          for c in head.children):
            return []
        if _negated(head) or not _present(head) or not all(_allowed(c) for c in head.children):
            return []
        members = [m for s in head.children if s.dep_ == "nsubj"
                   for m in (s, *(c for c in s.children if c.dep_ == "conj" or (
                       # "me n Mateo": a name after chat's "n" the parser made an appositive
                       c.dep_ == "appos" and c.i > 0 and c.nbor(-1).lower_ in _CHAT_AND)))]
        if len(members) != 2 or sum(m.lower_ in _SELF for m in members) != 1:
            return []
        other = next(m for m in members if m.lower_ not in _SELF)
        if other.pos_ != "PROPN" or not other.text[:1].isalpha():
            return []
        value, surface = self._value(other)
        if other.i > 0 and other.nbor(-1).lower_ in _CHAT_AND and other.nbor(-1).head == other:
            # "me n Dario": the parser hangs chat's "n" on the name as a compound
            value, surface = other.lower_, other.text
        if not value or len(value.split()) > 2:
            return []
        return [self._make("user", RELATIONSHIP, value, surface, negated=False, clause=head,
                           rule="copula")]


def _present(head: Token) -> bool:
    """A present ("are together") or present perfect ("have been together") copula; not a
    past ("were together"), a modal or a future ("will be together")."""
    auxes = [c for c in head.children if c.dep_ == "aux"]
    if head.tag_ in ("VBP", "VBZ"):
        return not auxes
    return head.tag_ == "VBN" and len(auxes) == 1 and auxes[0].lemma_ == "have" and \
        auxes[0].tag_ in ("VBP", "VBZ")


_SPAN_STARTS = frozenset("""
    january february march april may june july august september october november december
    spring summer autumn fall winter christmas easter college uni university school
    """.split())
"""Starts of a span as long as a relationship's: a month, a season, a holiday, a stage of
schooling ("since 2019", "since last summer", "since college"); a clock time or a day
("since 9am", "since Monday") dates a meeting, no relationship."""


def _long_span_start(token: Token) -> bool:
    """Whether ``token`` names a year or a :data:`_SPAN_STARTS` word."""
    return (token.like_num and len(token.text) == 4 and token.text.isdigit()) or (
        token.lower_ in _SPAN_STARTS and _is_time(token) or token.lower_ in (
            "college", "uni", "university", "school"))


def _allowed(child: Token) -> bool:
    """Whether a dependent of the copula leaves the relationship reading: its subject, its
    auxiliary, punctuation, an adverb of :data:`_ADVERBS`, or a duration."""
    if child.dep_ in ("nsubj", "aux", "punct", "cc"):
        return True
    if child.dep_ == "intj":
        return child.lower_ in _FILLERS
    if child.dep_ == "advmod":
        return child.lower_ in _ADVERBS
    if child.dep_ == "prep":
        # ("together like family" is a likeness, no duration)
        return child.lower_ in _DURATION_PREPS and all(
            p.lower_ in _DURATION_UNITS or _long_span_start(p) for p in child.children
            if p.dep_ == "pobj") and any(p.dep_ == "pobj" for p in child.children)
    if child.dep_ == "npadvmod":
        return child.lower_ in _DURATION_UNITS and any(
            c.dep_ == "nummod" for c in child.children)
    return False
