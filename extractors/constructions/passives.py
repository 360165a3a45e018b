"""Passive clauses ("was founded by", "is employed by", "was laid off from"), read with the
patient as the subject where the relation is the patient's, otherwise turned active
(``passive``), as settings changed, renamings and owned attributes
(:mod:`extractors.constructions.changes`)."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.constructions.verb_words import _AGENT_ROLES
from extractors.syntax import (
    _FIRST_PERSON,
    _OBJECT_PREPS,
    _UNRESOLVED_PRONOUNS,
    USER,
    _fronted_gerund,
    _is_time,
    _lemma,
    _negated,
    _no_value,
    _phrase,
    _surface,
)
from extractors.types import Triple


class PassiveRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for passive clauses (a mixin: it
    reads the extractor's ``_entity``, ``_objects``, ``_value``, ``_make``, ``_state``,
    ``_time_qualifiers``, ``_verb_preps``, ``_owned_attribute``, ``_setting_change`` and
    ``_renaming``)."""

    def _passive(self, verb: Token) -> list[Triple]:
        patient = next((c for c in verb.children if c.dep_ in ("nsubjpass", "csubjpass")), None)
        if patient is None:  # "i am married": the parser sometimes labels the patient nsubj,
            # attached to the verb or to its passive auxiliary
            patient = next((c for c in verb.children if c.dep_ == "nsubj"), None) or next(
                (g for c in verb.children if c.dep_ == "auxpass" for g in c.children
                 if g.dep_ in ("nsubj", "nsubjpass")), None)
        if patient is None:
            patient = _fronted_gerund(verb)
        if patient is None:
            return []
        neg = _negated(verb)
        accustomed = self._accustomed(verb, patient, neg)
        if accustomed is not None:
            return accustomed
        times = self._time_qualifiers(verb)
        agent_prep = next((c for c in verb.children if c.dep_ == "agent"), None)
        agent = next((c for c in agent_prep.children if c.dep_ == "pobj"), None) \
            if agent_prep is not None else None
        out: list[Triple] = []
        passive_phrase = f"be {verb.lower_} by"
        if agent is not None and passive_phrase in self.table.synonyms:
            # "I am employed by Acme" keeps its patient as subject: (user, work at, acme)
            subject = self._entity(patient)
            if subject is None:
                return []
            for obj in self._objects(agent):
                value, surface = self._value(obj)
                out.append(self._make(subject, passive_phrase, value, surface, negated=neg,
                                      clause=verb, rule="passive", qualifiers=times))
            return out
        if agent is not None:
            for doer in self._objects(agent):  # "by Acme and Globex": each is a subject
                subject = self._entity(doer)
                if subject is None:
                    continue
                for obj in self._objects(patient):
                    if obj.lower_ in _FIRST_PERSON | _UNRESOLVED_PRONOUNS:
                        value, surface = ((USER, obj.text) if obj.lower_ in _FIRST_PERSON
                                          else ("", ""))
                        if not value:
                            continue
                    else:
                        value, surface = self._value(obj)
                    out.append(self._make(subject, _lemma(verb), value, surface, negated=neg,
                                          clause=verb, rule="passive", qualifiers=times))
            role = _AGENT_ROLES.get(_lemma(verb))
            # (a named patient only: "the company was founded by …" names no one company)
            patient_entity = self._entity(patient) if role and patient.pos_ == "PROPN" \
                else None
            if patient_entity:
                # "Turner Entertainment was founded by Ted Turner": a work or organisation has
                # one founder, maker, developer: keyed on the patient, as "its founder is …"
                for doer in self._objects(agent):
                    value, surface = self._value(doer)
                    if value:
                        out.append(self._make(patient_entity, role, value, surface,
                                              negated=neg, clause=verb, rule="passive",
                                              qualifiers=times))
            return out
        setting = self._event_time_change(verb, patient, neg) or self._setting_change(
            verb, patient, neg) or self._renaming(verb, patient, neg)
        if setting:
            return setting
        owned = self._owned_attribute(patient)
        if owned is not None:
            # "The headquarters of University of Michigan is located in Ann Arbor": the
            # relational noun's owner is the subject, the noun the relation
            owner, noun_phrase = owned
            out = []
            for prep in (c for c in verb.children if c.dep_ == "prep"
                         and c.lower_ in _OBJECT_PREPS):
                for pobj in (c for c in prep.children if c.dep_ == "pobj"
                             and not _no_value(c)):
                    for obj in self._objects(pobj):
                        value, surface = self._value(obj)
                        out.append(self._make(owner, noun_phrase, value, surface,
                                              negated=neg, clause=verb, rule="attribute",
                                              qualifiers=times))
            if out:
                return out
        subject = self._entity(patient)
        if subject is None:
            return []
        # (a phrasal verb keeps its particle: "was laid off from Northwind")
        participle = " ".join(["be", verb.lower_, *(c.lower_ for c in verb.children
                                                     if c.dep_ == "prt")])
        # (with the role's place: "is employed as a data analyst at Maersk", as the active
        # "works as a nurse at St. Mary's" is read)
        preps = self._verb_preps(verb)
        go = next((c for c in verb.children if c.dep_ == "xcomp" and c.lower_ == "go"), None)
        if verb.lower_ == "let" and go is not None:
            # "was let go from Kettle & Crumb": the idiom's phrases hang on "go"
            participle, preps = "be let go", preps + self._verb_preps(go)
        for prep in preps:
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                if _is_time(pobj):
                    continue
                for obj in self._objects(pobj):
                    value, surface = self._value(obj)
                    out.append(self._make(subject, f"{participle} {prep.lower_}", value,
                                          surface, negated=neg, clause=verb,
                                          rule="prep_object", qualifiers=times))
        if not out:
            out.append(self._state(subject, verb, negated=neg, clause=verb, qualifiers=times))
        return out

    def _accustomed(self, verb: Token, patient: Token, neg: bool) -> list[Triple] | None:
        """"The user is (not) used to early mornings": the idiom "be used to" (accustomed to,
        an attitude to each thing: many-valued), never a passive of "use" nor a time; its
        object is what follows "to" in the clause, whatever the parser made of it ("to
        spicy food" read as an infinitive). None when the clause is no such idiom."""
        doc = verb.doc
        to = doc[verb.i + 1] if verb.i + 1 < len(doc) else None
        if verb.lower_ != "used" or to is None or to.lower_ != "to":
            return None
        subject = self._entity(patient)
        words = []
        for t in doc[to.i + 1: verb.sent.end]:
            if t.is_punct or t.pos_ == "CCONJ":
                break
            words.append(t)
        value = _phrase(words)
        if subject is None or not value:
            return []
        return [self._make(subject, "be used to", value, _surface(words), negated=neg,
                           clause=verb, rule="prep_object")]