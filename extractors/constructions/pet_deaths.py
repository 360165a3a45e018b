"""A pet's death: named in apposition ("Juniper the cat passed away") or said as euthanasia
("had to put Rocket down", "had our cat put to sleep", "euthanized Nugget").

FrameNet Death (die, pass away) and Killing (euthanize); WordNet 3.1 euthanize.v.01 "kill (a
person or animal) painlessly" and the phrasal "put down" / "put to sleep" ("kill gently, as
with an injection"). Each gives the animal's state ``be euthanize`` (or its death), which the
state-change table's ``[[ends_possessed]]`` row turns into its owner's loss when the owner is
said ("my dog"). An animal named without its owner ("Juniper the cat", "put Rocket down") is
left to the scan, which alone knows from another memory whose pet bears that name
(:mod:`scanner.core.pet_endings`): "put Sam down" also means belittling a person, so a name is
read as a pet only where another memory names that pet.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.clause_frames import _hypothetical
from extractors.constructions.pets import PET_NOUNS, _own_name, named_before
from extractors.syntax import _NP_DROP, USER, _lemma, _negated, _phrase, _span_tokens
from extractors.times import _is_time
from extractors.types import Triple

PET_QUALIFIER = "pet"
"""Qualifier of a death whose subject is a name said with a pet noun ("Juniper the cat"):
its value is the noun, so the scan knows the name is an animal's."""

EUTHANIZED = "be euthanize"
"""The state of an animal put down ("Rocket was put to sleep"), as the extractor spells it."""

_EUTHANIZE_VERBS = frozenset({"euthanize", "euthanise"})

_WHEN_PREPS = frozenset({"on", "in", "during", "after", "before", "over"})
"""Prepositions that date an event ("on Thursday", "in March"): not "for" a spell ("put the
puppy down for the night"), nor "at" a clock time, which says a bedtime."""

_HABITUAL = frozenset({"always", "usually", "often", "sometimes", "never", "normally",
                       "generally", "regularly"})


def _death(head: Token) -> str | None:
    """The death predicate ``head`` heads ("die", "pass away"), or None."""
    lemma = head.lemma_.lower()
    if lemma == "die":
        return "die"
    if lemma == "pass" and any(c.lower_ == "away" and c.dep_ in ("prt", "advmod")
                               for c in head.children):
        return "pass away"
    return None


def _happened(head: Token) -> bool:
    """Whether ``head`` states a past event: a past verb, a passive with a past auxiliary, or
    a verb under a past "had to" / causative "had" ("had to put Rocket down", "had Rocket put
    to sleep"); never negated, never a possibility or plan."""
    if _negated(head) or _hypothetical(head):
        return False
    if any(c.dep_ == "advmod" and c.lower_ in _HABITUAL or c.dep_ == "npadvmod" and any(
            d.lower_ in ("every", "each") for d in c.children) for c in head.children):
        return False  # a routine ("puts the puppy down every night"), no event
    governor = head.head if head.dep_ in ("xcomp", "ccomp") and _lemma(head.head) == "have" \
        else None
    if governor is not None:
        return governor.tag_ in ("VBD", "VBN") and not _negated(governor) and \
            not _hypothetical(governor)
    if head.tag_ == "VBD":
        return True
    return head.tag_ == "VBN" and any(c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBD", "VBZ", "VBP")
                                      for c in head.children)


def _euthanasia_patient(head: Token) -> Token | None:
    """The animal a clause says was put down, or None: "euthanize X"; "put X down" / "put X
    to sleep" with no other place, goal or purpose ("put the phone down on the desk", "put the
    baby down for a nap" say where or why something was set down, and "put down a deposit"
    names no animal: the caller checks the patient)."""
    lemma = head.lemma_.lower()
    if lemma not in _EUTHANIZE_VERBS and lemma != "put":
        return None
    down = any(c.dep_ in ("prt", "advmod") and c.lower_ == "down" for c in head.children)
    asleep = False
    for clause in (c for c in head.children if c.dep_ in ("xcomp", "advcl")):
        # "put our cat to sleep": the parser reads "to sleep" as an infinitive
        if clause.lemma_.lower() != "sleep" or [c.lower_ for c in clause.children] != ["to"]:
            return None
        asleep = True
    for prep in (c for c in head.children if c.dep_ in ("prep", "dative")):
        objects = [p for p in prep.children if p.dep_ == "pobj"]
        if prep.lower_ == "to" and [p.lower_ for p in objects] == ["sleep"]:
            asleep = True
        elif prep.lower_ not in _WHEN_PREPS or not objects or not all(
                _is_time(p) for p in objects):
            return None  # ("down for the night", "to sleep at 8pm": a bedtime)
    if lemma == "put" and down == asleep:  # neither, or both: no idiom
        return None
    passive = any(c.dep_ == "auxpass" for c in head.children)
    deps = ("nsubjpass",) if passive else ("dobj",)
    patient = next((c for c in head.children if c.dep_ in deps), None)
    if patient is None and not passive and head.dep_ == "ccomp" and _lemma(head.head) == "have":
        # "had Rocket put to sleep": the causative's subject of the participle
        patient = next((c for c in head.children if c.dep_ == "nsubj"), None)
    return patient


def _owned_kind(name: Token | None) -> Token | None:
    """The possessed pet noun right before a name the parser made the subject ("the user's
    rabbit Dot died": the noun a compound of the name, or a second adverbial), or None."""
    if name is None or name.pos_ != "PROPN" or name.i == 0:
        return None
    kind = name.nbor(-1)
    if kind.pos_ != "NOUN" or kind.lemma_.lower() not in PET_NOUNS or not any(
            c.dep_ == "poss" for c in kind.children):
        return None
    if kind.head == name and kind.dep_ == "compound" or \
            kind.head == name.head and kind.dep_ in ("npadvmod", "nsubj", "dep"):
        return kind
    return None


