""""Haven't been to the gym since March": the perfect of "be" with "to" is the perfect of "go to"
(the visit perfect: "has been to Paris" = has gone there and come back, "been" serving as a
participle of "go"; Quirk et al. 1985 ch. 4 on the perfective). Denied with a "since" time, it
denies every going there since: (user, go to, gym) denied at ``since march``, which ends a routine
of going there (:func:`scanner.core.routines.lapsed_routine`). An affirmed visit perfect ("I've been
to Rome") tells one visit, no habit, and says nothing here; so does a denial without "since" ("have
never been to Rome")."""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Token

from extractors.types import Triple


class VisitRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_time_qualifiers``)."""

    def _visits(self, cop: Token, triples: list[Triple]) -> list[Triple]:
        """For each denied ``be to`` triple of a perfect "been" with a "since" time, the
        same triple as ``go to`` with that time; else nothing."""
        if cop.lower_ != "been" or not any(c.dep_ == "aux" and c.lemma_ == "have"
                                           for c in cop.children):
            return []
        since = [q for q in self._time_qualifiers(cop) if q[1].startswith("since ")]
        if len(since) != 1:
            return []
        return [replace(t, relation="go to", qualifiers=tuple(sorted({*t.qualifiers, *since})))
                for t in triples if t.relation == "be to" and t.negated]
