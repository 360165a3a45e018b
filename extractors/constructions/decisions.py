"""Decisions against a plan: the plan or consideration of doing something ends.

"Elif has decided not to adopt the greyhound" ends "Elif plans to adopt a rescue greyhound";
"Ravi has abandoned his plan to run for city council" ends "Ravi intends to run for city
council"; "Kai dropped the idea of opening a bakery" ends "Kai is considering opening a
bakery". A decision not to do a thing settles the deliberation that a plan, an intention or a
consideration of it was (FrameNet 1.7 Deciding: "decide", "choose", "opt", "resolve"; the plan
abandoned through its noun: FrameNet Abandonment and Activity_stop with a Purpose noun).

Each ending is a negated triple of every planning relation (:data:`PLANNING`) whose object is
the planned activity as the extractor spells a plan's object ("adopt greyhound", "run for city
council"), matched like any ended object (:func:`extractors.referents.same_referent`:
"adopt greyhound" is the referent of "adopt rescue greyhound").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.state_changes import ENDED_RULE
from extractors.syntax import _lemma, _negated
from extractors.types import Triple

DECISION_VERBS = frozenset({"decide", "choose", "opt", "elect", "resolve"})
"""Verbs whose negated infinitive complement is a decision against ("decided not to …")."""
PLAN_NOUNS = frozenset({"plan", "idea", "intention", "dream", "goal", "thought"})
"""Nouns that carry a planned activity in an infinitive or "of" + gerund complement."""
ABANDON_VERBS = frozenset({"abandon", "drop", "scrap", "shelve", "give up", "give up on",
                           "ditch", "cancel", "put aside", "let go of", "set aside",
                           "call off"})
"""Verbs that end a plan named by its noun ("abandoned his plan to …")."""
PLANNING = ("plan", "consider", "intend", "think about", "want", "hope", "aim", "look into")
"""The relations of a plan, an intention or a consideration (as the extractor spells them)."""
_ACTIVITY_RULES = ("svo", "prep_object")


class DecisionRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_active``, ``_subject_token`` and ``_entity``)."""

    def _decided_against(self, head: Token, found: list[Triple]) -> list[Triple]:
        """The planning triples that the clause headed by ``head`` ends, given the triples
        ``found`` for it (empty when it is no decision against a plan)."""
        if (head.dep_ == "xcomp" and _lemma(head.head) in DECISION_VERBS and _negated(head)
                and not _negated(head.head)):
            # "decided not to adopt the greyhound": the clause's own negated activity
            return [e for t in found if t.negated and t.object and t.rule in _ACTIVITY_RULES
                    for e in _plan_endings(t)]
        if rejected_alternative(head) and _decided(head.head):
            # "decided to stay with his team rather than join a new one"
            return [e for t in found if t.negated and t.object and t.rule in _ACTIVITY_RULES
                    for e in _plan_endings(t)]
        if _lemma(head) not in ABANDON_VERBS or _negated(head):
            return []
        out: list[Triple] = []
        for noun in (c for c in head.children if c.dep_ in ("dobj", "nsubjpass")
                     and c.lemma_.lower() in PLAN_NOUNS):
            for verb in _planned_verbs(noun):
                subj = self._subject_token(head)
                subject = self._entity(subj) if subj is not None else None
                if subject is None:
                    continue
                out.extend(e for t in self._active(verb, subject=subject)
                           if t.object and not t.negated and t.rule in _ACTIVITY_RULES
                           for e in _plan_endings(t))
        return out


def rejected_alternative(verb: Token) -> bool:
    """Whether ``verb`` is the clause a "rather than" / "instead of" rejects ("stay with his
    team rather than join a new one": join)."""
    if verb.dep_ != "conj":
        return False
    marker = next((c for c in verb.head.children if c.dep_ == "cc" and c.i < verb.i
                   and c.lower_ in ("than", "of") and c.i > 0), None)
    return marker is not None and marker.nbor(-1).lower_ in ("rather", "instead")


def _decided(verb: Token) -> bool:
    """Whether ``verb`` is what a decision chose ("decided to stay")."""
    return verb.dep_ == "xcomp" and _lemma(verb.head) in DECISION_VERBS


def _planned_verbs(noun: Token) -> list[Token]:
    """The verbs of a plan noun's activity: "plan to run …" (infinitive), "idea of opening …"
    ("of" + gerund)."""
    verbs = [c for c in noun.children if c.dep_ in ("acl", "relcl") and c.tag_ == "VB"
             and any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children)]
    verbs += [g for p in noun.children if p.dep_ == "prep" and p.lower_ == "of"
              for g in p.children if g.dep_ == "pcomp" and g.tag_ == "VBG"]
    return verbs


def _plan_endings(activity: Triple) -> list[Triple]:
    """Negated planning triples of ``activity``'s verb phrase ("adopt greyhound")."""
    planned = f"{activity.relation} {activity.object}"
    quals = tuple(q for q in activity.qualifiers if q[0] != "time")
    return [Triple(**{**activity.to_dict(), "relation": relation, "object": planned,
                      "object_text": planned, "negated": True, "rule": ENDED_RULE,
                      "qualifiers": quals})
            for relation in PLANNING]
