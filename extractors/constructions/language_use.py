"""Language use: who speaks which language, and the language of a place.

Four constructions the general clause rules misread:

* **a language named by a proper adjective** after a verb of language use: "Ines speaks
  Finnish", "Ines speaks the language Hebrew". English names a language with the capitalised
  adjective of its people (Quirk et al. 1985, *A Comprehensive Grammar of the English
  Language*, §7.25 and §5.58: "English", "French", "Finnish"), which the small parser often
  hangs on the verb as an adverb or a clause ("speaks Finnish" -> ``advmod``), so the clause
  gave ``(ines, speak, "")``. The name right after the verb (or after its type noun
  "language") is the value.
* **the people of a place as subject**: "In Quebec, they speak French", "The people of Lagos
  speak Yoruba". Impersonal "they" with a fronted place adverbial, and a people noun ("people",
  "inhabitants", "locals") with an "in"/"of" place, mean the population of that place in
  general (Quirk et al. 1985 §6.20 on the generic use of "they"; Biber et al. 1999, *Longman
  Grammar of Spoken and Written English*, §4.4.1.3), so the statement is about the place:
  "In Quebec, they speak French" says what "French is spoken in Quebec" and "the language
  spoken in Quebec is French" say, ``(quebec, language spoken, french)``.
* **a place's law designating a language**: "The law in Peru declares the language Quechua",
  "Peru's constitution recognises the language Aymara". A legal instrument of a place that
  declares, designates or recognises a language makes it that place's official language
  (Wikidata P37 "official language": "language designated as official by this item"),
  ``(peru, official language, quechua)``.
* **an agent noun with its "of" object**: "Ines is a speaker of Danish", "Ines, a native
  speaker of Danish." The "of" phrase of an agent noun in -er is the object of its verb (the
  objective genitive of deverbal nouns, Quirk et al. 1985 §17.40 and §17.44: "a speaker of
  Danish" is one who speaks Danish); "native speaker" names the native language (Wikidata
  P103 "native language": "language or languages a person has learned from early
  childhood").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _lemma, _negated
from extractors.types import Triple

LANGUAGE_VERBS = frozenset({"speak", "understand", "write", "read", "learn", "teach", "use",
                            "talk", "know", "study"})
"""Verbs of language use whose object may be a language named by its adjective (WordNet 3.0
senses speak.v.02 "use a language", understand.v.01, write.v.02, read.v.01, learn.v.01,
teach.v.01, know.v.01, study.v.02)."""
SPOKEN_VERBS = frozenset({"speak", "understand", "use", "talk"})
"""Of :data:`LANGUAGE_VERBS`, those whose generic subject makes the value a language spoken in
the place ("in Quebec they speak / understand / use French")."""
DESIGNATION_VERBS = frozenset({"declare", "designate", "recognise", "recognize", "name",
                               "establish", "adopt", "make"})
"""Verbs by which a law designates a status (FrameNet "Categorization" and "Labeling"
frames: declare, designate, recognize, name)."""
PEOPLE_NOUNS = frozenset({"people", "population", "inhabitant", "resident", "local",
                          "native", "citizen", "folk", "person"})
"""Nouns for the population of a place (FrameNet "People_by_residence": inhabitant,
resident, local, native, citizen; "People": people, folk, person)."""
LEGAL_NOUNS = frozenset({"law", "constitution", "statute", "legislation", "government",
                         "parliament", "legislature", "authority", "state"})
"""Nouns for a place's legal instruments and law-making bodies (FrameNet "Law":
law, statute, legislation, constitution; "Leadership": government, authority)."""
TYPE_NOUN = "language"
"""The type noun that may stand between the verb and the language's name."""
AGENT_NOUNS = {"speaker": "speak", "writer": "write", "learner": "learn", "teacher": "teach",
               "reader": "read", "student": "study"}
"""Agent nouns of :data:`LANGUAGE_VERBS` -> their verb (Quirk et al. 1985 §17.44)."""
NATIVE = "native language"
"""The relation of a "native speaker of" phrase (Wikidata P103)."""
OFFICIAL = "official language"
"""The relation a place's law designating a language gives (Wikidata P37)."""
SPOKEN = "language spoken"
"""The relation a place's people speaking a language gives ("the language spoken in X")."""
_OBJECT_SLOTS = ("dobj", "advmod", "npadvmod", "ccomp", "oprd", "acomp", "attr", "dep",
                 "appos", "xcomp")
"""Dependencies the small parser gives a language name after a verb."""
_PLACE_PREPS = ("in", "of", "across", "throughout")


def _is_name(token: Token) -> bool:
    """A capitalised proper noun or adjective (a language named by its adjective)."""
    return token.text[:1].isupper() and token.tag_ in ("NNP", "NNPS", "JJ", "NN")


def language_name(verb: Token) -> tuple[Token, bool] | None:
    """The language a verb of language use (or designation) names, the small parser's misreads
    included: ``(name token, whether the type noun "language" came before it)``; None when the
    clause names none.

    "speaks Finnish" (``advmod``), "speaks the language Hebrew" ("language" the subject of a
    clause "Hebrew"), "speaks the language Welsh" (appositive), "declares the language
    Quechua" ("language" a compound of the name).
    """
    lemma = _lemma(verb)
    if lemma not in LANGUAGE_VERBS and lemma not in DESIGNATION_VERBS:
        return None
    after = [c for c in verb.children if c.i > verb.i and c.dep_ in _OBJECT_SLOTS]
    for child in after:
        if child.lemma_.lower() == TYPE_NOUN and child.pos_ == "NOUN":
            name = next((c for c in child.children if c.dep_ in (
                "appos", "compound", "npadvmod", "amod", "advmod")
                and c.i == child.i + 1 and _is_name(c)), None)
            if name is not None:
                return name, True
            continue
        if not _is_name(child):
            continue
        typed = any(c.lemma_.lower() == TYPE_NOUN and c.i < child.i
                    and c.dep_ in ("compound", "nsubj", "amod") for c in child.children)
        if typed or lemma in LANGUAGE_VERBS:
            return child, typed
    return None


