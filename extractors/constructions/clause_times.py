"""The times of a clause, as ``("time", …)`` qualifiers: a completed past with the times that
bound it, "(way) back in 2009", a time hung on the clause's place ("works at a bakery on
weekends"), "during" a season in a present habit, a recurring time ("every Saturday
morning"); a duration ("for two years") is no time. A mixin of
:class:`extractors.rules.TripleExtractor`, split from :mod:`extractors.constructions.verbs`.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.constructions.past_situations import past_situation
from extractors.constructions.verb_words import _BOUNDARY_PREPS, _DURATION_PREPS
from extractors.negation_focus import present_phrase
from extractors.syntax import _CHANGE_VERBS, _completed_past, _is_time, _lemma, time_words
from extractors.times import RECURRENCE

__all__ = ["ClauseTimeRules"]


class ClauseTimeRules:
    """:meth:`_time_qualifiers` and :meth:`_times` of a clause's head."""

    def _time_qualifiers(self, head: Token) -> list[tuple[str, str]]:
        """The clause's times, each a ``("time", …)`` qualifier; a completed past is one
        qualifier, ``"past"`` followed by the times that bound it ("worked at Amazon from 2015
        to 2018" -> ``"past 2015 2018"``), so that it is told apart both from the present and
        from another past (:func:`scanner.core.detect._comparable`); so is a situation
        stated in the simple past (:func:`extractors.constructions.past_situations.
        past_situation`: "studied chemistry at Leeds")."""
        quals = self._times(head)
        if (_completed_past(head) or past_situation(head)) and _lemma(head) not in _CHANGE_VERBS:
            return [("time", " ".join(["past", *(v for _, v in quals)]))]
        return quals

    def _times(self, head: Token) -> list[tuple[str, str]]:
        """The clause's times as they are said (see the module), without the past mark of
        :meth:`_time_qualifiers`."""
        quals = []
        children = list(head.children)
        # "(way) back in 2009": the adverb of a remote past carries its time phrase
        backs = [b for a in children if a.dep_ in ("advmod", "npadvmod")
                 for b in (a, *a.children) if b.lower_ == "back"]
        children += [c for b in backs for c in b.children if c.dep_ == "prep"]
        # "works at a bakery on weekends": the parser may hang the time on the place
        children += [c for a in children if a.dep_ == "prep" for p in a.children
                     if p.dep_ == "pobj" and not _is_time(p) for c in p.children
                     if c.dep_ == "prep" and c.lower_ in ("on", "at", "in", "during")]
        # "lives in Lisbon during the winter": in a present habit, "during" says when
        present = head.tag_ in ("VBZ", "VBP")
        for child in children:
            if child.dep_ == "prep" and (child.lower_ not in _DURATION_PREPS or (
                    present and child.lower_ == "during")) and not (
                    present_phrase(child)):  # "at all these days" is no time of its own
                # "for two years", "during the summer": how long, not when (a duration
                # never sets one statement apart from another about the same thing)
                for pobj in child.children:
                    if pobj.dep_ == "pobj" and _is_time(pobj):
                        named = {t.i for c in pobj.children if c.dep_ in ("nmod", "compound")
                                 and c.pos_ == "PROPN" and not _is_time(c) for t in c.subtree}
                        words = time_words(t for t in pobj.subtree if t.i not in named)
                        if child.lower_ in _BOUNDARY_PREPS:
                            # "until June" and "after June" are two times, not one
                            words = [child.lower_] + words
                        quals.append(("time", " ".join(words)))
            elif child.dep_ == "npadvmod" and _is_time(child) and any(
                    c.dep_ == "det" and c.lower_ in RECURRENCE for c in child.children):
                # "every Saturday morning": a recurring time, as "on Saturday mornings" is
                words = time_words(t for t in child.subtree if t.lower_ not in RECURRENCE)
                quals.append(("time", " ".join(words)))
        return quals
