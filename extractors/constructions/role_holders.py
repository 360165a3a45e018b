"""A definite role with its holder as the subject: "Ximena is the on-call engineer this week",
"Dev is the release manager for v2". The equative copula is symmetric (Quirk et al. 1985
§10.8; Higgins 1979 on specificational and identifying copulas): "NAME is the ROLE" names the
role's one holder as "The ROLE is NAME" does (:func:`extractors.constructions.descriptions.
_names_role_holder`), so both give the same attribute triple. Read by
:class:`extractors.constructions.copula.CopulaRules`.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.constructions.descriptions import _premodified
from extractors.constructions.preferences import _CHANGED, _marks_change
from extractors.syntax import _is_time, _phrase, USER
from extractors.types import Triple

__all__ = ["RoleHolderRules"]


def _time_phrase(prep: Token) -> bool:
    """A prepositional phrase of time ("for the rest of the week", "until Friday")."""
    return any(_is_time(t) for t in prep.subtree if t != prep)


class RoleHolderRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``_split_attribute``, ``_value`` and ``_make``)."""

    def _reversed_role(self, cop: Token, subj: Token, complements: list[Token], neg: bool,
                       topic: str | None) -> list[Triple]:
        """"Ximena is the on-call engineer for the rest of the week" -> (user, on call
        engineer, ximena): a name equated with a definite role noun that a noun premodifies
        (the role's kind: "on-call", "release", "team"; "the best friend", "the oldest" are
        descriptions, not roles) and that has no owner, clause or apposition of its own
        but an owner "for"/"on" ("the release manager for v2") or a time ("this week").
        A plural, an indefinite ("a team lead") or a pronoun subject gives nothing."""
        if subj.pos_ != "PROPN" or subj.dep_ != "nsubj" or len(complements) != 1 or any(
                c.dep_ in ("det", "poss", "prep", "relcl", "acl", "appos", "cc", "conj")
                for c in subj.children):
            return []
        comp = complements[0]
        if comp.dep_ != "attr" or comp.pos_ != "NOUN" or comp.tag_ != "NN" or not any(
                c.dep_ == "det" and c.lower_ == "the" for c in comp.children):
            return []
        if not any(c.dep_ in ("compound", "nmod") and c.i < comp.i for c in comp.children):
            return []
        if any(c.dep_ in ("poss", "relcl", "acl", "appos", "amod", "conj") for c in comp.children):
            return []  # ("the new team lead": which of two; "the team lead who …": a clause)
        preps = [c for c in comp.children if c.dep_ == "prep"]
        owners = [p for p in preps if not _time_phrase(p)]
        if any(p.lower_ not in ("for", "on") for p in owners) or len(owners) > 1:
            return []
        if owners:
            split = self._split_attribute(comp)
            if split is None or not split[0]:
                return []
            subject, rel_tokens = split
        else:
            subject, rel_tokens = topic or USER, _premodified(comp)
        value, surface = self._value(subj)
        if not value:
            return []
        quals = [("time", " ".join(t.lower_ for t in when.subtree))
                 for when in [*cop.children, *comp.children]
                 if when.dep_ in ("npadvmod", "advmod") and _is_time(when)]
        if _marks_change(cop, subj):
            quals.append(_CHANGED)
        return [self._make(subject, _phrase(rel_tokens), value, surface, negated=neg,
                           clause=cop, rule="attribute", qualifiers=quals)]
