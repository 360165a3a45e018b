"""Corrective negation: a denial that the next clause takes back with a stronger word ("I don't
like coffee, I love it!") objects to the word, not to the fact (Horn 1985, "Metalinguistic
negation and pragmatic ambiguity", *Language* 61). Split from
:mod:`extractors.negation_focus`, which drops such denials."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.polarity import _is_negator

_CORRECTIVE_OBJECTS = frozenset({"it", "them", "that", "those", "this", "these", "one"})
"""Pronouns by which a corrective clause takes up the denied clause's object ("I love it")."""
SCALES: tuple[tuple[str, ...], ...] = (
    ("like", "enjoy", "love", "adore"),
    ("dislike", "hate", "loathe", "detest"),
    ("want", "need"),
    ("think", "believe", "know"),
    ("good", "great", "excellent", "amazing"),
    ("warm", "hot"),
    ("cool", "cold"),
    ("tired", "exhausted"),
)
"""Horn scales, weaker to stronger (Horn 1972, *On the semantic properties of logical operators
in English*; Levinson 2000 §1.3): a corrective clause replaces the denied word with a stronger
one of its scale."""


def _negator(head: Token) -> Token | None:
    for child in head.children:
        if _is_negator(child) or (child.dep_ == "advmod" and any(
                c.dep_ == "neg" for c in child.children)):
            return child
    return None


def corrective(head: Token, values: list[str]) -> bool:
    """True when the clause after the negated ``head`` takes its object up again, affirmed
    with another word ("I don't like coffee, I love it!", "… — I adore it")."""
    if head.dep_ in ("ccomp", "parataxis", "conj") and head.i < head.head.i:
        other = head.head
    else:
        other = next((c for c in head.children if c.dep_ in ("conj", "parataxis", "ccomp")
                      and c.i > head.i), None)
    if other is None or other.pos_ not in ("VERB", "AUX") or _negator(other) is not None:
        return False
    if not _stronger(_predicate(head), _predicate(other)):
        return False  # "I don't own a car, I rent it": another predicate, both stand
    subject = next((c.lower_ for c in head.children if c.dep_ == "nsubj"), None)
    again = next((c.lower_ for c in other.children if c.dep_ == "nsubj"), None)
    if subject is None or again != subject:
        return False
    if not any(c.dep_ == "dobj" for c in head.children):
        return True  # "it's not good, it's great"
    objects = [c for c in other.children if c.dep_ == "dobj"]
    return any(o.lower_ in _CORRECTIVE_OBJECTS or o.lemma_.lower() in values for o in objects)


def _predicate(head: Token) -> str:
    """The predicate word of a clause: its verb, or a copula's adjective ("is good")."""
    if head.lemma_ == "be":
        word = next((c for c in head.children if c.dep_ == "acomp"), None)
        if word is not None:
            return word.lemma_.lower()
    return head.lemma_.lower()


def _stronger(weak: str, strong: str) -> bool:
    """True when ``strong`` is above ``weak`` on one of :data:`SCALES`."""
    return any(weak in scale and strong in scale and scale.index(strong) > scale.index(weak)
               for scale in SCALES)
