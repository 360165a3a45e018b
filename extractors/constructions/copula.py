"""Copular clauses: attributes, states, identifiers.

"X's Y is Z", "the Y of X is Z", "the Y for X is Z", "the preferred glaze is Z" (rule
``attribute``; plural ``attribute_set``), "X is Z" (``copula``), "X is allowed" (``state``),
"max_retries is 5" (``key_value``), and the infinitive and gerund values of a copula;
preferences and how they change are read by :mod:`extractors.constructions.preferences`.
"""

from __future__ import annotations

import functools

from spacy.tokens import Token

from extractors.constructions.descriptions import (
    _describes_thing, _names_role_holder, _predicational, _premodified, _telegraphic, colour_of)
from extractors.constructions.preferences import (
    _CHANGED,
    _marks_change,
    _preference_restriction,
    CLASSIFIER_NOUNS,
    GENERIC_RULE,
    KIND_READING,
)
from extractors.constructions.role_nouns import (
    _former,
    _group_of,
    _residence_of,
    _workplace_of,
)
from extractors.constructions.studies import (  # student nouns: re-exported
    _school_of,
    CLASS_YEAR_NOUNS,
    SCHOOL_WORDS,
    STUDENT_NOUNS,
)
from extractors.relations import RELATIONSHIP_NOUNS
from extractors.syntax import (
    _age,
    _FIRST_PERSON,
    _fronted_gerund,
    _GROUP_NOUNS,
    _IDENTIFIER,
    _infinitive_complements,
    _is_time,
    _lemma,
    _LOCATIVE_PREPS,
    _misread_subject,
    _START_ASPECT,
    _STOP_ASPECT,
    _negated,
    _no_longer,
    _no_value,
    _NP_DROP,
    _phrase,
    _prep_objects,
    _span_tokens,
    _surface,
    USER,
    _word,
)
from extractors.types import Triple
from extractors.values import is_number_code, is_quantity


OWNED_THINGS = frozenset("""
    car bike bicycle motorcycle scooter van truck phone laptop computer tablet camera watch
    guitar piano keyboard console boat
    """.split())
"""Things one owns: "my (current) car is X" also says the owner has X (whose sale then ends
it); "my favourite / dream car" says nothing of owning one."""

def _contrasted(cop: Token, complements: list[Token]) -> int | None:
    """The index of a "not" that opens a later complement or apposition after the first ("my
    manager is Lena now, not Tom", "is Lena, not Tom": contrastive negation, Quirk et al.
    1985 §10.55, denies only what follows it), else None."""
    if not complements:
        return None
    first = min(complements, key=lambda c: c.i)
    later = [k.i for k in complements if k.i > first.i] + [
        c.i for c in first.children if c.dep_ in ("appos", "conj") and c.i > first.i]
    return next((c.i for c in (*cop.children, *first.children) if c.dep_ == "neg"
                 and c.i > first.i and any(i > c.i for i in later)), None)


_DURATION_PREPS = frozenset({"for", "since", "during", "until", "till"})


def _living(subj: Token) -> bool:
    """A person or an animal: a kinship, companion or pet noun (``RELATIONSHIP_NOUNS``,
    "my son", "my dog Biscuit"), or a one- or two-word capitalised name no other word
    modifies ("Ravi", "Ana Lima")."""
    words = [t for t in subj.subtree if t.dep_ not in ("det", "poss", "case")
             and t.head == subj or t == subj]
    if any(t.lemma_.lower() in RELATIONSHIP_NOUNS for t in subj.subtree):
        return True
    return subj.pos_ == "PROPN" and len(words) <= 2 and all(
        t.pos_ == "PROPN" and t.text[:1].isupper() and not t.text.isupper() for t in words)


class CopulaRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    def _copula(self, cop: Token, aspect: bool = False) -> list[Triple]:
        """Triples of a copular clause headed by ``cop``; a "being" clause of an aspect verb
        ("stopped being vegetarian") is read only for that verb (``aspect``), which gives
        its triples their polarity."""
        if cop.dep_ == "xcomp" and cop.tag_ == "VBG" and not aspect and \
                _lemma(cop.head) in _STOP_ASPECT | _START_ASPECT:
            return []
        subj = next((c for c in cop.children if c.dep_ in ("nsubj", "csubj")), None)
        if subj is None:
            subj = _misread_subject(cop)
        if subj is None:
            subj = _fronted_gerund(cop)
        if subj is None and cop.dep_ == "xcomp" and cop.lemma_ == "be" and cop.tag_ == "VBG":
            # "stopped being vegetarian": the aspect verb's subject
            subj = self._subject_token(cop.head)
        if subj is None and cop.dep_ == "conj":
            # "Carlos was retested and is not allergic": the first conjunct's subject
            subj = self._subject_token(cop.head)
        if subj is None and cop.dep_ == "ccomp":
            # "Freya says her favourite band these days is Big Thief": the parser made the
            # reported clause's subject the object of "says"
            subj = next((c for c in cop.head.children if c.dep_ == "dobj" and c.i < cop.i
                         and c.pos_ == "NOUN"), None)
        if subj is None:
            return []
        if _IDENTIFIER.match(subj.text):
            return self._identifier_setting(cop, subj)
        over = next((c for c in cop.children if c.dep_ in ("advmod", "prt", "acomp")
                     and c.lower_ in ("off", "over")), None)
        if over is not None and not any(c.dep_ in ("attr", "prep") for c in cop.children):
            # "John's planned trip is off": a state of the trip, which ends it
            who = self._entity(subj)
            return [self._state(who, over, negated=_negated(cop), clause=cop)] if who else []
        complements = [c for c in cop.children if c.dep_ in ("attr", "acomp", "oprd")]
        # "is no longer vegetarian": the parser may hang "no longer" on the complement
        neg = _negated(cop) or any(_no_longer(c) for c in complements)
        contrast = _contrasted(cop, complements)
        if len(complements) == 1 and complements[0].like_num and not any(
                complements[0].children) and _living(subj):
            # "My son is 7", "Ravi is 34", "My dog Biscuit is 14": a bare number of a
            # person or an animal is an age in years (Quirk et al. 1985 §7.83), never the
            # value of the relation the noun names ("my son is Leo")
            # (a pet or person named beside its noun is that one: "my dog Biscuit")
            name = subj if subj.pos_ == "PROPN" else next(
                (c for c in subj.children if c.dep_ in ("appos", "compound")
                 and c.pos_ == "PROPN"), subj)
            who = self._entity(name)
            return [self._make(who, "age", complements[0].text, complements[0].text,
                               negated=neg, clause=cop, rule="attribute")] if who else []
        negated_alternatives = [c for c in cop.children
                                if c.dep_ in ("xcomp", "conj", "appos") and _negated(c)
                                and c.pos_ != "AUX"]
        preps = [c for c in cop.children if c.dep_ == "prep" and c.i > subj.i]
        topic = self._topic(cop, subj)
        places = [("place", topic)] if topic else []
        split = self._split_attribute(subj, topic) if subj.dep_ in ("nsubj", "dobj") and not any(
            c.dep_ == "det" and c.lower_ in ("a", "an", "another", "one") for c in subj.children
        ) else None  # ("a favourite of mine is Wilco": one of several)
        if split is not None and _predicational(subj, complements, bool(preps)):
            split = None  # "my father is a farmer": about the father, (user's father, be, …)
        if split is not None and _describes_thing(split[1], complements):
            colour = colour_of(complements)
            if colour is None:
                return []  # "my car is fast": one of the car's many properties, no setting
            # "my bike is red": the one colour of the bike, (user, bike color, red)
            return [self._make(split[0], _phrase(split[1]) + " color", colour.lower_,
                               colour.text, negated=_negated(cop), clause=cop, rule="attribute")]
        if split is None and subj.dep_ == "nsubj" and _names_role_holder(subj, complements):
            # "The on-call engineer this week is Farida": a definite description of a role
            # names its one holder (as "the release manager for v2 is Wei" does), for its
            # period ("this week" / "next week" name two holders)
            split = (topic or USER, _premodified(subj))
            places = places + [("time", " ".join(t.lower_ for t in when.subtree))
                               for when in [*cop.children, *subj.children]
                               if when.dep_ in ("npadvmod", "advmod") and _is_time(when)]
        if split is None and subj.dep_ == "nsubj" and complements and all(
                is_quantity(v) or is_number_code(v) for c in complements
                for v in (self._value(o)[1] for o in self._objects(c))):
            split = self._measured_attribute(subj, topic)
            preps = [] if split is not None else preps  # "… is 1200 C at peak": no value
        out: list[Triple] = []
        if split is not None:
            subject, rel_tokens = split
            # "Budget is $500 in January": January's budget (beside a fronted topic: "For
            # uploads the timeout is 30 seconds in production")
            restricting = self._restrictions(cop, complements)
            # (a topic that became the subject is no situation of it: "On rack 4 the glaze
            # is celadon for everyday bowls" is rack 4's glaze, for everyday bowls; one that
            # did not is a situation with its preposition: "At work the grocery budget is
            # $450" -> "at work")
            places = [q for q in places if q != ("place", subject)]
            fronted = next((c for c in cop.children if c.dep_ == "prep" and c.i < subj.i),
                           None)
            if topic and places == [("place", topic)] and fronted is not None:
                places = [("place", f"{fronted.lower_} {topic}")]
            if restricting:
                places = places + [("place", " ".join(text for _, text in restricting))]
                preps = [p for p in preps if p not in {prep for prep, _ in restricting}]
            restriction = _preference_restriction(subj, rel_tokens, self.table)
            # (a restricted preference has no generic reading: "favourite sport to watch")
            generic = None if restriction else self._generic_preference(_phrase(rel_tokens),
                                                                         rel_tokens)
            rel_tokens = rel_tokens + restriction
            if len(rel_tokens) > 2 and rel_tokens[0].lower_ == "new" and \
                    rel_tokens[0].dep_ == "amod" and rel_tokens[0].head == subj:
                # "the user's new team lead is Fatima": "new" marks the change (the
                # qualifier below), not another role than "the user's team lead"
                rel_tokens = rel_tokens[1:]
            relation_phrase = _phrase(rel_tokens)
            # (the head noun says it: "my budget for groceries" is one budget)
            plural = (subj if subj in rel_tokens else rel_tokens[-1]).tag_ == "NNS"
            rule = "attribute_set" if plural else "attribute"
            values = [o for c in complements for o in self._objects(c)]
            for prep in preps:
                if prep.lower_ not in _LOCATIVE_PREPS and not (prep.lower_ == "on" and any(
                        c.dep_ == "pobj" and _is_time(c) for c in prep.children)):
                    # "Jon's dance studio is on tenuous grounds": a state, no value ("the
                    # birthday is on March 12" gives its date, as "is March 12" does)
                    continue
                values += [o for c in prep.children if c.dep_ == "pobj" for o in self._objects(c)]
            quals = places + ([_CHANGED] if _marks_change(cop, subj) else [])
            for value_token in values:
                alt_neg = _negated(value_token) and value_token not in complements
                if contrast is not None:  # "is Lena now, not Tom": Tom alone is denied
                    neg = alt_neg = value_token.i > contrast
                value, surface = self._value(value_token)
                out.append(self._make(subject, relation_phrase, value, surface,
                                      negated=neg or alt_neg, clause=cop, rule=rule,
                                      qualifiers=quals))
                kinds = generic and rel_tokens[-1].lemma_.lower() in CLASSIFIER_NOUNS
                if rel_tokens[-1].lemma_.lower() in OWNED_THINGS and not plural and all(
                        t.lower_ in ("current", "new", "old", "main") for t in rel_tokens[:-1]
                ) and any(c.dep_ == "poss" for c in subj.children):
                    # "My car is a blue Subaru Outback": the owner has it ("sold the Subaru")
                    out.append(self._make(subject, "have", value, surface, negated=neg or alt_neg,
                                          clause=cop, rule="svo", qualifiers=places))
                if generic and (kinds or not plural):
                    out.append(self._make(subject, generic, value, surface,
                                          negated=neg or alt_neg, clause=cop,
                                          rule=GENERIC_RULE, qualifiers=places + (
                                              [("reading", KIND_READING)] if kinds else [])))
            for value, surface in self._infinitive_values(cop, subject):
                # "my current goal is to run a marathon" -> (user, current goal, run marathon);
                # a bare noun with an activity ("My goal is to learn Markov chains") is one of
                # several goals held at once, not the attribute's one value: no attribute
                out.append(self._make(subject, relation_phrase, value, surface, negated=neg,
                                      clause=cop, qualifiers=places,
                                      rule=rule if len(rel_tokens) > 1 else "copula"))
            for alt in negated_alternatives:
                value, surface = self._value(alt)
                out.append(self._make(subject, relation_phrase, value, surface, negated=True,
                                      clause=cop, rule=rule, qualifiers=places))
            return out
        reversed_ = self._reversed_preference(cop, subj, complements, neg)
        if reversed_:
            return reversed_
        subject = self._entity(subj)
        if subject is None:
            return []
        one_of = self._one_of_topic(subj, topic)
        for comp in complements:
            for value_token in self._objects(comp):
                negated = neg or (_negated(value_token) and value_token != comp)
                if contrast is not None:
                    negated = value_token.i > contrast
                age = _age(value_token)
                if age is not None:
                    out.append(self._make(subject, "age", age, age, negated=negated,
                                          clause=cop, rule="attribute", qualifiers=places))
                if age is not None and value_token.lower_ == "old":
                    pass  # "34 years old" says the age only; "a 46 year old dad" says more
                elif one_of is not None:
                    # "In Macau, an official language is Portuguese": one of the fronted
                    # topic's values of the attribute (the indefinite: one of several, so
                    # no attribute reading; the table gives its cardinality), never a
                    # statement about "an official language" ("French" tagged an adjective)
                    value, surface = self._value(value_token)
                    out.append(self._make(topic, one_of, value, surface, negated=negated,
                                          clause=cop, rule="copula"))
                elif value_token.pos_ in ("ADJ", "VERB", "ADV") and comp.dep_ == "acomp":
                    restricted = any(
                        c.dep_ == "prep" and c.lower_ not in _DURATION_PREPS and any(
                            p.dep_ in ("pobj", "pcomp") and not _is_time(p) for p in c.children)
                        for c in value_token.children)
                    if not (restricted and negated):
                        # (a restricted state implies the bare one, "allergic to penicillin"
                        # is allergic, but its denial denies only itself: "stopped being shy
                        # about singing in public" says nothing of "is shy")
                        out.append(self._state(subject, value_token, negated=negated,
                                               clause=cop, qualifiers=places))
                    # "I am terrified of clowns", "I am allergic to peanuts"
                    for prep in (c for c in value_token.children if c.dep_ == "prep"):
                        values = [self._value(obj) for pobj in prep.children
                                  if pobj.dep_ == "pobj" and not _is_time(pobj)
                                  for obj in self._objects(pobj)]
                        for value, surface in values + self._gerund_values(prep, subject):
                            out.append(self._make(
                                subject, f"be {_word(value_token)} {prep.lower_}", value,
                                surface, negated=negated, clause=cop, rule="prep_object",
                                qualifiers=places))
                elif (owner := next((c for c in value_token.children if c.dep_ == "poss"),
                                    None)) is not None and self._entity(owner):
                    # "Knitting is my passion" -> (user, passion, knitting)
                    rel_tokens = [t for t in _span_tokens(value_token, drop=_NP_DROP)]
                    value, surface = self._value(subj)
                    out.append(self._make(self._entity(owner), _phrase(rel_tokens), value,
                                          surface, negated=negated, clause=cop,
                                          rule="attribute", qualifiers=places))
                else:
                    value, surface = self._value(value_token)
                    out.append(self._make(subject, "be", value, surface, negated=negated,
                                          clause=cop, rule="copula", qualifiers=places))
                    # what the role says of its holder: "is a member of the hiking club",
                    # "a PhD student at the University of Bergen", "a Manchester resident",
                    # "the head chef at Trattoria Luce"; "was an intern at Meta", "a former
                    # Leeds resident" are over
                    over = places + ([("time", "past")] if _former(cop, value_token) else [])
                    for find, relation, quals in ((_group_of, "member of", places),
                                                  (_school_of, "study at", places),
                                                  (_residence_of, "live in", over),
                                                  (functools.partial(_workplace_of, cop=cop),
                                                   "work at", over)):
                        found = find(value_token)
                        if found is not None:
                            value, surface = self._value(found)
                            out.append(self._make(subject, relation, value, surface,
                                                  negated=negated, clause=cop, rule="copula",
                                                  qualifiers=quals))
        for value, surface in self._infinitive_values(cop, subject):
            out.append(self._make(subject, "be", value, surface, negated=neg, clause=cop,
                                  rule="copula", qualifiers=places))
        for prep in preps:
            for words, pobj in _prep_objects(prep):
                if _no_value(pobj):
                    continue  # "has been into art for seven years": a duration, no value
                for value_token in self._objects(pobj):
                    value, surface = self._value(value_token)
                    out.append(self._make(subject, "be " + words, value, surface,
                                          negated=neg, clause=cop, rule="prep_object",
                                          qualifiers=places))
                    if words == "in" and value_token.lemma_.lower() == "relationship":
                        # "is in a long-distance relationship with Ethan": a partner
                        for partner in (p for w in value_token.children if w.dep_ == "prep"
                                        and w.lower_ == "with" for p in w.children
                                        if p.dep_ == "pobj"):
                            who = self._entity(partner)
                            if who:
                                out.append(self._make(
                                    subject, "be in relationship with", who, partner.text,
                                    negated=neg, clause=cop, rule="prep_object",
                                    qualifiers=places))
                    if words == "in" and value_token.lemma_.lower() in _GROUP_NOUNS:
                        # "is (not) in the hiking club": a membership
                        out.append(self._make(subject, "member of", value, surface,
                                              negated=neg, clause=cop, rule="prep_object",
                                              qualifiers=places))
        # "Ximena is the on-call engineer this week": the role's holder
        out += self._reversed_role(cop, subj, complements, neg, topic)
        return out + self._visits(cop, out)  # "haven't been to the gym since March"

    def _reversed_preference(self, cop: Token, subj: Token, complements: list[Token],
                             neg: bool) -> list[Triple]:
        """"Alien is no longer the favourite movie", "green isn't her favorite colour": the
        value is the subject and the preference the complement (the specificational copula
        read backwards, Higgins 1979) -> (user, preferred movie, alien), negated."""
        out = []
        for comp in (c for c in complements if c.dep_ == "attr" and c.pos_ == "NOUN"):
            split = self._split_attribute(comp)
            if split is None:
                continue
            owner, rel_tokens = split
            phrase = _phrase(rel_tokens)
            if not self.table.canonical(phrase)[0].startswith("preferred "):
                continue
            value, surface = self._value(subj)
            if value and owner:
                out.append(self._make(owner, phrase, value, surface, negated=neg, clause=cop,
                                      rule="attribute"))
        return out

    def _one_of_topic(self, subj: Token, topic: str | None) -> str | None:
        """The attribute a fronted topic has one value of: "In Macau, an official language is
        Portuguese" -> "official language" (topic ``macau``); None without a topic, or when
        the subject is no common noun with "a"/"an" (the definite one is the attribute
        reading of :meth:`_split_attribute`)."""
        if not topic or subj.dep_ != "nsubj" or subj.pos_ != "NOUN" or not any(
                c.dep_ == "det" and c.lower_ in ("a", "an") for c in subj.children):
            return None
        split = self._split_attribute(subj, topic)
        return _phrase(split[1]) if split is not None and split[0] == topic else None

    def _split_attribute(self, noun: Token, topic: str | None = None
                         ) -> tuple[str, list[Token]] | None:
        """Split an attribute noun phrase into (subject, relation tokens), or None.

        "Project Falcon's budget" -> ("project falcon", [budget]); "the domain of activity of
        X" -> ("x", [domain, of, activity]); "the genre played by X" -> ("x", [genre]);
        "the project budget" -> ("project", [budget]); "the preferred glaze" / "my name" ->
        ("user", …), or the fronted ``topic`` when there is one.
        """
        if noun.pos_ not in ("NOUN", "PROPN") and not noun.lower_ == "name":
            return None
        mods = [c for c in noun.children if c.dep_ in ("amod", "compound", "nmod")
                and c.i < noun.i]
        # "Project Heron's team lead": a genitive the parser hung on the compound modifier
        # determines the whole noun phrase (the genitive as determiner, Quirk et al. 1985
        # §5.115), so it owns the head noun, not the modifier
        owners = [d for m in mods if m.dep_ == "compound" and m.pos_ == "NOUN"
                  for d in m.children if d.dep_ == "poss" and d.i < m.i and all(
                      t.i >= m.i or t in d.subtree for t in m.subtree)]
        inner = {t for o in owners for t in o.subtree}
        rel_tokens = sorted([noun] + [t for m in mods for t in m.subtree if t not in inner],
                            key=lambda t: t.i)
        for child in [*noun.children, *owners]:
            if child.dep_ == "poss":
                # "our default region": the scope's own setting, as "my" is; what it is for
                # restricts it ("my budget for groceries" is no "my budget")
                who = USER if child.lower_ == "our" else self._entity(child)
                purpose = [t for c in noun.children if c.dep_ == "prep" and c.lower_ == "for"
                           and any(p.dep_ == "pobj" and not _is_time(p) for p in c.children)
                           for t in c.subtree]
                return (who, rel_tokens + purpose) if who else None
        # a definite role or setting "for" an owner: "the release manager for version 2",
        # "the budget for Q3" (a definite description names one holder, as "of" does)
        # (a memory writer's telegraphic "Python version for the ML project" drops the article)
        definite = any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children) or not any(
            c.dep_ == "det" for c in noun.children)
        owner_for = next((p for c in noun.children if c.dep_ == "prep"
                          and c.lower_ in ("for", "on") for p in c.children if p.dep_ == "pobj"),
                         None)
        if definite and owner_for is not None and not _no_value(owner_for) and not any(
                c.dep_ == "prep" and c.lower_ == "of" for c in noun.children):
            who = self._entity(owner_for)
            if who:
                return (who, rel_tokens)
        # "the Y of X", following chains: "the domain of activity of X" -> X
        head, chain = noun, list(rel_tokens)
        while True:
            prep = next((c for c in head.children if c.dep_ == "prep" and c.lower_ == "of"),
                        None)
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None) \
                if prep is not None else None
            if pobj is None:
                break
            if pobj.pos_ == "PROPN" or not any(c.dep_ == "prep" and c.lower_ == "of"
                                               for c in pobj.children):
                if head == noun or pobj.pos_ == "PROPN":
                    who = self._entity(pobj)
                    return (who, chain) if who else None
            chain = chain + [prep] + [t for t in pobj.subtree
                                      if t.i < pobj.i and t.dep_ != "det"] + [pobj]
            head = pobj
        if head != noun:
            return None
        for acl in (c for c in noun.children if c.dep_ == "acl"):
            agent = next((c for c in acl.children if c.dep_ == "agent"), None)
            pobj = next((c for c in agent.children if c.dep_ == "pobj"), None) \
                if agent is not None else None
            if pobj is not None:
                who = _phrase(t for t in pobj.subtree)
                who = USER if who in _FIRST_PERSON else who
                return (who, rel_tokens) if who else None
        if noun.pos_ == "PROPN":
            return None
        # a bare participle after the noun restricts it: "the language spoken (in X)" is the
        # language spoken, not the language (one is official, several are spoken)
        bare = [c for c in noun.children if c.dep_ == "acl" and c.tag_ == "VBN"
                and c.i == noun.i + 1 and not any(True for _ in c.children)]
        if bare:
            rel_tokens = rel_tokens + bare
        bound = any(c.dep_ in ("acl", "relcl", "prep", "appos") for c in noun.children)
        implicit = topic if topic else (None if bound else USER)
        relation, _ = self.table.canonical(_phrase(rel_tokens))
        if self._known(relation) and implicit:
            return (implicit, rel_tokens)
        compounds = [c for c in mods if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")]
        head_rel = [t for t in rel_tokens if not any(t in c.subtree for c in compounds)]
        head_relation, _ = self.table.canonical(_phrase(head_rel))
        if compounds and implicit == USER and _telegraphic(noun) and all(
                t.pos_ == "NOUN" for c in compounds for t in c.subtree):
            # a memory writer's article-less "Notification email is …" drops "the user's",
            # as the line "Notification email: …" does: the compound names the attribute
            # ("the project budget" names the project's)
            return (USER, rel_tokens)
        if compounds and self._known(head_relation):
            subject = _phrase(t for c in compounds for t in c.subtree)
            return (subject, head_rel)
        if any(c.dep_ == "amod" for c in mods) and not compounds and implicit:
            return (implicit, rel_tokens)
        return None

    def _measured_attribute(self, noun: Token, topic: str | None
                            ) -> tuple[str, list[Token]] | None:
        """Split the subject of a copula whose value is a quantity, an amount, a date or a
        number, where :meth:`_split_attribute` knows no relation: such a value measures an
        attribute of the noun phrase, it is no state of it (a thing "is" 1200 °C only as its
        temperature is). Returns (subject, relation tokens), or None for a name or a pronoun.

        As the attribute rules split: a noun compound names the owner ("the kiln temperature"
        -> ("kiln", [temperature]), as "the temperature of the kiln" and "the kiln's
        temperature" give); otherwise the fronted ``topic`` or the user owns the whole phrase
        ("the distance to the studio" -> ("user", [distance, to, studio])), as the owner-less
        "the preferred glaze" does.
        """
        if noun.pos_ != "NOUN" or any(c.dep_ in ("poss", "relcl", "acl", "appos")
                                      for c in noun.children):
            return None
        mods = [c for c in noun.children if c.dep_ in ("amod", "compound", "nmod")
                and c.i < noun.i]
        compounds = [c for c in mods if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")]
        if compounds:
            owned = {t.i for c in compounds for t in c.subtree}
            rel_tokens = [t for t in noun.subtree if t.i not in owned and t.dep_ != "det"
                          and t.i <= noun.i]
            return _phrase(t for c in compounds for t in c.subtree), rel_tokens
        rel_tokens = [t for t in noun.subtree if t.dep_ not in ("det", "predet", "punct")]
        return (topic or USER), rel_tokens

    def _gerund_values(self, prep: Token, subject: str) -> list[tuple[str, str]]:
        """Values of a preposition's gerund clause, as (canonical, surface): "about taking
        over the world" -> ("take over world", "taking over the world")."""
        out = []
        for clause in (c for c in prep.children if c.dep_ == "pcomp" and c.pos_ == "VERB"):
            inner = self._active(clause, subject=subject)
            surface = _surface(list(clause.subtree))
            out += [(f"{t.relation} {t.object}".strip(), surface) for t in inner]
            if not inner:
                out.append((_lemma(clause), surface))
        return out

    def _infinitive_values(self, cop: Token, subject: str) -> list[tuple[str, str]]:
        """Values of a copula's infinitive complement, as (canonical, surface): "… is to
        run a marathon" -> ("run marathon", "run a marathon")."""
        out = []
        for clause in _infinitive_complements(cop):
            inner = self._active(clause, subject=subject)
            for t in inner:
                value = f"{t.relation} {t.object}".strip()
                out.append((value, _surface(list(clause.subtree)[1:])))
            if not inner:
                out.append((_lemma(clause), clause.text))
        return out
