"""Settings named by an identifier ("max_retries is 5") and what restricts an attribute's
value to one situation ("Timeout is 30s for uploads", "is $500 in January")."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _is_time, _negated, _phrase, _surface
from extractors.types import Triple
from extractors.values import normalize_value


RESTRICTING_PREPS = ("for", "in", "on", "during")
"""Prepositions whose phrase with a value restricts it to a situation
(:meth:`SettingRules._restrictions`; the qualifier opens with one of them)."""

_SPAN_PREPS = ("before", "after", "until")
"""Prepositions of a time span: fronted, they restrict ("After 5pm the fee is $2"), and their
object may be a bare number; after a value they more often date an event ("was raised to 8
after the incident")."""

RESTRICTION_OPENINGS = (*RESTRICTING_PREPS, *_SPAN_PREPS, "at", "by", "to", "with")
"""The words a restricting qualifier opens with (:meth:`SettingRules._restrictions`, and
an ended activity's situation, ``VerbRules._ended_situation``: "to kids"; a fronted time
without a preposition is written "during …")."""

MEANS_OF_TRAVEL = frozenset({"car", "bus", "train", "bike", "bicycle", "foot", "plane", "air",
                             "boat", "ferry", "subway", "metro", "tube", "tram", "taxi",
                             "scooter", "motorbike", "motorcycle", "rail", "road", "sea"})
"""Nouns after "by" that name how one travels ("40 minutes by car", "90 minutes by bus"): a
situation of the value, as "by" + a person ("by Amy Ellis Nutt") never is."""

_AT_NOT_A_PLACE = frozenset({"request", "suggestion", "insistence", "urging", "behest",
                             "recommendation", "invitation", "discretion", "expense", "cost",
                             "rate", "price", "time", "moment", "age", "point", "least", "most",
                             "best", "worst", "first", "last", "once", "peak"})
"""Nouns after "at" that give a reason, a rate or a degree, no situation ("at the user's
request", "at a discount", "at least")."""

AT_SITUATIONS = frozenset({"home", "work", "school", "office", "night", "weekend", "weekends",
                           "weekday", "weekdays", "lunch", "dinner", "breakfast"})
"""The nouns after "at" that name a situation ("555-1234 at work", "9 pm at weekends"); "at"
otherwise more often gives a reason or a place in a place ("at the user's request")."""

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
        :data:`RESTRICTING_PREPS`; "at" a place or :data:`AT_SITUATIONS`, never a reason:
        "at the user's request"; "by" a :data:`MEANS_OF_TRAVEL`, never an author: "by Amy Ellis
        Nutt"). Two values restricted to two situations are
        both true; a later value restricted to one leaves the general value standing, and a
        later general value replaces a restricted one
        (:func:`scanner.core.detect._later_exception`). The parser hangs them on the value or
        on the copula; after the first, only times are taken. A time fronted on the copula
        restricts beside them ("In summer the budget is $500" -> "in summer", "Every summer
        …", "After 5pm the fee is $2"), and so does a fronted "for" + pronoun ("For us …")."""
        out: list[tuple[Token, str]] = []
        if not complements:
            return out
        start = min(t.i for t in complements)
        named = any(c.pos_ == "PROPN" for c in complements)
        for prep in (c for h in [*complements, cop] for c in h.children
                     if c.dep_ == "prep" and c.i > start):
            pobj = next((p for p in prep.children if p.dep_ in ("pobj", "pcomp")), None)
            if pobj is None or out and not _is_time(pobj):
                continue
            if named and pobj.pos_ == "PROPN" and not _is_time(pobj):
                continue  # "Springfield in Illinois": a place in a place, one value
            owner = self._situation(prep, pobj)
            if owner:
                out.append((prep, f"{prep.lower_} {owner}"))
        # (a situation of the attribute noun restricts it as one of its value does: "My wifi
        # password at home is hunter2", "My commute in winter is 40 minutes")
        for subj in (c for c in cop.children if c.dep_ in ("nsubj", "nsubjpass")):
            for prep in (c for c in subj.children if c.dep_ == "prep" and c.lower_ != "for"):
                pobj = next((p for p in prep.children if p.dep_ == "pobj"), None)
                if pobj is not None and (prep.lower_ == "at" or _is_time(pobj)):
                    owner = self._situation(prep, pobj)
                    if owner:
                        out.append((prep, f"{prep.lower_} {owner}"))
        # (a fronted time restricts as a trailing one does, beside it: "In summer the budget
        # is $500 for groceries"; a fronted place or thing is the attribute's topic,
        # ``_topic``, and a fronted pronoun whom it is for: "For us the budget is $500")
        for c in (c for c in cop.children if c.i < cop.i):
            if c.dep_ == "npadvmod" and _is_time(c) and not any(
                    d.dep_ == "det" and d.lower_ in ("this", "these", "that", "those")
                    for d in c.children):  # ("Every summer", "Weekdays"; not "these days")
                out.append((c, "during " + _phrase(t for t in c.subtree)))
                continue
            pobj = next((p for p in c.children if p.dep_ == "pobj"), None)
            if c.dep_ != "prep" or pobj is None:
                continue
            if pobj.pos_ == "PRON" and c.lower_ == "for" and pobj.lower_ not in ("it", "this",
                                                                                "that"):
                out.append((c, f"for {pobj.lower_}"))
            elif _is_time(pobj) or c.lower_ in _SPAN_PREPS:
                owner = self._situation(c, pobj, fronted=True)
                if owner:
                    out.append((c, f"{c.lower_} {owner}"))
        return sorted(out, key=lambda found: found[0].i)

    def _situation(self, prep: Token, pobj: Token, *, fronted: bool = False) -> str | None:
        """What a restricting phrase names ("uploads", "january", "5 pm"), or None when the
        preposition restricts nothing (:data:`RESTRICTING_PREPS`; "at" before
        :data:`AT_SITUATIONS`; fronted, the span prepositions :data:`_SPAN_PREPS`)."""
        word = prep.lower_
        if fronted and word in _SPAN_PREPS and (_is_time(pobj) or pobj.pos_ == "NUM"):
            return _phrase(t for t in pobj.subtree)
        if word == "at" and pobj.lower_ in AT_SITUATIONS:
            return pobj.lower_
        if word == "at" and pobj.pos_ in ("NOUN", "PROPN") and \
                pobj.lemma_.lower() not in _AT_NOT_A_PLACE and not any(
                    c.dep_ == "poss" for c in pobj.children):
            # "Coffee is $3 at the café" / "… $5 at the airport": where the value holds
            return self._entity(pobj)
        if word == "by" and pobj.lower_ in MEANS_OF_TRAVEL:
            return pobj.lower_
        if word not in RESTRICTING_PREPS:
            return None
        if _is_time(pobj):
            return _phrase(t for t in pobj.subtree)
        if pobj.pos_ in ("NOUN", "PROPN", "VERB"):  # ("for dining out", "in the editor")
            return self._entity(pobj)
        return None

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
                # (a bracketed comment is no part of the value: "5 (set in v2)")
                bracket = next((t.i for t in value_token.subtree if t.text == "("
                                and t.i > value_token.i), None)
                tokens = [t for t in value_token.subtree if t.dep_ not in ("det", "punct")
                          and t.i not in restricting and not (
                              t.dep_ == "advmod" and t.lower_ in ("now", "currently"))
                          and (bracket is None or t.i < bracket)]
                surface = _surface(tokens) if tokens else value_token.text
                value = normalize_value(surface)
                relation_name, flips = self.table.canonical(relation)
                out.append(Triple(subject=subject, relation=relation_name, object=value,
                                  negated=neg != flips, start=cop.sent.start_char,
                                  end=cop.sent.end_char, object_text=surface, rule="key_value",
                                  qualifiers=quals))
        return out
