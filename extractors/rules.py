"""Dependency rules that turn spaCy parses into canonical triples.

The rules read the labels of spaCy's English dependency parser (ClearNLP style: ``nsubj``,
``nsubjpass``, ``csubjpass``, ``attr``, ``acomp``, ``dobj``, ``prep``/``pobj``, ``agent``,
``xcomp``, ``neg``; see https://spacy.io/models/en and Choi & Palmer 2012). One pass over each
parsed sentence; every predicate head (root, conjunct, clausal complement) is visited once:

* ``copula``: "X's Y is Z", "the Y of X is Z", "the project budget is Z", "the preferred glaze
  is Z" (no possessor: the scope's user) -> ``(X, Y, Z)``; "tenmoku, not celadon" adds the
  negated ``(X, Y, celadon)``.
* ``state``: "Deploying on Fridays is not allowed", "I am vegetarian" -> ``(S, be allowed, "")``
  negated, ``(user, be vegetarian, "")``.
* ``passive``: "Beta was acquired by Acme" -> ``(acme, acquire, beta)``, the active form.
* ``svo``/``prep_object``: "Acme acquired Beta", "Sam lives in Nice" -> ``(sam, live in, nice)``.
* aspect verbs: "Lee stopped drinking tea" -> negated ``(lee, drink, tea)``; "started drinking
  coffee" -> ``(lee, drink, coffee)``.
* ``key_value``: "retry_timeout = 30s", "Timeout for service A: 30s".

The constructions live one per module in :mod:`extractors.constructions` (subjects, objects,
copula, verbs, key: value lines, patterns); token-level helpers in :mod:`extractors.syntax`.
This module holds the extractor itself: the dispatcher over predicate heads and the
canonical triple; running it over texts (preparation, batches, workers) is
:mod:`extractors.runner`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from spacy.language import Language
from spacy.tokens import Doc, Token

from extractors.constructions.abstinence import AbstinenceRules
from extractors.constructions.alternatives import AlternativeRules
from extractors.constructions.answers import AnswerRules
from extractors.constructions.changes import ChangeRules
from extractors.constructions.handovers import HandoverRules
from extractors.constructions.still_holds import prefer_present, StillHoldsRules
from extractors.constructions.role_holders import RoleHolderRules
from extractors.constructions.class_nouns import ClassNounRules, named_values
from extractors.constructions.clause_times import ClauseTimeRules
from extractors.constructions.copula import CopulaRules
from extractors.constructions.descriptions import partners_are_people
from extractors.constructions.role_nouns import OCCUPATION_NOUNS
from extractors.constructions.decisions import DecisionRules, rejected_alternative
from extractors.constructions.enclosure import EnclosureRules
from extractors.constructions.event_times import EventTimeRules
from extractors.constructions.nominal_endings import NominalEndingRules
from extractors.constructions.none_left import NoneLeftRules
from extractors.constructions.noun_predicates import NounPredicateRules
from extractors.constructions.genres import GenreRules
from extractors.constructions.go_activities import GoActivityRules
from extractors.constructions.visits import VisitRules
from extractors.constructions.key_values import KeyValueRules
from extractors.constructions.settings import SettingRules
from extractors.constructions.language_use import LanguageUseRules
from extractors.constructions.objects import ObjectRules, _own_setting
from extractors.constructions.preferences import PreferenceRules
from extractors.constructions.patterns import PatternRules
from extractors.constructions.repute import ReputeRules
from extractors.constructions.reports import ReportRules
from extractors.constructions.subjects import SubjectRules
from extractors.constructions.stranded_objects import StrandedObjectRules
from extractors.constructions.education_lines import EducationLineRules
from extractors.constructions.studies import StudyRules
from extractors.constructions.support_verbs import SupportVerbRules
from extractors.constructions.verbs import VerbRules
from extractors.constructions.passives import PassiveRules
from extractors.constructions.pet_deaths import PetDeathRules
from extractors.constructions.pets import BREED_NOUNS, PET_NOUNS, _own_name
from extractors.lexicon import (
    compile_patterns,
    instantiations,
    load_pattern_packs,
    load_patterns,
    Pattern,
    PatternIndex,
    place_relations,
)
from extractors.parsed import parsed
from extractors.pipeline import load_pipeline
from extractors.role_verbs import role_readings
from extractors.constructions.attribute_values import attribute_values
from extractors.doc_cache import cached_sentences, doc_text
from extractors.reading import ReadingRules
from extractors.runner import TextRunner
from extractors.relations import DEFAULT_TABLE, RELATIONSHIP_NOUNS, RelationTable
from extractors.negation_focus import restricted_denials
from extractors.clause_frames import (
    CONDITIONED,
    _hypothetical,
    _plain_future,
    futurate_move,
    in_fiction,
    _with_exceptions,
    conditioned,
    in_future,
    spent_in_past,
)
from extractors.implied_denials import implied
from extractors.state_changes import (
    default_state_changes, ENDED_RULE, PARTY_QUALIFIER, StateChanges)
from extractors.aspect import _contracted_perfect, _for_now_only, dated_state_past
from extractors.constructions.dwelling_places import dwelling_places
from extractors.relations import MOVE_RELATIONS, dwelling_reading, plain_move
from extractors.unrealised import unrealised_clause
from extractors.syntax import (
    _CHANGE_VERBS,
    _RECIPROCAL,
    ADJECTIVE_INDEX,
    NOUN_INDEX,
    VERB_INDEX,
    USER,
    _CLAUSE_DEPS,
    _DESIRE_VERBS,
    _habitual_past,
    _infinitive_complements,
    _is_question,
    _lemma,
    _lexicon_items,
    _LIGHT_VERBS,
    _LIKE_VERBS,
    _negated,
    _OBJECT_PREPS,
    _START_ASPECT,
    _STOP_ASPECT,
    truecase,
    _truth_frame,
)
from extractors.types import ADDITIVE, ADDITIVE_ADVERBS, Triple


__all__ = ["USER", "TripleExtractor", "extract", "truecase"]


_log = logging.getLogger(__name__)
RULE_FAILURE = "an extraction rule failed on one clause (%s: %s); that clause gives no triples"
"""Logged (warning, logger ``extractors.rules``, without the memory's text) when a rule raises
on a clause: the statistical parser can produce a tree no rule foresaw, and one clause must not
cost the memory's other clauses or a scan's other memories. The test suite fails on it."""


def _intransitive_endings(changes: StateChanges) -> frozenset[str]:
    """The predicates that end a state without an object ("be lay", "pass away")."""
    return frozenset({*changes.states, *changes.possessed})


def _for_other(triple: Triple, first: str, other: str) -> Triple:
    """``triple`` of the first of two coordinated subjects said of the other; an ending that
    named the other as its party names the first for it ("Sam and I broke up")."""
    swap = {other: first}
    return Triple(**{**triple.to_dict(), "subject": other,
                     "object": swap.get(triple.object, triple.object)
                     if triple.rule == ENDED_RULE else triple.object,
                     "qualifiers": tuple((k, swap.get(v, v) if k == PARTY_QUALIFIER else v)
                                         for k, v in triple.qualifiers)})


def _named_pet(noun: Token) -> bool:
    """A pet noun with the animal's name beside it ("Omar's parrot Kiwi", the tagger's
    adjective "parrot" before the name; "Teodora's parrot, Mango,"): a named animal is a pet,
    never food ("Maria's chicken" may be a dish), so its possessor has it."""
    if noun.pos_ == "PROPN":
        return any(c.dep_ in ("amod", "compound") and c.i == noun.i - 1
                   and c.lower_ in PET_NOUNS for c in noun.children)
    return noun.pos_ == "NOUN" and noun.lemma_.lower() in PET_NOUNS and (any(
        c.dep_ == "appos" and c.pos_ == "PROPN" and not any(c.children)
        for c in noun.children) or _own_name(noun) is not None)


_ATTRIBUTE_READINGS = frozenset({"attribute", "key_value", "attribute_set", "attribute_generic"})
"""Rules that read a clause as an attribute with its value; a typed-value reading of the same
clause would repeat it without its restrictions."""


class TripleExtractor(SubjectRules, ObjectRules, CopulaRules, SettingRules, VerbRules,
                      PassiveRules, KeyValueRules, PatternRules, AlternativeRules, DecisionRules,
                      NominalEndingRules,
                      SupportVerbRules, ReadingRules, ChangeRules, PreferenceRules,
                      LanguageUseRules, ReputeRules, EnclosureRules, ClassNounRules,
                      NounPredicateRules, StrandedObjectRules, GenreRules, AnswerRules,
                      PetDeathRules, AbstinenceRules, StudyRules, EducationLineRules,
                      ReportRules, HandoverRules, StillHoldsRules, RoleHolderRules,
                      GoActivityRules, NoneLeftRules, VisitRules, ClauseTimeRules,
                      EventTimeRules, TextRunner):
    """Rule-based subject–relation–object extraction over spaCy parses.

    Args:
        nlp: a loaded spaCy pipeline with a dependency parser; default
            :func:`extractors.pipeline.load_pipeline`.
        table: relation synonyms, antonyms and cardinalities.
        use_lexicon: match ParaRel patterns and map relation phrases induced from them
            (:mod:`extractors.lexicon`).
        use_train_patterns: with the lexicon, also match the rewording templates mined from
            CounterFact's training split (:func:`extractors.lexicon.load_train_patterns`):
            the same as ``pattern_packs=("counterfact-train",)``. Off by default: a data
            set's own templates are never a product default.
        pattern_packs: opt-in pattern packs by name
            (:data:`extractors.lexicon.PATTERN_PACKS`), matched with the lexicon.
        extra_patterns: more ``(relation, pattern)`` pairs in ParaRel's slot syntax
            (``"[X] was born in [Y]."``), e.g. mined from a training set.
        state_changes: which predicates end or leave behind which states
            (:mod:`extractors.state_changes`); default: the shipped table.

    Example:
        >>> TripleExtractor().extract("My name is Priya.")[0].fact
        ('user', 'name', 'priya', False)
    """

    def __init__(self, nlp: Language | None = None, table: RelationTable = DEFAULT_TABLE, *,
                 use_lexicon: bool = True, use_train_patterns: bool = False,
                 pattern_packs: Iterable[str] = (),
                 extra_patterns: Iterable[tuple[str, str]] = (),
                 state_changes: StateChanges | None = None):
        self.nlp = nlp if nlp is not None else load_pipeline()
        self.table = table
        self.state_changes = state_changes if state_changes is not None else \
            default_state_changes()
        # (the rules run on the lexicon's patterns below, before the table is mapped)
        self._intransitive_endings = _intransitive_endings(self.state_changes)
        self.use_lexicon = use_lexicon
        extra = compile_patterns(("extra", rel, text) for rel, text in extra_patterns)
        packs = list(dict.fromkeys(
            [*pattern_packs, *(["counterfact-train"] if use_train_patterns else [])]))
        if use_lexicon and packs:
            extra += load_pattern_packs(packs)
        self.patterns: tuple[Pattern, ...] = tuple(sorted(
            (load_patterns() if use_lexicon else ()) + extra,
            key=lambda p: (-p.literal_chars, p.relation_id, p.text)))
        self._pattern_index = PatternIndex(self.patterns)
        self._induced: dict[str, str] = {}
        if use_lexicon:
            self._induced = self._induce_relations()
        self.state_changes = self.state_changes.mapped(self._canonical_relation)
        self._intransitive_endings = _intransitive_endings(self.state_changes)
        if not NOUN_INDEX and self._is_noun("dog"):
            NOUN_INDEX.update(self._nouns)
            index = self.nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
            ADJECTIVE_INDEX.update(index.get("adj", ()))
            VERB_INDEX.update(index.get("verb", ()))

    def _canonical_relation(self, phrase: str) -> str:
        """A relation phrase as :meth:`_make` spells it (synonyms, then induced relations)."""
        relation, _ = self.table.canonical(phrase)
        return self._induced.get(relation, relation)

    def _induce_relations(self) -> dict[str, str]:
        """Relation phrase -> ParaRel relation, learnt by running the rules on every pattern
        instantiated with placeholder names (see :mod:`extractors.lexicon`). A phrase is kept
        when at least two thirds of its votes agree and it differs from no curated synonym."""
        votes: dict[str, dict[str, int]] = {}
        items = list(instantiations())
        for (relation, _), doc in zip(items, self.nlp.pipe(s for _, s in items)):
            for t in self._rule_triples(doc):
                if (t.subject, t.object) == ("alan smith", "zembla") and not t.negated:
                    slot = votes.setdefault(t.relation, {})
                    slot[relation] = slot.get(relation, 0) + 1
        curated = set(self.table.synonyms.values()) - {r for _, (r, _) in _lexicon_items()}
        induced = {}
        for phrase, counts in votes.items():
            best, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
            if (n * 3 >= 2 * sum(counts.values()) and phrase != best
                    and any(w not in _LIGHT_VERBS and w not in _OBJECT_PREPS
                            for w in phrase.split()) and phrase not in curated):
                induced[phrase] = best
        return induced

    @property
    def induced_relations(self) -> dict[str, str]:
        """The relation phrases mapped to lexicon relations (phrase -> relation)."""
        return dict(self._induced)

    # -- public API: extract() and extract_many() come from TextRunner ---------------------
    def triples_from_doc(self, doc: Doc) -> list[Triple]:
        """Triples of a parsed document (which the rules leave unchanged)."""
        doc = parsed(doc)
        with cached_sentences(doc):
            return self._triples_from_doc(doc)

    def _triples_from_doc(self, doc: Doc) -> list[Triple]:
        found: list[Triple] = []
        found.extend(self._key_values(doc))
        found.extend(self._education_lines(doc))
        if self.patterns:
            found.extend(self._pattern_triples(doc))
        found.extend(self._rule_triples(doc))
        # a continent's name makes a location the continent relation (both for "australia")
        placed: list[Triple] = []
        for t in found:
            relation, value = dwelling_reading(
                t.relation, t.object, t.object_text, t.qualifier("time"),
                plain_move=t.relation in MOVE_RELATIONS and t.object_text[:1].islower()
                and plain_move(doc_text(doc)[t.start:t.end], t.object_text))
            if relation != t.relation:  # "lives in a flat": the kind of home, not the place
                placed += dwelling_places(doc, t, t.relation)  # "… a flat in Leeds": Leeds
                t = Triple(**{**t.to_dict(), "relation": relation, "object": value,
                              "qualifiers": t.qualifiers})
            relations = place_relations(t.relation, t.object)
            if relations == (t.relation,):
                placed.append(t)
            else:
                placed += [Triple(**{**t.to_dict(), "relation": r, "qualifiers": t.qualifiers})
                           for r in relations]
        placed = named_values(placed)  # "the organization of OPEC" is OPEC
        placed += role_readings(placed)  # "chairs the committee" is the committee chair
        placed = partners_are_people(placed, OCCUPATION_NOUNS)  # not "married to my work"
        text = doc_text(doc)
        placed += implied(placed, text)  # "Is vegetarian" denies "eats meat"
        found = [_with_surface(text, t) for t in self._unique(_with_exceptions(doc, placed))]
        ended = {(t.subject, t.relation, t.object) for t in found if t.rule == ENDED_RULE}
        if ended:
            # "Melanie's dog Luna passed away" presupposes the dog it says she no longer has
            found = [t for t in found if t.negated or t.rule != "presupposition"
                     or (t.subject, t.relation, t.object) not in ended]
        # "the snack budget was adjusted to $75": only where no attribute reading of the rules
        # covers the clause (theirs know its restrictions: "in summer the budget is $500")
        read = [(t.start, t.end) for t in found if t.rule in _ATTRIBUTE_READINGS]
        return found + [t for t in attribute_values(doc)
                        if not any(s < t.end and t.start < e for s, e in read)]

    def _rule_triples(self, doc: Doc) -> list[Triple]:
        found: list[Triple] = []
        if not len(doc):
            return found
        for sent in doc.sents:
            if _is_question(sent):
                continue
            for token in sent:
                dep = token.dep_
                if dep in _CLAUSE_DEPS or token.head is token:
                    try:
                        found.extend(self._clause(token))
                    except Exception as err:  # noqa: BLE001 - see RULE_FAILURE
                        # a parse shape no rule foresaw costs this clause, never the memory,
                        # nor the other memories of a scan
                        _log.warning(RULE_FAILURE, type(err).__name__, err)
                elif dep == "poss":
                    if (token.head.lemma_.lower() in RELATIONSHIP_NOUNS
                            or token.head.lemma_.lower() in BREED_NOUNS or _own_setting(token)
                            or _named_pet(token.head)):
                        found.extend(self._presupposed(token))
        return found

    @staticmethod
    def _unique(found: list[Triple]) -> list[Triple]:
        """One triple per fact, in first-seen order; a repeat's qualifiers are kept when the
        first had none."""
        kept: dict[tuple, Triple] = {}
        for triple in found:
            if not (triple.subject and triple.relation):
                continue
            if not triple.object and triple.rule not in ("state", ENDED_RULE):
                continue  # the object was a pronoun we cannot resolve
            first = kept.get(triple.fact)
            if first is None:
                kept[triple.fact] = triple
            elif prefer_present(first, triple):
                # "moved to Lisbon in 2018 and still live there": what holds now stands
                kept[triple.fact] = triple
            elif not first.qualifiers and triple.qualifiers:
                kept[triple.fact] = Triple(**{**triple.to_dict(), "qualifiers": triple.qualifiers,
                                              "rule": first.rule})
        return list(kept.values())

    # -- clauses ----------------------------------------------------------------------------
    def _clause(self, head: Token) -> list[Triple]:
        """Triples of one predicate head; coordinated subjects ("Alice and I live in Nice")
        each get the triples of the first."""
        found = self._clause_triples(head)
        subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if not found or subj is None:
            return found
        others = [c for c in self._objects(subj)[1:] if c.dep_ == "conj"]
        if not others and any(c.dep_ == "cc" for c in subj.children):
            # "Troy and I attended couples therapy": the parser may hang the second conjunct
            # on the verb as a subject of its own, after the first's "and"
            others = [c for c in head.children if c.dep_ == "nsubj" and c.i > subj.i]
        first = self._entity(subj) if others else None
        reciprocal = self._reciprocal(found, first, [self._entity(o) for o in others]) \
            if first and others else []
        for other in others:
            who = self._entity(other)
            if who and first and who != first:
                # (a triple that names the other as its object relates the two: "Sam and I
                # live with Sam" is no reading; an ending names the first for the other,
                # _for_other)
                found += [_for_other(t, first, who) for t in found if t.subject == first
                          and (t.object != who or t.rule == ENDED_RULE)]
        return found + reciprocal

    def _reciprocal(self, found: list[Triple], first: str, others: list[str | None]
                    ) -> list[Triple]:
        """"The user and Helen divorced": each coordinated subject did it to the other, so
        the partner states between them end (the transitive rows of the state-change table)."""
        out: list[Triple] = []
        for t in found:
            if t.object or t.negated or t.subject != first or t.relation not in _RECIPROCAL or (
                    (t.qualifier("time") or "").startswith(CONDITIONED)):
                continue  # (nor "separated for the summer", a spell)
            for other in (o for o in others if o and o != first):
                for a, b in ((first, other), (other, first)):
                    pair = Triple(**{**t.to_dict(), "subject": a, "object": b, "rule": "svo",
                                     "qualifiers": t.qualifiers})
                    out.append(pair)
                    out.extend(self.state_changes.derive(pair))
        return out

    def _clause_triples(self, head: Token) -> list[Triple]:
        if not self._asserted(head):
            return []  # someone else's words or opinion, or a denied saying
        found = self._with_alternatives(head, self._clause_triples_as_stated(head))
        flipped = bool(found) and (_truth_frame(head) is False or rejected_alternative(head))
        if flipped:
            # (a clause "rather than" rejects is not done: "walks rather than drive")
            found = [Triple(**{**t.to_dict(), "negated": not t.negated,
                               "qualifiers": t.qualifiers}) for t in found]
        found = restricted_denials(head, spent_in_past(head, conditioned(head, found)),
                                   implicit=not flipped)
        found = dated_state_past(head, found, _CHANGE_VERBS, self._intransitive_endings)
        support, kind = self._support_verb(head)
        if support:
            # "spoke the language French": French is the value, never "language"
            found = [t for t in found if t.object != kind] + support
        found = self._enclosure(head, self._repute(head, self._language_use(head, found)))
        found = self._noun_predicate(head, self._class_nouns(head, found))
        found = self._performed_genre(head, self._stranded_object(head, found))
        found = self._degree_pursuit(head, found)
        found = self._still_holds(head, found)
        found = self._answer_to_question(head, found)
        found = self._pet_deaths(head, found)
        return (found + self._decided_against(head, found) + self._nominal_endings(head)
                + self._abstinence(head) + self._year_of_studies(head) + self._none_left(head)
                + (self._ensemble_membership(head) if found else []))

    def _clause_triples_as_stated(self, head: Token, *, hedge_read: bool = False
                                  ) -> list[Triple]:
        if _for_now_only(head):
            return []  # "is working from the office this week": an exception, not the state
        if in_fiction(head):
            return []  # "In the game I don't like coffee": a made-up world's fact
        futurate = not hedge_read and futurate_move(head)
        if futurate or not hedge_read and _hypothetical(head):
            if not (futurate or _plain_future(head)):
                return []
            return [in_future(t) for t in self._clause_triples_as_stated(head, hedge_read=True)]
        if head.lemma_ == "be" and head.pos_ == "AUX" and head.dep_ not in ("aux", "auxpass"):
            return self._with_state_changes(head, self._copula(head))
        if head.pos_ == "ADJ" and head.lower_.endswith("ed") and any(
                c.dep_ == "auxpass" for c in head.children):
            # "Dark mode is disabled": the tagger's adjective heads a passive the parser built
            # (nsubjpass, auxpass), a state of the subject as "is enabled" is
            subj = next((c for c in head.children if c.dep_ == "nsubjpass"), None)
            subject = self._entity(subj) if subj is not None else None
            if not subject:
                return []
            return [self._state(subject, head, negated=_negated(head), clause=head)]
        if head.pos_ == "VERB":
            if any(c.dep_ == "auxpass" for c in head.children) and not _contracted_perfect(head):
                return self._with_state_changes(head, self._passive(head))
            if head.dep_ == "xcomp" and (_lemma(head.head) in (
                    _STOP_ASPECT | _START_ASPECT | _LIKE_VERBS | _DESIRE_VERBS)
                    or _habitual_past(head.head, head)):
                return []  # handled from the governing verb
            if head in _infinitive_complements(head.head):
                return []  # "my goal is to run …": a value of the copula's subject
            if unrealised_clause(head):
                return []  # "went to the shelter to adopt a dog": a purpose or a condition, no deed
            return (self._with_state_changes(head, self._active(head)) + self._means(head)
                    + self._as_attribute(head))
        return []

    def _means(self, verb: Token) -> list[Triple]:
        """The activities of a means clause in the habitual present: "Maria finds peace by
        practicing aerial yoga" -> (maria, practice, aerial yoga), each coordinated gerund
        too ("by reading and practicing yoga"). A negated or past main clause says nothing
        of what holds now."""
        if verb.tag_ not in ("VBZ", "VBP") or _negated(verb):
            return []
        gerunds = [g for p in verb.children if p.dep_ == "prep" and p.lower_ == "by"
                   for g in p.children if g.dep_ == "pcomp" and g.tag_ == "VBG"]
        gerunds += [c for g in gerunds for c in g.children if c.dep_ == "conj"
                    and c.tag_ == "VBG"]
        if not gerunds:
            return []
        subj = self._subject_token(verb)
        subject = self._entity(subj) if subj is not None else None
        if subject is None:
            return []
        return [t for g in gerunds for t in self._active(g, subject=subject) if t.object]

    def _make(self, subject: str, relation_phrase: str, value: str, surface: str, *,
              negated: bool, clause: Token, rule: str,
              qualifiers: Iterable[tuple[str, str]] = ()) -> Triple:
        relation, flips = self.table.canonical(relation_phrase)
        relation = self._induced.get(relation, relation)
        sent = clause.sent
        if not negated and rule != ENDED_RULE and any(
                c.dep_ == "advmod" and c.lower_ in ADDITIVE_ADVERBS for c in clause.children):
            qualifiers = (*qualifiers, (ADDITIVE, "also"))  # "also works at a bar"
        return Triple(subject=subject, relation=relation, object=value,
                      negated=negated != flips, start=sent.start_char, end=sent.end_char,
                      object_text=surface, qualifiers=tuple(sorted(set(qualifiers))), rule=rule)

    def _state(self, subject: str, word: Token, *, negated: bool, clause: Token,
               qualifiers: Iterable[tuple[str, str]] = ()) -> Triple:
        """``(subject, be, state)`` for an adjective or participle predicate, antonyms folded:
        "is forbidden" -> negated ``be allow``; "is closed" -> negated ``be open``."""
        lemma = _lemma(word) if word.pos_ == "VERB" else word.lemma_.lower()
        if word.pos_ == "ADJ" and lemma.endswith("ed"):
            # "disabled" tagged an adjective is the participle of "disable": one value
            # whichever tag the same word got ("is enabled" read as a verb gives "enable")
            lemma = next((base for base in (lemma[:-1], lemma[:-2]) if self._is_verb(base)),
                         lemma)
        flips = False
        if lemma in self.table.antonyms:
            lemma, flips = self.table.antonyms[lemma], True
        elif f"be {word.lower_}" in self.table.antonyms:
            lemma, flips = self.table.antonyms[f"be {word.lower_}"].removeprefix("be "), True
        triple = self._make(subject, "be", lemma, word.text, negated=negated != flips,
                            clause=clause, rule="state", qualifiers=qualifiers)
        return triple


def _with_surface(text: str, triple: Triple) -> Triple:
    """``triple`` with its object's surface text found in ``text`` when a derivation left it
    empty ("Yara's Kobo broke" ends having "Kobo", written so: a name's capital is kept)."""
    if triple.object_text or not triple.object:
        return triple
    at = text.lower().find(triple.object)
    if at < 0:
        return triple
    return Triple(**{**triple.to_dict(), "object_text": text[at:at + len(triple.object)],
                     "qualifiers": triple.qualifiers})


def extract(text: str) -> list[Triple]:
    """Triples of one text with the default pipeline and tables (see :class:`TripleExtractor`)."""
    return _default().extract(text)


_DEFAULT: list[TripleExtractor] = []


def _default() -> TripleExtractor:
    if not _DEFAULT:
        _DEFAULT.append(TripleExtractor())
    return _DEFAULT[0]
