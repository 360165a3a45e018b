"""Nominal endings: a relation named by its noun ends.

"Gina's collaboration with the local artist has ended" ends "Gina teamed up with a local
artist"; "Henrik's employment at Maersk came to an end" ends "Henrik works at Maersk";
"Lucía's subscription to The Atlantic has lapsed" ends her subscription to it. The subject is
an event or relationship noun (a nominalisation: NomBank, Meyers et al. 2004) whose possessor
is its agent and whose "with" / "at" / "to" / "of" complement is its other party; the noun
names the verbal relations of the ``[[ends_nominal]]`` rows of the state-change table
(:attr:`extractors.state_changes.StateChanges.nominals`), and the clause says it is over.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.state_changes import ENDED_RULE
from extractors.syntax import _lemma, _negated, _temporary
from extractors.types import Triple

END_VERBS = frozenset({"end", "lapse", "expire", "terminate", "finish", "conclude",
                       "cease", "dissolve", "fall through", "wrap up", "fizzle out"})
"""Verbs that say their subject is over (FrameNet Process_end, Cause_to_end)."""
END_STATES = frozenset({"over", "off", "done", "finished"})
"""Copular complements that say it ("is over")."""
COMPLEMENT_PREPS = frozenset({"with", "at", "to", "of", "in", "for"})


def _says_over(head: Token) -> bool:
    """Whether the clause headed by ``head`` says its subject ended: an end verb ("has
    ended", "lapsed"), "came to an end", or a copula with "over"/"off"; not a change undone
    or bounded (:func:`extractors.aspect._temporary`: "briefly lapsed but was renewed")."""
    if _negated(head) or _temporary(head):
        return False
    lemma = _lemma(head)
    if lemma in END_VERBS:
        return True
    if lemma == "come" and any(p.lower_ == "to" and any(o.lemma_ == "end" for o in p.children)
                               for p in head.children if p.dep_ == "prep"):
        return True
    return head.lemma_ == "be" and any(c.dep_ in ("acomp", "advmod", "attr", "prt")
                                       and c.lower_ in END_STATES for c in head.children)


class NominalEndingRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``state_changes``, ``_subject_token``, ``_entity``, ``_value``
    and ``_make``)."""

    def _nominal_endings(self, head: Token) -> list[Triple]:
        """Negated triples of the relations an ended nominal subject names, one per
        complement: (owner, relation, other party)."""
        nominals = self.state_changes.nominals
        if not nominals or not _says_over(head):
            return []
        noun = self._subject_token(head)
        if head.dep_ in ("xcomp", "ccomp") and _lemma(head.head) == "let":
            # "let her membership expire": the causative's object is what ended
            noun = next((c for c in head.head.children if c.dep_ == "dobj"), noun)
        if noun is None or noun.pos_ != "NOUN":
            return []
        relations = nominals.get(noun.lemma_.lower())
        owner_token = next((c for c in noun.children if c.dep_ == "poss"), None)
        if not relations or owner_token is None:
            return []
        owner = self._entity(owner_token)
        if not owner:
            return []
        out: list[Triple] = []
        parties = [p for c in noun.children if c.dep_ == "prep" and c.lower_ in COMPLEMENT_PREPS
                   for p in c.children if p.dep_ == "pobj"]
        if not parties:
            # "her Urban Boulder membership": the name before the noun is the other party
            names = [c for c in noun.children if c.dep_ == "compound" and c.pos_ == "PROPN"]
            parties = names[-1:]
        for party in parties:
            value, surface = self._value(party)
            if not value:
                continue
            out += [self._make(owner, relation, value, surface, negated=True, clause=head,
                               rule=ENDED_RULE) for relation in relations]
        return out
