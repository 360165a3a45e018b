"""Class nouns with an "of" name: "the organization of OPEC" is OPEC.

In "the city of Rome", "the month of May" the "of" phrase does not complement the noun but
names its referent: the appositive "of" construction (Quirk et al. 1985, *A Comprehensive
Grammar of the English Language*, §17.38). A class noun so named is no value of its own:
"Ruritania belongs to the organization of OPEC" states membership of OPEC, and the class noun
read as a second value ("organization") made any two such memberships look alike, a generic
reading hiding a specific mismatch (issue 14, kind 2). The class nouns are the lexical units of
FrameNet's "Organization" frame (organization, association, alliance, federation, union,
league, company, firm, club, party, society, group, institution, body), to which the rules'
container nouns ("the city of Madrid") add places.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.doc_cache import doc_lemmas
from extractors.types import Triple

CLASS_NOUNS = frozenset({"organization", "organisation", "association", "alliance",
                         "federation", "union", "league", "company", "firm", "club", "party",
                         "society", "group", "institution", "body", "coalition", "bloc"})
"""Nouns of FrameNet's "Organization" frame."""


def named_class_nouns(head: Token) -> list[tuple[Token, Token]]:
    """``(class noun, its name)`` for each "the CLASS of NAME" object of a clause head: the
    head's object or "to"/"of"/"for"/"with"/"in" object, or such an object of its attribute
    ("a member of the organization of OPEC")."""
    if CLASS_NOUNS.isdisjoint(doc_lemmas(head.doc)):
        return []  # (no class noun anywhere)
    holders = [head] + [c for c in head.children if c.dep_ in ("attr", "dobj", "acomp")]
    nouns = [c for h in holders for c in h.children if c.dep_ in ("dobj", "attr")]
    nouns += [p for h in holders for c in h.children if c.dep_ == "prep"
              for p in c.children if p.dep_ == "pobj"]
    out = []
    for noun in nouns:
        if noun.pos_ != "NOUN" or noun.lemma_.lower() not in CLASS_NOUNS or not any(
                c.dep_ == "det" and c.lower_ == "the" for c in noun.children):
            continue
        name = next((p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
                     for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN"), None)
        if name is not None:
            out.append((noun, name))
    return out


class ClassNounRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_value``)."""

    def _class_nouns(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` with a named class noun's value replaced by its name."""
        named = named_class_nouns(head)
        if not named:
            return found
        out = list(found)
        for noun, name in named:
            value, surface = self._value(name)
            if not value:
                continue
            generic = {noun.lemma_.lower(), noun.lower_}
            spelled = {f"{g} of {value}" for g in generic}
            replaced = []
            for t in out:
                if t.object in spelled:
                    t = Triple(**{**t.to_dict(), "object": value, "object_text": surface,
                                  "qualifiers": t.qualifiers})
                elif t.object in generic and t.relation != "be":
                    t = Triple(**{**t.to_dict(), "object": value, "object_text": surface,
                                  "qualifiers": t.qualifiers})
                replaced.append(t)
            out = replaced
        return out


def named_values(triples: list[Triple]) -> list[Triple]:
    """``triples`` with a "CLASS of NAME" value (a pattern's object slot reads the whole
    phrase: "works for [the company of Acme]") replaced by the name; others unchanged."""
    out = []
    for t in triples:
        first, _, rest = t.object.partition(" of ")
        if rest and first in CLASS_NOUNS and t.relation != "be":
            surface = t.object_text.split(" of ", 1)[-1] if " of " in t.object_text else rest
            t = Triple(**{**t.to_dict(), "object": rest, "object_text": surface,
                          "qualifiers": t.qualifiers})
        out.append(t)
    return out