_LIFTING = frozenset({"pick", "lift", "hold", "carry", "grab", "scoop"})
"""Verbs of lifting or holding an animal, whose coordinated "put X down" sets it down again
("picked Rocket up and put him down")."""


def _lifted(head: Token) -> bool:
    """Whether ``head`` is coordinated with a verb of lifting or holding."""
    verbs = [head.head] if head.dep_ == "conj" else []
    verbs += [c for c in head.children if c.dep_ == "conj"]
    return any(v.lemma_.lower() in _LIFTING for v in verbs)


class PetDeathRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin: it
    reads the extractor's ``state_changes``, ``_subject_token``, ``_entity``,
    ``_time_qualifiers`` and ``_make``)."""

    def _pet_deaths(self, head: Token, found: list[Triple]) -> list[Triple]:
        """``found`` (the clause's triples) with a pet's death read as said: "Juniper the
        cat passed away" is Juniper's death, with the pet qualifier (the parser had made "cat"
        the subject, and its triples are dropped); "had to put Rocket down" / "our dog was
        put to sleep" is the animal's :data:`EUTHANIZED` state with the endings it implies."""
        death = _death(head)
        if death is not None and not _negated(head) and not _hypothetical(head):
            noun = said = self._subject_token(head)
            if noun is not None and noun.pos_ in ("PROPN", "VERB") and \
                    noun.i + 2 < len(noun.doc) and \
                    named_before(noun.doc[noun.i + 2]) == noun:
                noun = noun.doc[noun.i + 2]  # "Bo the beagle", both read as subjects
            kind = _owned_kind(noun)
            if kind is not None:
                # "The user's cat Tofu died": the parser made the noun a compound of the name
                owned = self._owned_pet(kind)
                if owned:
                    wrong = self._entity(noun)
                    owner = owned.rpartition("'s ")[0]
                    found = [t for t in found if t.subject != wrong]
                    for subject in (owned, f"{owner}'s {noun.lower_}"):
                        found = found + self._with_endings(self._make(
                            subject, death, "", "", negated=False, clause=head, rule="state",
                            qualifiers=self._time_qualifiers(head)))
                return found
            if noun is not None and noun.dep_ == "nsubj" and any(
                    c.dep_ == "poss" and c.lower_ == "our" for c in noun.children):
                owned = self._owned_pet(noun)  # "Our old dog died last week"
                name = _own_name(noun)
                if owned:
                    owner = owned.rpartition("'s ")[0]
                    for subject in (owned, *([f"{owner}'s {name.lower_}"] if name else [])):
                        found = found + self._with_endings(self._make(
                            subject, death, "", "", negated=False, clause=head, rule="state",
                            qualifiers=self._time_qualifiers(head)))
                return found
            name = named_before(noun)
            if name is not None:
                wrong = {self._entity(noun), self._entity(said)}
                found = [t for t in found if t.subject not in wrong]
                quals = [*self._time_qualifiers(head), (PET_QUALIFIER, noun.lemma_.lower())]
                return found + self._with_endings(self._make(
                    name.lower_, death, "", "", negated=False, clause=head, rule="state",
                    qualifiers=quals))
            return found
        patient = _euthanasia_patient(head)
        if patient is None or not _happened(head):
            return found
        subjects = []
        if patient.pos_ in ("PROPN", "NOUN") and patient.tag_ in ("NNP", "NN") and \
                (patient.text[:1].isupper() or not any(patient.children)) and \
                patient.lemma_.lower() not in PET_NOUNS and not _is_time(patient) and \
                not any(c.dep_ == "agent" for c in head.children) and not _lifted(head) \
                and not any(c.dep_ in ("det", "poss") for c in patient.children):
            # a name ("put Rocket down"; in chat also "put rocket down": a singular noun
            # with no determiner): whose pet, only the scan knows
            subjects.append(patient.lower_)
        elif patient.pos_ == "NOUN" and patient.lemma_.lower() in PET_NOUNS:
            owned = self._owned_pet(patient)  # "my dog" -> "user's dog"
            if owned:
                subjects.append(owned)
                name = _own_name(patient)
                if name is not None:  # "put my dog Rocket down"
                    owner = owned.rpartition("'s ")[0]
                    subjects.append(f"{owner}'s {name.lower_}")
        out = list(found)
        for subject in subjects:
            out += self._with_endings(self._make(
                subject, EUTHANIZED, "", "", negated=False, clause=head, rule="state",
                qualifiers=self._time_qualifiers(head)))
        return out

    def _owned_pet(self, noun: Token) -> str | None:
        """The possessed pet ``noun`` as a subject ("my dog" -> "user's dog"); "our dog" is
        the user's too, the household's pet as "our default region" is the user's setting
        (the extractor leaves "our" unresolved elsewhere); None for any other noun."""
        if noun.pos_ != "NOUN" or noun.lemma_.lower() not in PET_NOUNS:
            return None
        poss = next((c for c in noun.children if c.dep_ == "poss"), None)
        if poss is None:
            return None
        if poss.lower_ == "our":
            text = _phrase(_span_tokens(noun, drop=_NP_DROP))
            return f"{USER}'s {text}" if text else None
        owned = self._entity(noun)
        return owned if owned and "'s " in owned else None

    def _with_endings(self, triple: Triple) -> list[Triple]:
        """``triple`` and the states its event ends (the state-change table)."""
        return [triple, *self.state_changes.derive(triple)]
