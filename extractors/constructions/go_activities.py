""""go" + -ing of an activity: "goes swimming every week" is "swims every week" (Quirk et al.
1985 §3.42 on "go" with an -ing participle of sport and leisure: go fishing, go shopping)."""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Token

from extractors.types import Triple


class GoActivityRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_active``, ``_gerund_object``, ``_time_qualifiers`` and
    ``_make``)."""

    def _go_activity(self, verb: Token, subject: str, neg: bool) -> list[Triple] | None:
        """The triples of the activity a "go" clause names by its -ing form, with the times
        "go" carries ("goes swimming every week" -> (user, swim) at ``week``, as "swims
        every week" is), or None when ``verb`` names none. The tagger may read the -ing form
        as a clause, an object, or a noun ("stopped going swimming")."""
        times = self._time_qualifiers(verb)
        ing = next((c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"
                    and c.tag_ == "VBG"), None) or next(
            (c for c in verb.children if c.dep_ == "dobj" and c.tag_ == "VBG"), None)
        if ing is not None:
            return [replace(t, qualifiers=tuple(sorted({*t.qualifiers, *times})))
                    if times and not t.qualifier("time") else t
                    for t in self._active(ing, subject=subject, negated=neg)]
        noun = self._gerund_object(verb)
        if noun is None or noun[1] is not None:
            return None
        return [self._make(subject, noun[0], "", noun[2].text, negated=neg, clause=verb,
                           rule="state", qualifiers=times)]
