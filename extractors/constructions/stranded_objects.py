"""A preposition's object the parser left as its modifier: "They play as catcher."

A preposition takes a noun phrase as its complement (Quirk et al. 1985, *A Comprehensive
Grammar of the English Language*, §9.1); the small parser sometimes attaches a bare noun after
"as" to the preposition as a modifier (``amod``/``compound``/``dep``) and leaves it no object,
so "Ola plays as catcher" gave ``(ola, play, "")`` where "Ola plays as a catcher" gives
``(ola, position played, catcher)``. The stranded noun is the preposition's object; the clause
reads as it does with the article. Only for "as" (a role: "plays as", "works as", "serves
as"), where a bare role noun without an article is usual (Quirk et al. §5.41, §9.35).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _lemma, _negated
from extractors.types import Triple


def stranded_object(verb: Token) -> Token | None:
    """The noun an "as" of ``verb`` governs as a modifier while it has no object."""
    for prep in verb.children:
        if prep.dep_ != "prep" or prep.lower_ != "as" or any(
                c.dep_ in ("pobj", "pcomp") for c in prep.children):
            continue
        noun = next((c for c in prep.children if c.dep_ in ("amod", "compound", "dep", "npadvmod")
                     and c.i > prep.i and c.pos_ in ("NOUN", "PROPN")), None)
        if noun is not None:
            return noun
    return None


class StrandedObjectRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity``, ``_value`` and ``_make``)."""

    def _stranded_object(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with a stranded "as" object read as the preposition's object."""
        noun = stranded_object(head) if head.pos_ == "VERB" else None
        subj = self._subject_token(head) if noun is not None else None
        subject = self._entity(subj) if subj is not None else None
        value, surface = self._value(noun) if subject else ("", "")
        if not value:
            return found
        lemma = _lemma(head)
        read = self._make(subject, f"{lemma} as", value, surface, negated=_negated(head),
                          clause=head, rule="prep_object")
        return [t for t in found if not (t.subject == subject and not t.object
                                         and t.relation == lemma)] + [read]
