"""Settings named by an identifier ("max_retries is 5") and what restricts an attribute's
value to one situation ("Timeout is 30s for uploads", "is $500 in January")."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _is_time, _negated, _phrase, _surface
from extractors.types import Triple
from extractors.values import normalize_value


RESTRICTING_PREPS = ("for", "in", "on", "during")
"""Prepositions whose phrase after a value restricts it to a situation
(:meth:`SettingRules._restrictions`; the qualifier opens with one of them)."""


class SettingRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_entity``, ``_objects`` and ``_split_key``)."""

    def _value_restriction(self, cop: Token, complements: list[Token]
                           ) -> list[tuple[str, str]]:
        """The qualifier of the situation phrases after an attribute's value restrict it to
        (:meth:`_restrictions`), one ``("place", …)`` for all of them ("for groceries in
        March" is neither "for groceries" nor "in March"); ``[]`` without one."""
        found = self._restrictions(cop, complements)
        return [("place", " ".join(text for _, text in found))] if found else []

    def _restrictions(self, cop: Token, complements: list[Token]) -> list[tuple[Token, str]]:
        """``(preposition, "prep owner")`` for each phrase after an attribute's value that
        restricts it to a situation: what it is for, where, when or how ("is 30s for uploads"
        -> "for upload", "is $500 in January" -> "in january"), as "on rack 4" is (prepositions
        :data:`RESTRICTING_PREPS`; "at" and "by" more often name a reason or an author: "at the
        user's request", "by Amy Ellis Nutt"). Two values restricted to two situations are
        both true; a later value restricted to one leaves the general value standing, and a
        later general value replaces a restricted one. A time fronted on the copula restricts
        as a trailing one does ("In summer the budget is $500" -> "in summer")
        (:func:`scanner.core.detect._later_exception`). The parser hangs them on the value or
        on the copula; after the first, only times are taken."""
        out: list[tuple[Token, str]] = []
        if not complements:
            return out
        start = min(t.i for t in complements)
        named = any(c.pos_ == "PROPN" for c in complements)
        # (a fronted time restricts as a trailing one does: "In summer the budget is $500";
        # a fronted place or thing is the attribute's topic, ``_topic``)
        fronted = [c for c in cop.children if c.dep_ == "prep" and c.i < cop.i
                   and c.i == cop.sent.start and any(
                       p.dep_ == "pobj" and _is_time(p) for p in c.children)]
        for prep in fronted + [c for h in [*complements, cop] for c in h.children
                               if c.dep_ == "prep" and c.i > start]:
            pobj = next((p for p in prep.children if p.dep_ in ("pobj", "pcomp")), None)
            if pobj is None or out and not _is_time(pobj):
                continue
            if named and pobj.pos_ == "PROPN" and not _is_time(pobj):
                continue  # "Springfield in Illinois": a place in a place, one value
            if prep.lower_ in RESTRICTING_PREPS and (
                    _is_time(pobj) or pobj.pos_ in ("NOUN", "PROPN", "VERB")):
                # ("for dining out", "in the editor", "on long flights", "in December")
                owner = _phrase(t for t in pobj.subtree) if _is_time(pobj) else \
                    self._entity(pobj)
                if owner:
                    out.append((prep, f"{prep.lower_} {owner}"))
        return out

    def _identifier_setting(self, cop: Token, subj: Token) -> list[Triple]:
        """"max_retries is 5", "db.pool_size is 20": a setting named by an identifier is a
        functional attribute of the scope's user, as the line "max_retries: 5" is (rule
        ``key_value``). What it is set for is its subject, as in "Timeout for service A: 30s"
        ("max_retries for the upload job is 5" sets the upload job's, never the user's)."""
        key = subj.text.replace(".", " ")
        values = [v for comp in cop.children if comp.dep_ in ("attr", "acomp", "oprd")
                  for v in self._objects(comp)]
        # (the parser hangs what the setting is for on the subject, on the value or on the
        # copula: "retry_limit is 3 for the ingest job" sets the ingest job's)
        owners = [c for h in [subj, *values, cop] for c in h.children if c.dep_ == "prep"
                  and c.lower_ in ("for", "of", "on", "in") and (h is subj or c.i > subj.i)
                  and any(p.dep_ == "pobj" and not _is_time(p) for p in c.children)]
        owner = owners[0] if owners else None
        if owner is not None:
            key += " for " + " ".join(t.text for t in owner.subtree if t is not owner)
        restricting = {t.i for o in owners for t in o.subtree}
        subject, relation = self._split_key(key)
        neg = _negated(cop)
        # "max_retries was 3 before the change": a value the setting held before now
        quals = (("time", "past"),) if cop.tag_ == "VBD" else ()
        out = []
        for comp in (c for c in cop.children if c.dep_ in ("attr", "acomp", "oprd")):
            for value_token in self._objects(comp):
                tokens = [t for t in value_token.subtree if t.dep_ not in ("det", "punct")
                          and t.i not in restricting and not (
                              t.dep_ == "advmod" and t.lower_ in ("now", "currently"))]
                surface = _surface(tokens) if tokens else value_token.text
                value = normalize_value(surface)
                relation_name, flips = self.table.canonical(relation)
                out.append(Triple(subject=subject, relation=relation_name, object=value,
                                  negated=neg != flips, start=cop.sent.start_char,
                                  end=cop.sent.end_char, object_text=surface, rule="key_value",
                                  qualifiers=quals))
        return out
