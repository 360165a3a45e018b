"""Objects: canonical values of object heads.

An object head becomes a value: container and partitive nouns give way to what they hold
("the city of Madrid", "a glass of wine"), a relational noun keeps its "of" complement ("a fan
of thriller movies"), a rate its "per" unit, a quoted title its words; coordinated objects,
examples ("such as") and a thing's name ("a dog named Luna") are objects too.
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.approximators import APPROXIMATORS
from extractors.binomials import one_dish
from extractors.doc_cache import per_token
from extractors.syntax import (
    name_qualifier,
    _CONTAINER_NOUNS,
    _is_time,
    _NP_DROP,
    _of_object,
    _PARTITIVE_NOUNS,
    _phrase,
    _PLACE_NOUNS,
    _quoted_span,
    _RELATIONAL_NOUNS,
    _span_tokens,
    _surface,
    _UNRESOLVED_PRONOUNS,
)
from extractors.types import Triple
from extractors.values import count_in_digits, is_quantity, normalize_value

_FRACTIONS = frozenset({"half", "quarter", "third", "double", "twice", "triple"})
"""Predeterminers of a fraction or a multiple ("half a pack", "double the dose": Quirk et al.
1985 §5.17): part of the quantity a value states."""


def _ampersand_name(conj: Token) -> bool:
    """A capitalised conjunct joined by "&" to a capitalised name: one name ("Olive & Thyme",
    "Hargreaves & Co")."""
    return (conj.i > 1 and conj.doc[conj.i - 1].text == "&" and conj.text[:1].isupper()
            and conj.head.text[:1].isupper())


_QUANTIFIERS = frozenset({"both", "all", "each", "some", "most", "many", "several", "either",
                          "neither", "none", "few"})
"""Quantifiers whose "of" phrase is what they quantify ("both of his rabbits")."""


PLACE_ADVERB_NOUNS = frozenset({"downtown", "uptown", "nearby", "locally", "online",
                                "abroad", "overseas", "upstate", "midtown"})
"""Place words the parser reads as a noun after "one" ("joined one downtown")."""


_FREQUENCY_WORDS = frozenset({"most", "every", "each", "some", "many", "few", "all", "several"})


def _frequency(noun: Token) -> bool:
    """Whether a noun phrase is quantified like a frequency ("most weekends", "every
    morning"): :func:`_is_time` tells whether its noun is a time."""
    return any(c.dep_ in ("amod", "det") and c.lower_ in _FREQUENCY_WORDS for c in noun.children)


def one_antecedent(one: Token) -> tuple[str, str] | None:
    """The value of a modified "one" ("join a new one", "found one closer to home"): its own
    modifiers before the noun it stands for, the nearest noun before it in the sentence with
    that noun's compounds (the identity-of-sense anaphora of "one": Halliday & Hasan 1976,
    *Cohesion in English*, ch. 3 on nominal substitution). None without a modifier ("one of
    them") or a noun before it."""
    if one.lower_ != "one":
        return None
    if one.dep_ == "nummod" and one.head.lower_ in PLACE_ADVERB_NOUNS:
        # "joined one downtown": the parser made "one" a number of the place word
        mods = [one.head]
    elif one.dep_ not in ("dobj", "pobj", "attr", "nsubj"):
        return None
    else:
        mods = [c for c in one.children if c.dep_ == "amod"]
    if not mods and not any(c.dep_ == "prep" and c.lower_ != "of" for c in one.children):
        return None
    noun = next((t for t in reversed(one.sent[:one.i - one.sent.start])
                 if t.pos_ == "NOUN" and t.dep_ in ("dobj", "pobj", "nsubj", "attr")), None)
    if noun is None:
        return None
    words = mods + [c for c in noun.children if c.dep_ == "compound"] + [noun]
    return (" ".join(t.lemma_.lower() for t in words),
            " ".join(t.text for t in words))


JOURNEY_NOUNS = frozenset("""
    trip visit journey holiday vacation flight tour outing excursion cruise voyage getaway
    expedition pilgrimage move relocation drive ride weekend break retreat
    """.split())
"""Nouns of a journey or visit, whose goal tells one from another (FrameNet Travel, Visiting:
the trip to Lisbon, the visit to the dentist)."""


class ObjectRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    # -- values -----------------------------------------------------------------------------
    @per_token
    def _value(self, token: Token) -> tuple[str, str]:
        """(canonical value, surface text) of an object head; ``("", "")`` for a pronoun.

        Container nouns give way to what they contain: "the city of Madrid" -> "madrid",
        "the French language" -> "french".
        """
        quoted = _quoted_span(token)
        if quoted is not None:  # a title in quotes is one value: 'The Name of the Wind'
            return normalize_value(quoted.text), quoted.text
        substituted = one_antecedent(token) or next(
            (one_antecedent(c) for c in token.children if c.dep_ == "nummod"
             and c.lower_ == "one" and token.lower_ in PLACE_ADVERB_NOUNS), None)
        if substituted is not None:
            return substituted
        if token.lower_ in _QUANTIFIERS:
            # "rehomed both of his rabbits", "sold all of her bikes": what is quantified
            whole = next((g for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
                          for g in c.children if g.dep_ == "pobj"), None)
            if whole is not None:
                return self._value(whole)
        named = any(c.dep_ == "det" for c in token.children)  # "the Who" is a band
        # (an address is never a pronoun, however the tagger reads it)
        named = named or token.like_email or token.like_url
        if (token.pos_ == "PRON" or token.lower_ in _UNRESOLVED_PRONOUNS) and not named:
            return "", ""
        thing = next((c for c in token.children if c.dep_ in ("nmod", "compound")
                      and c.i < token.i and c.pos_ == "NOUN"), None)
        if thing is not None and _frequency(token) and _is_time(token):
            # "drink tea most mornings": the parser made the frequency the object
            return self._value(thing)
        head = next((c for c in token.children if c.dep_ == "compound" and c.i == token.i - 1
                     and c.pos_ in ("NOUN", "PROPN", "X")), None)
        if token.lower_ in PLACE_ADVERB_NOUNS and head is not None:
            # "a small cafe downtown": the parser made the place word the head; the place
            # says where the thing is, not which thing it is
            tokens = [t for t in token.subtree if t != token and t.dep_ not in ("det", "poss")]
            return _phrase(tokens), _surface(tokens)
        lemma = token.lemma_.lower()
        # a measure or sort gives way to what it measures, but not after a copula ("Bavaria
        # is part of Germany" is the lexicon's "part of"); a container to what it contains
        if (lemma in _PARTITIVE_NOUNS and token.dep_ != "attr") or lemma in _CONTAINER_NOUNS:
            inner = _of_object(token)
            if inner is not None:
                return self._value(inner)
        if token.pos_ in ("NOUN", "PROPN"):
            # "the instrument guitar", "the language Polish": the classifier is no part of
            # the value (a classifier head gives way to its named member below)
            named = [c for c in token.children if c.dep_ in ("appos", "compound")
                     and c.pos_ == "PROPN" and c.i > token.i]
            if lemma in _CONTAINER_NOUNS and named:
                return self._value(named[0])
        if lemma == "language":  # "the French language" -> "french"
            mods = [c for c in token.children if c.dep_ in ("amod", "compound")]
            if mods:
                words = " ".join(normalize_value(_phrase(m.subtree)) for m in mods)
                return words, _surface(sorted((t for m in mods for t in m.subtree),
                                              key=lambda t: t.i))
        goal = self._goal_value(token)
        if goal is not None:
            return goal
        # a name keeps a name's "of" phrase: "Giselle of Bavaria", "Bank of England"
        named_of = token.pos_ == "PROPN" and token.text[:1].isupper() and any(
            c.dep_ == "prep" and c.lower_ == "of" and any(
                p.dep_ == "pobj" and p.pos_ == "PROPN" and p.text[:1].isupper()
                for p in c.children)
            for c in token.children)
        # a name whose first part is a possessive name is one name: "St. Mary's Hospital",
        # "Trader Joe's" (the owner of a common noun is not: "Maria's car" -> "car")
        named_owner = token.pos_ == "PROPN" and token.text[:1].isupper() and any(
            c.dep_ == "poss" and c.pos_ == "PROPN" and c.text[:1].isupper() and c.i < token.i
            for c in token.children)
        tokens = _span_tokens(token, drop=_NP_DROP - {"npadvmod", "advmod"} - (
            {"poss"} if named_owner else set()), keep_of=lemma in _RELATIONAL_NOUNS or named_of)
        tokens += [t for c in token.children if c.dep_ == "conj" and (
                       _ampersand_name(c) or one_dish(c))
                   for t in (c.doc[c.i - 1], *c.subtree)]
        # a rate keeps its unit: "100 requests per minute" is no "100 requests per hour"
        tokens += [t for c in token.children if c.dep_ == "prep" and c.lower_ == "per"
                   for t in c.subtree]
        tokens.sort(key=lambda t: t.i)
        # a frequency is no part of the value: "twenty books a year" -> "twenty book"; a
        # classifier compound gives way to the member it names ("the instrument guitar"),
        # but a place noun before a common noun says whose it is ("the city library")
        every = {t.i for c in token.children if (c.dep_ == "npadvmod" or _frequency(c))
                 and _is_time(c) for t in c.subtree}
        # an approximator is no part of the quantity ("about half a pack" -> "half pack";
        # Quirk et al. 1985 §7.56); a fraction before the article is ("half a pack", §5.17)
        tokens = [t for t in tokens if not (t.dep_ in ("advmod", "quantmod")
                                            and t.lower_ in APPROXIMATORS)]
        tokens += [c for c in token.children if c.dep_ == "predet" and c.lower_ in _FRACTIONS]
        tokens.sort(key=lambda t: t.i)
        tokens = [t for t in tokens if t.dep_ not in ("det", "neg") and t.i not in every
                  and not (t.head == token and t.i > token.i and t.lower_ in PLACE_ADVERB_NOUNS)
                  and not (t.dep_ == "compound" and t.i < token.i and t.i == tokens[0].i
                           and t.lemma_.lower() in _CONTAINER_NOUNS and t.head == token
                           and (token.pos_ == "PROPN" or t.lemma_.lower() not in _PLACE_NOUNS)
                           and any(d.dep_ == "det" for d in token.children))]
        # "a charity run": the tagger reads a noun after a noun as a bare participle; a bare
        # participle right after the head that the lemmatizer knows as a noun is the head
        tokens += [c for c in token.children if c.dep_ == "acl" and c.i == token.i + 1
                   and c.tag_ in ("VBN", "VBD", "VB") and self._is_noun(c.lower_)
                   and not any(g.dep_ in ("dobj", "agent", "prep", "auxpass")
                               for g in c.children)]
        tokens.sort(key=lambda t: t.i)
        if not tokens:
            tokens = [token]
        owner = self._role_owner_for(token)
        if owner is not None:
            # "the release manager for v2" is the release manager of v2: a definite role
            # noun's "for" phrase names its owner as "of" does (Barker 1995 on relational
            # nouns), and is spelt so, as a handover names it ("handed release management
            # for v2 to …", :mod:`extractors.constructions.handovers`)
            surface = _surface(tokens + [t for t in owner.head.subtree])
            return f"{normalize_value(_phrase(tokens))} of {self._entity(owner)}", surface
        surface = _surface(tokens)
        if token.pos_ == "PROPN" and token.dep_ in ("pobj", "dobj") and any(
                c.dep_ == "case" and c.lower_ in ("'s", "\u2019s") for c in token.children):
            surface += "'s"  # a local genitive, "at St. Mary's" (its head left out)
        if is_quantity(surface):
            return normalize_value(surface), surface
        value = normalize_value(_phrase(tokens))
        if token.pos_ == "NOUN" and token.text.islower() and any(
                c.dep_ == "nummod" and c.is_alpha and c.i == tokens[0].i
                and (c.text.islower() or c.is_sent_start) for c in token.children):
            # a count of things in digits, as a number alone is: "two dogs" = "2 dogs" (a
            # capitalised name keeps its words: "One Direction")
            value = count_in_digits(value)
        return value, surface

    def _role_owner_for(self, token: Token) -> Token | None:
        """The owner a copula's definite role noun names with "for" ("I'm the release
        manager for v2" -> v2), or None: a relational noun of an office (Barker 1995) after
        "the", with no "of" phrase, and a "for" object that is no time ("the coach for the
        season") nor a pronoun."""
        if token.dep_ != "attr" or token.lemma_.lower() not in _RELATIONAL_NOUNS or not any(
                c.dep_ == "det" and c.lower_ == "the" for c in token.children) or any(
                c.dep_ == "prep" and c.lower_ == "of" for c in token.children):
            return None
        owner = next((p for c in token.children if c.dep_ == "prep" and c.lower_ == "for"
                      for p in c.children if p.dep_ == "pobj"), None)
        if owner is None or _is_time(owner) or owner.pos_ == "PRON" or not self._entity(owner):
            return None
        return owner

    def _goal_value(self, token: Token) -> tuple[str, str] | None:
        """"a two-week trip to Peru" is "the Peru trip": a common noun's goal is the modifier
        that tells it from another (the trip to Lisbon, the visit to the dentist), spelled as
        the compound that names the same thing -> ("peru trip", "Peru trip"); None without
        one."""
        if token.pos_ != "NOUN" or token.lemma_.lower() not in JOURNEY_NOUNS or (
                token.dep_ == "pobj" and token.head.lower_ == "from"):
            return None  # ("from the ring road to the river path": the change's two ends)
        goal = next((p for c in token.children if c.dep_ == "prep" and c.lower_ == "to"
                     for p in c.children if p.dep_ == "pobj"
                     and p.pos_ in ("PROPN", "NOUN")), None)
        if goal is None:
            return None
        place, place_surface = self._value(goal)
        return f"{place} {token.lemma_.lower()}", f"{place_surface} {token.text}"

    def _objects(self, head: Token) -> list[Token]:
        """``head`` and the conjuncts coordinated with it ("tea and coffee")."""
        out = [head]
        for child in head.children:
            if child.dep_ == "conj" and (_ampersand_name(child) or one_dish(child)):
                continue  # "Olive & Thyme", "Hargreaves & Co": one name; "fish and chips"
            if child.dep_ == "appos" and (_cohort(child) or child is name_qualifier(head)):
                continue  # "Ridgeway High School, class of 2027": the year one leaves in;
                # "iPad (3rd generation)": which iPad, part of the name
            if child.dep_ in ("conj", "appos"):
                out.extend(self._objects(child))
            elif child.dep_ == "acl" and child.lemma_.lower() in ("name", "call"):
                # "a dog named Luna": the name is the same thing, a second object
                out.extend(c for c in child.children
                           if c.dep_ in ("oprd", "attr", "dobj") and (
                               c.pos_ == "PROPN" or c.text[:1].isupper()))
            elif child.dep_ == "prep" and (child.lower_ == "including" or (
                    child.lower_ == "as" and any(c.lower_ == "such" for c in child.children))):
                # an example is an object too: "sports such as running", "fruit including
                # apples and pears"
                for example in (c for c in child.children if c.dep_ in ("pobj", "pcomp")):
                    out.extend(self._objects(example))
        return out

    def _is_noun(self, form: str) -> bool:
        """Whether ``form`` is in the lemmatizer's index of nouns."""
        if not hasattr(self, "_nouns"):
            try:
                self._nouns = set(self.nlp.get_pipe("lemmatizer").lookups
                                  .get_table("lemma_index")["noun"])
            except (KeyError, ValueError):
                self._nouns = set()
        return form in self._nouns

    def _known(self, relation: str) -> bool:
        return (relation in self.table.functional or relation in self.table.multi_valued
                or relation.startswith("preferred ") or relation in self.table.synonyms.values())

    def _presupposed(self, owner: Token) -> list[Triple]:
        """``(owner, have, X)`` for a possessed relationship noun: "my wife spends all my
        money" presupposes that the user has a wife (the existence presupposition of
        possessive descriptions, Karttunen 1973 "Presuppositions of compound sentences")."""
        who = self._entity(owner)
        noun = owner.head
        if not who or noun.pos_ not in ("NOUN", "PROPN"):
            return []
        words = [t for t in _span_tokens(noun, drop=_NP_DROP) if t.dep_ != "poss"]
        value = normalize_value(_phrase(words))
        # what a simple past presupposes held then ("Gina launched a campaign for her
        # store"), a completed past that says nothing of now: no triple
        clause = next((a for a in noun.ancestors if a.pos_ in ("VERB", "AUX")), None)
        if clause is not None and clause.tag_ == "VBD":
            return []
        if not value:
            return []
        found = [self._make(who, "have", value, _surface(words), negated=False, clause=noun,
                            rule="presupposition")]
        name = _partner_named(noun) if owner.lower_ in ("my", "our") else None
        if name is not None:
            # "my girlfriend Noor and I ...": the appositive names the partner (Quirk et al.
            # 1985, §17.65: a full appositive has the noun's referent)
            found.append(self._make(who, noun.lemma_.lower(), name.lower_, name.text,
                                    negated=False, clause=noun, rule="appositive"))
        return found


PARTNER_NOUNS = frozenset({"girlfriend", "boyfriend", "partner", "fiance", "fiancee", "fiancé",
                           "fiancée", "wife", "husband"})
"""Nouns of one's romantic partner (FrameNet Personal_relationship: boyfriend, girlfriend,
partner, fiancé, wife, husband): one holds at a time, so its name is a value of its own."""


def _partner_named(noun: Token) -> Token | None:
    """The proper name right after a possessed partner noun, its appositive ("my girlfriend
    Noor"), when nothing modifies the name (a coordinated "and I" may follow); else None."""
    if noun.lemma_.lower() not in PARTNER_NOUNS:
        return None
    return next((c for c in noun.children if c.dep_ == "appos" and c.pos_ == "PROPN"
                 and c.i == noun.i + 1 and c.text[:1].isupper()
                 and all(g.dep_ in ("cc", "conj") for g in c.children)),
                None)


def _cohort(noun: Token) -> bool:
    """"class of 2027", "cohort of 2024": the students of one year, said of a school's student
    (the year they leave in), no second thing."""
    return noun.lemma_.lower() in ("class", "cohort", "batch") and any(
        c.dep_ == "prep" and c.lower_ == "of" and any(
            p.dep_ == "pobj" and p.like_num for p in c.children) for c in noun.children)


_IDIOMATIC_POSSESSIONS = frozenset("""
    time mind own way behalf part life turn side best heart head hand hands feet eye eyes
    attention interest favor favour sake pace word fault luck chance opinion
    """.split())
"""Nouns whose possessive phrase is idiom, not ownership ("in his spare time", "on her mind",
"on his own")."""


_SETTING_PREPS = frozenset({"on", "at", "in", "with", "from", "for", "into", "to", "through"})
"""Prepositions of a place, instrument or beneficiary; not of a time ("during her hikes")."""


def _own_setting(poss: Token) -> bool:
    """"Nate taught recipes on his cooking show": a possessive pronoun on the object of a
    preposition of the possessor's own clause presupposes that the possessor has the thing
    (Karttunen 1973), as a relationship noun does."""
    noun = poss.head
    if poss.lower_ not in ("his", "her", "their", "my") or noun.dep_ != "pobj" or \
            noun.pos_ not in ("NOUN", "PROPN") or noun.lemma_.lower() in _IDIOMATIC_POSSESSIONS \
            or noun.head.lower_ not in _SETTING_PREPS:
        return False
    clause = next((a for a in noun.ancestors if a.pos_ in ("VERB", "AUX")), None)
    return clause is not None and any(c.dep_ == "nsubj" for c in clause.children)