def _place(token: Token) -> Token | None:
    """The proper-noun place of an "in"/"of" phrase on ``token``; None without one."""
    return next((p for c in token.children if c.dep_ == "prep" and c.lower_ in _PLACE_PREPS
                 for p in c.children if p.dep_ == "pobj" and p.pos_ == "PROPN"), None)


def people_place(verb: Token, subj: Token) -> tuple[Token, str] | None:
    """The place whose people or law the clause's subject is: ``(place head, kind)`` with
    kind ``people`` or ``law``; None otherwise.

    Impersonal "they" takes a fronted place adverbial ("In Quebec, they speak French"); a
    people or legal noun its own "in"/"of" phrase ("the inhabitants of Lagos", "the law in
    Peru") or, failing that, the fronted adverbial ("In Lagos, people speak Yoruba").
    """
    fronted = next((p for c in verb.children if c.dep_ == "prep" and c.lower_ == "in"
                    and c.i < subj.i for p in c.children
                    if p.dep_ == "pobj" and p.pos_ == "PROPN"), None)
    if subj.lower_ == "they" and subj.tag_ == "PRP":
        return (fronted, "people") if fronted is not None else None
    noun = subj.lemma_.lower()
    if subj.pos_ != "NOUN" or noun not in PEOPLE_NOUNS | LEGAL_NOUNS:
        return None
    if any(c.dep_ == "poss" for c in subj.children):
        owner = next(c for c in subj.children if c.dep_ == "poss")
        place = owner if owner.pos_ == "PROPN" else None
    else:
        place = _place(subj) or fronted
    if place is None:
        return None
    return place, ("people" if noun in PEOPLE_NOUNS else "law")


class LanguageUseRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``_subject_token``, ``_entity``, ``_value`` and ``_make``)."""

    def _language_use(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` (the clause's triples) with the language constructions of this module
        read: a misread language name becomes the value, a place's people or law the subject,
        and an agent noun's "of" object the object of its verb."""
        agent = self._agent_noun(head)
        if agent:
            return [t for t in found if not (t.relation == "be" and t.object.endswith(
                "speaker"))] + agent
        named = language_name(head) if head.pos_ == "VERB" else None
        subj = self._subject_token(head) if head.pos_ == "VERB" else None
        placed = people_place(head, subj) if subj is not None else None
        if named is None and placed is None:
            return found
        negated = _negated(head)
        lemma = _lemma(head)
        if named is not None:
            value, surface = self._language_value(named[0])
        else:
            obj = next((c for c in head.children if c.dep_ == "dobj"), None)
            value, surface = self._value(obj) if obj is not None else ("", "")
        if not value:
            return found
        if placed is not None:
            place, kind = placed
            if kind == "law" and named is not None and named[1] and lemma in DESIGNATION_VERBS:
                relation = OFFICIAL
            elif kind == "people" and lemma in SPOKEN_VERBS:
                relation = SPOKEN
            else:
                return found
            subject, _ = self._value(place)
            own = self._entity(subj)
            kept = [t for t in found if t.subject not in (own, None, "")]
            return kept + [self._make(subject, relation, value, surface, negated=negated,
                                      clause=head, rule="svo")]
        if lemma not in LANGUAGE_VERBS:
            return found
        subject = self._entity(subj) if subj is not None else None
        if not subject:
            return found
        relation = self._make(subject, lemma, value, surface, negated=negated, clause=head,
                              rule="svo")
        kept = [t for t in found if not (t.subject == subject and t.relation == relation.relation
                                         and (not t.object or t.object.startswith(TYPE_NOUN)))]
        return kept + [relation]

    def _language_value(self, name: Token) -> tuple[str, str]:
        """The value and surface of a language name, without a type noun compounded to it
        ("the language Quechua" -> "quechua")."""
        value, surface = self._value(name)
        prefix = TYPE_NOUN + " "
        if value.startswith(prefix):
            value = value[len(prefix):]
            surface = surface.split(" ", 1)[1] if " " in surface else surface
        return value, surface

    def _agent_noun(self, head: Token) -> list[Triple]:
        """"Ines is a (native) speaker of Danish" (copula) and "Ines, a native speaker of
        Danish." (appositive fragment) -> ``(ines, speak | native language, danish)``."""
        if head.lemma_ == "be" and head.pos_ == "AUX":
            noun = next((c for c in head.children if c.dep_ == "attr"), None)
            subj = self._subject_token(head)
        elif head.pos_ == "PROPN" and head.dep_ == "ROOT":
            noun = next((c for c in head.children if c.dep_ == "appos"), None)
            subj = head
        else:
            return []
        if noun is None or subj is None or noun.lemma_.lower() not in AGENT_NOUNS:
            return []
        value_token = next((p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
                            for p in c.children if p.dep_ == "pobj"), None)
        subject = self._entity(subj)
        if value_token is None or not subject:
            return []
        value, surface = self._language_value(value_token)
        if not value:
            return []
        native = any(c.dep_ == "amod" and c.lower_ == "native" for c in noun.children)
        relation = NATIVE if native and noun.lemma_.lower() == "speaker" \
            else AGENT_NOUNS[noun.lemma_.lower()]
        return [self._make(subject, relation, value, surface, negated=_negated(head),
                           clause=head, rule="svo")]
