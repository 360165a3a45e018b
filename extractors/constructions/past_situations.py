"""A situation stated in the simple past is over: "studied chemistry at Leeds", "lived in
Porto", "worked at Halden & Co".

The simple past of a durative situation verb, with no bound said, views the situation as
wholly in the past, with a gap between its end and now (Quirk et al. 1985 §4.14-4.16, the
"state past"; a bound — "until 2019", "for three years before ..." — is read by
:func:`extractors.aspect._completed_past`). Its triples get the completed past's time
``"past"`` (:meth:`extractors.constructions.clause_times.ClauseTimeRules._time_qualifiers`),
so a later ending of the same situation ("graduated from Leeds in 2014") restates that it is
over and supersedes nothing, and a present statement ("works at Orbis") is no change of it.
The perfect ("has lived in Porto since 2019") and the present still hold; a change verb
("moved to Porto", "joined Orbis") states an event whose result holds, and is none of these.

Verbs: the durative situations of residence, work and study that the state-change table
(``extractors/data/state_changes.toml``) ends — FrameNet 1.7 Residence (live, reside),
Being_employed (work), Education_teaching (study, attend, major).
"""

from __future__ import annotations

from spacy.tokens import Token

PAST_SITUATION_VERBS = frozenset({"live", "reside", "work", "study", "attend", "major"})
"""Durative situation verbs whose simple past states a situation that is over."""

_NOW_WORDS = frozenset({"still", "now", "currently", "presently", "nowadays", "today"})
"""Adverbs that place a simple past's situation in the present ("still worked there")."""


def past_situation(head: Token) -> bool:
    """Whether ``head`` is a situation verb in the simple past with no word of the present
    ("studied chemistry at Leeds"; not "has studied", "did study", "still worked")."""
    return (head.tag_ == "VBD" and head.lemma_.lower() in PAST_SITUATION_VERBS
            and not any(c.dep_ in ("aux", "auxpass") for c in head.children)
            and not any(c.lower_ in _NOW_WORDS for c in head.children))
