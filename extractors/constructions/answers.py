"""An answer's "it" is the question's "the N of X": "What is the capital of Peru? It is Lima."

In a question and its answer the answer's pronoun refers back to the nominal group the question
asks about (personal reference as cohesion: Halliday & Hasan 1976, *Cohesion in English*,
ch. 2), so "It is Lima" after "What is the capital of Peru?" says "the capital of Peru is
Lima", which the copula reads as ``(peru, capital, lima)``. Read alone, the answer gave
``(capital, be, lima)``: the relational noun as the subject, shared by every such answer about
any owner (issue 14, kind 1). Only for a copular wh-question ("what / which is the N of X?")
with a proper-noun owner, answered by "it is Y" right after it.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _negated
from extractors.types import Triple

_WH = ("what", "which")


def asked_relation(answer: Token) -> tuple[Token, Token] | None:
    """``(relational noun, owner)`` of the question right before the answer whose copula is
    ``answer`` ("It is Lima." after "What is the capital of Peru?"); None otherwise."""
    subj = next((c for c in answer.children if c.dep_ == "nsubj"), None)
    if subj is None or subj.lower_ != "it" or subj.i != answer.sent.start:
        return None
    start = answer.sent.start
    if start == 0:
        return None
    question = answer.doc[start - 1].sent
    root = question.root
    if question[-1].text != "?" or root.lemma_ != "be" or not any(
            c.lower_ in _WH and c.dep_ in ("attr", "nsubj") for c in root.children):
        return None
    noun = next((c for c in root.children if c.dep_ in ("nsubj", "attr")
                 and c.pos_ == "NOUN" and any(d.dep_ == "det" and d.lower_ == "the"
                                               for d in c.children)), None)
    owner = next((p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
                  for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN"),
                 None) if noun is not None else None
    return (noun, owner) if owner is not None else None


class AnswerRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_entity``, ``_value`` and ``_make``)."""

    def _answer_to_question(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found``, or the "the N of X is Y" reading of an answer (module doc)."""
        if not (head.lemma_ == "be" and head.pos_ == "AUX"):
            return found
        asked = asked_relation(head)
        value_token = next((c for c in head.children if c.dep_ == "attr"), None)
        if asked is None or value_token is None:
            return found
        noun, owner = asked
        subject = self._entity(owner)
        value, surface = self._value(value_token)
        if not subject or not value:
            return found
        words = [c for c in noun.children if c.dep_ in ("amod", "compound") and c.i < noun.i]
        relation = " ".join([w.lower_ for w in words] + [noun.lemma_.lower()])
        generic = {noun.lemma_.lower(), relation}
        return [t for t in found if t.subject not in generic] + [
            self._make(subject, relation, value, surface, negated=_negated(head), clause=head,
                       rule="copula")]
