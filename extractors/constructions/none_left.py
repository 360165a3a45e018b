"""A denied possession of a bare "one" after a thing given up: "I sold my old kayak and don't
have one now" says the speaker has no kayak at all, whichever possession verb stated it.

"One" with no modifier stands for an indefinite noun phrase with its antecedent's head ("a
kayak": Halliday & Hasan 1976, *Cohesion in English*, ch. 3 on nominal substitution; Quirk
et al. 1985 §6.52 on substitute "one"); under a denial of possession it denies every thing of
that kind (FrameNet Possession: have, own, possess).
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _negated
from extractors.types import Triple


POSSESSION_VERBS = ("have", "own")
"""The verbs of possession a denial of a bare "one" denies (FrameNet Possession), as the
possession endings of ``state_changes.toml`` do."""


class NoneLeftRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_subject_token``, ``_entity`` and ``_make``)."""

    def _none_left(self, head: Token) -> list[Triple]:
        """"…and don't have one now", "…and no longer own one" coordinated with a verb whose
        object is the antecedent: (user, have, kayak) and (user, own, kayak) denied (the
        antecedent's head noun and its compounds, without its adjectives: "my old kayak" ->
        "kayak"). Nothing for a modified or otherwise complemented "one" ("kept the
        inflatable one"), an affirmed clause, or an antecedent that is no object."""
        if head.lemma_.lower() not in POSSESSION_VERBS + ("possess",) or head.dep_ != "conj" \
                or not _negated(head):
            return []
        one = next((c for c in head.children if c.dep_ == "dobj" and c.lower_ == "one"), None)
        if one is None or any(True for _ in one.children) or any(
                c.dep_ in ("prep", "xcomp", "advcl", "ccomp") for c in head.children):
            return []
        antecedent = next((c for c in head.head.children if c.dep_ == "dobj"
                           and c.pos_ == "NOUN"), None)
        subj = self._subject_token(head)
        subject = self._entity(subj) if subj is not None else None
        if antecedent is None or not subject:
            return []
        words = [c for c in antecedent.children if c.dep_ == "compound"] + [antecedent]
        value = " ".join(t.lemma_.lower() for t in words)
        surface = " ".join(t.text for t in words)
        return [self._make(subject, verb, value, surface, negated=True, clause=head, rule="svo")
                for verb in POSSESSION_VERBS]
