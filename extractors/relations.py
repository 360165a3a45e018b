"""Relation canonicalisation and cardinality (SPEC §1 "relation cardinality").

A relation phrase is canonicalised in three steps: spelling variants are folded token by token
(British to American spelling), a curated synonym table maps phrasings to one canonical form,
and antonymous predicates map to the negation of their partner (``hate`` = not ``like``).

Cardinality decides whether two different objects of one relation can both be true:

* *functional* relations hold one value at a time (name, lives in, works at, budget,
  preferred X); two different values are a ``value_mismatch``;
* *multi-valued* relations hold many (likes, visited, tested with, speaks); different values
  are no conflict at all;
* anything else is *unknown*: different values give a ``possible`` conflict that is never
  auto-resolved.

A statement and its negation conflict whatever the cardinality: "likes coffee" and "doesn't
like coffee" cannot both hold at one time, which is why polarity is judged without this table.

Attribute nouns stated with a copula ("the budget of X is Z", "X's Y is Z", "Y: Z") default to
functional when singular: a singular definite description presupposes a unique referent
(Russell 1905, "On Denoting"; Strawson 1950) — unless the noun is listed as multi-valued here.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


class Cardinality(str, enum.Enum):
    """How many values a relation holds at a time."""

    functional = "functional"
    multi_valued = "multi_valued"
    unknown = "unknown"


SPELLING: dict[str, str] = {
    "favourite": "favorite", "colour": "color", "flavour": "flavor", "behaviour": "behavior",
    "centre": "center", "organisation": "organization", "licence": "license",
    "programme": "program", "catalogue": "catalog", "neighbour": "neighbor",
    "honour": "honor", "theatre": "theater", "metre": "meter", "litre": "liter",
    "favoured": "favored", "analyse": "analyze", "customise": "customize",
    "enrol": "enroll", "enrolment": "enrollment", "practise": "practice",
}
"""British to American spellings, folded token by token before any lookup."""

NOUN_SYNONYMS: dict[str, str] = {
    "shop": "store",                      # WordNet 3.1 store.n.01 {store, shop}
    "film": "movie", "flick": "movie",    # movie.n.01 {movie, film, picture, flick}
    "sax": "saxophone",                   # saxophone.n.01 {saxophone, sax}
    "bicycle": "bike", "cycle": "bike",   # bicycle.n.01 {bicycle, bike, wheel, cycle}
    "automobile": "car", "auto": "car",   # car.n.01 {car, auto, automobile, machine}
    "telephone": "phone",                 # telephone.n.01 {telephone, phone}
    "cellphone": "phone",                 # cellular_telephone.n.01 {... cellphone ...}
    "physician": "doctor",                # doctor.n.01 {doctor, doc, physician, MD}
    "kid": "child",                       # child.n.01 {child, kid, youngster, minor}
    "flat": "apartment",                  # apartment.n.01 {apartment, flat}
    "author": "writer",                   # writer.n.01 {writer, author}
    "vocalist": "singer",                 # singer.n.01 {singer, vocalist, vocalizer, vocaliser}
    "sofa": "couch",                      # sofa.n.01 {sofa, couch, lounge}
}
"""Common nouns folded to one member of their WordNet 3.1 synset (Miller 1995, "WordNet: a
lexical database for English"): "shut down his Etsy store" ends "runs an Etsy shop". Only
members of one synset, never a hypernym ("pup" is no "dog"); names keep their words."""

HYPERNYMS: dict[str, str] = {
    "puppy": "dog", "pup": "dog",         # puppy.n.01 "a young dog" (hypernym dog.n.01)
    "kitten": "cat", "kitty": "cat",      # kitten.n.01 "young domestic cat"; kitty.n.02
    # dog breeds (hyponyms of dog.n.01 through hunting_dog, terrier, working_dog, toy_dog)
    **dict.fromkeys("retriever labrador poodle terrier spaniel beagle collie husky dachshund "
                    "bulldog pug corgi greyhound whippet chihuahua schnauzer rottweiler "
                    "labradoodle dalmatian".split(), "dog"),
    # cage birds (hyponyms of bird.n.01 through parrot.n.01, finch.n.01)
    **dict.fromkeys("parrot budgie budgerigar canary cockatiel parakeet".split(), "bird"),
    "sedan": "car", "hatchback": "car",   # sedan.n.01, hatchback.n.01 (hypernym car.n.01)
    "convertible": "car", "coupe": "car",  # convertible.n.01, coupe.n.01 (hypernym car.n.01)
    "suv": "car", "minivan": "car",       # sport_utility.n.01, minivan.n.01 (car.n.01)
    "latte": "coffee", "espresso": "coffee",  # caffe_latte.n.01, espresso.n.01 (coffee.n.01)
    "cappuccino": "coffee", "americano": "coffee",  # cappuccino.n.01 (coffee.n.01)
    "beer": "alcohol", "wine": "alcohol",  # beer.n.01, wine.n.01 (alcohol.n.01 "a liquor")
    "whiskey": "alcohol", "vodka": "alcohol",  # whiskey.n.01, vodka.n.01 (liquor, alcohol)
    "beef": "meat", "pork": "meat",       # beef.n.02, pork.n.01 (hypernym meat.n.01)
    "bacon": "meat", "lamb": "meat",      # bacon.n.01, lamb.n.05 (meat.n.01)
    "chicken": "meat", "turkey": "meat",  # chicken.n.01, turkey.n.01 (the flesh: meat)
    "ham": "meat", "steak": "meat",       # ham.n.01, steak.n.01 (meat.n.01)
    "sausage": "meat", "veal": "meat",    # sausage.n.01, veal.n.01 (meat.n.01)
    "salmon": "fish", "tuna": "fish",     # salmon.n.03, tuna.n.01 (the flesh: fish.n.02)
    "cod": "fish", "trout": "fish",       # cod.n.02, trout.n.01 (fish.n.02)
    "cheese": "dairy", "milk": "dairy",   # dairy_product.n.01 hyponyms
    "yogurt": "dairy", "butter": "dairy",  # dairy_product.n.01 hyponyms
}
"""A common noun's hypernym where the noun names a kind of the hypernym's thing (WordNet 3.1,
Miller 1995; the sense a personal memory means): a denial of the hypernym denies a statement of
the kind ("decided not to adopt another dog" / "is considering adopting a new pup", "doesn't
drink alcohol anymore" / "drinks wine on Fridays"), never the other way round ("no longer has
a puppy" leaves "has a dog" standing), and a statement never equals its hypernym ("pup" is no
synonym of "dog": :data:`NOUN_SYNONYMS`)."""

KIND_KEEPING_MODIFIERS = frozenset("""
    new old another second third rescue young little small big large cheap expensive good
    favorite preferred red white rose sparkling dry craft local imported cold hot iced black
    strong fresh grilled fried roast daily morning evening weekend occasional extra used
    golden border miniature toy
    """.split())
"""Modifiers that describe a thing without making it another kind ("a new pup" is a dog,
"red wine" is alcohol; "ginger beer", "root beer", "peanut butter", "oat yogurt",
"non-alcoholic wine" are not): only these may stand between a hypernym's denial and its
kind (:data:`HYPERNYMS`)."""


def is_kind_of(general: str, specific: str) -> bool:
    """Whether ``specific`` (a canonical object) names a kind of ``general`` by a hypernym of
    its head (:data:`HYPERNYMS`): its other words are ``general``'s own modifiers or
    :data:`KIND_KEEPING_MODIFIERS` ("another dog" / "new pup"; never "ginger beer")."""
    a, b = general.split(), specific.split()
    if not a or not b or HYPERNYMS.get(b[-1]) != a[-1]:
        return False
    return all(w in KIND_KEEPING_MODIFIERS or w in a for w in b[:-1])


SYNONYMS: dict[str, str] = {
    # preference
    "favorite": "preferred", "fave": "preferred", "preferred": "preferred",
    "love": "like", "enjoy": "like", "adore": "like", "be fond of": "like", "prefer": "prefer",
    # residence and work
    "reside in": "live in", "live at": "live in", "be based in": "live in",
    "work for": "work at", "be employed by": "work at",
    "help out at": "volunteer at", "help at": "volunteer at",
    "be married to": "spouse", "be employed at": "work at",
    "work with": "work with",
    # language
    "mother tongue": "native language", "first language": "native language",
    "native tongue": "native language",
    # organisations
    "headquarter": "headquarters", "hq": "headquarters", "head office": "headquarters",
    "be headquartered in": "headquarters", "be based in city": "headquarters",
    # identity
    "first name": "name", "full name": "name",
    "e-mail": "email", "e-mail address": "email", "email address": "email",
    "phone number": "phone", "telephone number": "phone", "mobile number": "phone",
    "job": "job title", "title": "job title", "role": "job title", "position": "job title",
    "occupation": "occupation", "profession": "occupation",
    "birth date": "birthday", "date of birth": "birthday",
    "hometown": "home town", "citizenship": "citizenship", "nationality": "citizenship",
    "timezone": "time zone",
    # "the location of X is Y" and "X is located in Y" state one fact (ParaRel P276/P131)
    "location": "located in",
}
"""Relation phrase (lemmatised) -> canonical relation. Curated; extend via ``RelationTable``."""

ANTONYMS: dict[str, str] = {
    "hate": "like", "dislike": "like", "detest": "like", "loathe": "like",
    "forbid": "allow", "prohibit": "allow", "disallow": "allow", "ban": "allow",
    "disable": "enable", "reject": "accept", "decline": "accept", "refuse": "accept",
    "deny": "allow", "block": "allow", "close": "open", "unlock": "lock", "exclude": "include", "avoid": "use",
    "be forbidden": "be allowed", "be prohibited": "be allowed", "be banned": "be allowed",
    "be disallowed": "be allowed", "be disabled": "be enabled", "be rejected": "be accepted",
    "be denied": "be allowed", "be blocked": "be allowed", "be excluded": "be included",
    "be unsupported": "be supported", "be unavailable": "be available",
    "be invalid": "be valid", "be inactive": "be active", "be unlocked": "be locked",
    "be closed": "be open", "be off": "be on", "be false": "be true",
}
"""Antonymous predicate -> its partner; the antonym is the partner's negation."""

FUNCTIONAL: frozenset[str] = frozenset({
    "name", "age", "birthday", "live in", "home town", "work at", "job title", "employer",
    "headquarters", "budget", "price", "cost", "salary", "email", "phone", "address",
    "native language", "citizenship", "capital", "ceo", "owner", "founder", "spouse",
    "wife", "husband", "deadline", "time zone", "status", "version", "timeout",
    "retry timeout", "limit", "size", "color", "height", "weight", "population",
    "manufacturer", "developer", "creator", "country", "continent", "location", "religion", "position",
    "record label", "team", "club", "league", "currency", "language",
    "prefer", "parent company", "located in", "home",
})
"""Relations that hold one value at a time. Any relation starting with ``preferred `` is
functional too (a preference names one choice)."""



CLASSIFIER_NOUNS = frozenset({"genre", "type", "kind", "sort", "style", "category"})
"""Nouns that name kinds of the thing the noun before them names ("movie genre", "music
style"): classifier nouns (Quirk et al. 1985, §17.41 on "kind of", "sort of", "type of")."""

DWELLING_KINDS: dict[str, str] = {
    **dict.fromkeys("apartment flat studio condo condominium loft penthouse bedsit maisonette "
                    "duplex".split(), "apartment"),  # apartment.n.01 and its hyponyms
    **dict.fromkeys("house bungalow cottage cabin barn farmhouse townhouse mansion villa "
                    "chalet hut".split(), "house"),  # house.n.01 and its hyponyms
    **dict.fromkeys("caravan trailer houseboat narrowboat van campervan motorhome".split(),
                    "mobile home"),
    **dict.fromkeys("dorm dormitory hostel".split(), "dormitory"),
}
"""A dwelling noun -> its broad kind (WordNet 3.0 hypernyms): "a studio" and "a studio flat",
"a cottage" and "a house" are one kind and never contradict each other; a flat and a house do."""

MOVE_RELATIONS = frozenset({"move to", "relocate to", "move back to", "move into",
                            "move back into", "move in"})
"""Moving somewhere, which says where one lives when the destination is a place or a home."""
AREA_NOUNS = frozenset({"countryside", "suburb", "suburbs", "city", "coast", "seaside",
                        "mountains", "village", "town"})
"""Kinds of area one lives in, a facet apart from the named place ("lives in the suburbs" and
"lives in Chicago" both hold)."""
PLACE_NOUNS = frozenset("""
    city town village countryside suburbs suburb coast seaside country state island capital
    """.split())
"""Common nouns of a place one lives in ("moved to the countryside")."""


_SPELL_NOUNS = frozenset({"year", "month", "week", "day", "decade", "while", "stint", "spell",
                          "summer", "winter", "semester", "term"})
"""Nouns of a stretch of time a spell spent before a move is measured in."""
_USE_PREPOSITIONS = frozenset({"of", "on", "with", "using"})
"""Prepositions that tie a spell to a thing used rather than a place ("a year of Rust", "a
month on Linux", "two years with Vim"); a place's spell is "in" or "at" it (Quirk et al.
1985, §9.15-9.17: positive and negative position; 'on' only of a surface or island)."""


def switched_tool(spell: str | None) -> bool:
    """Whether a move's spell of time before it ("after a year of Go", "after a month on a
    Pixel", as the time qualifier spells it: "after year of go") ties that spell to a thing
    used, not a place lived in: the move then returns to another thing of the same kind (a
    switch of tools or products, FrameNet Replacing), not to a home (FrameNet Residence)."""
    words = (spell or "").split()
    if not words or words[0] not in ("after", "following"):
        return False
    return any(w.rstrip("s") in _SPELL_NOUNS and nxt in _USE_PREPOSITIONS
               for w, nxt in zip(words, words[1:]))


def dwelling_reading(relation: str, value: str, surface: str = "",
                     spell: str | None = None, plain_move: bool = False) -> tuple[str, str]:
    """Where one lives, read by facet. ``("home", kind)`` for a residence whose value is a
    kind of dwelling ("live in", "small apartment" -> ("home", "apartment"): its broad kind,
    :data:`DWELLING_KINDS`); a move (:data:`MOVE_RELATIONS`) to a home is that home, to a
    named place or a place noun ("moved back to Dublin", "to the countryside") ``live in``
    there, a named place in lower case too ("moved to denver", :mod:`extractors.places`);
    a move to anything else stays a move ("moved into management", "moved back to
    paper notebooks"). Other triples keep their relation and value.

    Args:
        relation: canonical relation.
        value: canonical object; a place after a comma ("converted barn, outside kilkenny")
            is the dwelling's own place, left out of its kind.
        surface: the object as written (a capital letter marks a named place).
        spell: the move's time qualifier; a spell of using a thing (:func:`switched_tool`:
            "after a year of Go") makes the move a switch, never a residence.
        plain_move: the move opens its sentence and nothing but a time follows the place
            (:func:`plain_move`); only then is a lower-case place a home.
    """
    if relation != "live in" and relation not in MOVE_RELATIONS:
        return relation, value
    words = value.split(",")[0].split()
    if words and words[-1] in DWELLING_KINDS:
        return "home", DWELLING_KINDS[words[-1]]
    if relation in MOVE_RELATIONS and (surface[:1].isupper() or (
            words and words[-1] in PLACE_NOUNS) or plain_move and _lower_case_place(surface)) \
            and not switched_tool(spell):
        relation = "live in"
    if relation == "live in" and words and words[-1] in AREA_NOUNS and surface[:1].islower():
        return "home area", words[-1]  # "the suburbs", "the countryside": a kind of area
    return relation, value


_NOT_A_HOME_AFTER = re.compile(
    r"\s*(?:[(\[\-\u2013\u2014,;:]|(?:for|from|on|with|as|via|inside|at|within)\b|"
    r"in\b(?!\s+(?:(?:early|late|mid)[\s-]+)?(?:january|february|march|april|may|june|july|"
    r"august|september|october|november|december|spring|summer|fall|autumn|winter|\d{4}|"
    r"the\s+(?:spring|summer|fall|autumn|winter)|last|this)\b))", re.IGNORECASE)
"""What, after a move's destination, makes it no home: a purpose or a source ("moved to phoenix
for the build pipeline", "from rails"), a setting ("in fifa career mode", "on my vpn"), an
aside ("(our new slack bot)"); a time ("in march", "last week") does not."""


def plain_move(clause: str, surface: str) -> bool:
    """Whether the move "to" ``surface`` in ``clause`` (the triple's text) opens its sentence
    (no comma, semicolon or colon before it: "changed the blog font, moved to georgia") and
    nothing but a time follows the place (:data:`_NOT_A_HOME_AFTER`)."""
    at = clause.find(surface) if surface else -1
    if at < 0:
        return False
    return not re.search(r"[,;:()]", clause[:at]) and not _NOT_A_HOME_AFTER.match(
        clause, at + len(surface))


def _lower_case_place(surface: str) -> bool:
    from extractors.places import lower_case_place

    return surface[:1].islower() and lower_case_place(surface)


MULTI_VALUED: frozenset[str] = frozenset({
    "like", "acquire", "visit", "test with", "speak", "drink", "eat", "use", "know", "play",
    "read", "watch", "listen to", "own", "have", "collect", "attend", "meet", "travel to",
    "friend", "child", "children", "hobby", "skill", "interest", "pet", "allergy",
    "sibling", "brother", "sister", "member of", "work with", "work on", "support",
    "include", "tag", "contain", "study", "learn", "write", "cook", "make", "buy",
    "occupation", "twin city", "sister city", "neighbor", "border", "share border with",
    "instrument", "play instrument", "field", "subject", "award", "language spoken",
    "speak language", "be",
    # a city is the capital of nested territories (Lisbon: Portugal, Lisbon District); every
    # P36 case of counterfact-train.json has a neighbour fact naming the same city as the
    # capital of another territory (issue 5)
    "capital of",
})
"""Relations that hold many values at once: different values never conflict."""

LINKING_RELATIONS: frozenset[str] = frozenset({"be", "have"})
"""Verbs read as the relation when nothing else names one: the copula, whose complement
carries the predicate ("Germany is a part of the continent of Antarctica" / "… a member of
Hamas": two relations, not two values of "be"), and the light verb "have" (Quirk et al. 1985
§§10.8, 10.16 on copular and light verbs). They name no attribute, so declaring every
relation one-valued (:attr:`RelationTable.all_functional`) leaves them as the table has
them."""

RELATIONSHIP_NOUNS: frozenset[str] = frozenset("""
    father mother dad mom mum parent brother sister sibling son daughter child kid baby
    husband wife spouse partner boyfriend girlfriend fiance fiancee uncle aunt cousin nephew
    niece grandfather grandmother grandpa grandma grandparent family friend roommate
    neighbor boss colleague coworker dog cat pet horse manager supervisor mentor landlord
    landlady tenant housemate flatmate teammate classmate
    """.split())
"""Nouns that name a related person or animal rather than an attribute (kinship terms and
the like). "My father is Tom" names the value of the relation (``(user, father, tom)``), but
"my father is a farmer" describes the father himself: with a possessor and an indefinite or
adjectival complement, the copula predicates of the possessed entity (``(user's father, be,
farmer)``), the predicational vs. specificational copula of Higgins (1979, "The
Pseudo-Cleft Construction in English")."""


_FAVOURITE_MODIFIERS = frozenset({"new", "current", "latest", "absolute", "all", "top",
                                  "personal", "very"})
"""Words before "favourite" that do not change which favourite is meant."""


_NOW_MODIFIERS = frozenset({"current", "present", "latest", "updated"})
"""Adjectives that place an attribute's value at the time of speaking (time deixis: Fillmore,
*Lectures on Deixis*, 1971/1997, lecture 3): "current employer" and "employer" name one
attribute, so their values are compared. "new" is left out: it may add a value ("new hobby",
"new pup") or name another thing ("my new phone" is a handset, "my phone" may be its number).
Words that place the value in the past ("old", "former", "previous") stay: "my old address" is
another attribute."""

_LEXICALISED = frozenset({"current account", "present tense", "present participle",
                          "latest version"})
"""Compounds of such an adjective that name a kind of their own (WordNet lemmas
current_account, present_tense, present_participle; "latest version" names a release), never
the attribute at the time of speaking."""


@dataclass(frozen=True)
class RelationTable:
    """The configurable tables; defaults are the module-level constants.

    Attributes:
        synonyms: relation phrase -> canonical relation.
        antonyms: antonymous predicate -> the predicate it negates.
        functional: relations with one value at a time.
        multi_valued: relations with many values.
        safety: relations whose conflicts always escalate to a person (SPEC §3 row 4).
        declared_functional: the relations among ``functional`` that the store's own
            configuration declared (``[relations] functional``), not the defaults.
        all_functional: every relation holds one value at a time, whatever the tables say
            (a store whose schema declares it so: FactConsolidation's premise that a later
            fact about a subject and relation overrides the earlier one).
    """

    synonyms: Mapping[str, str] = field(default_factory=lambda: dict(SYNONYMS))
    antonyms: Mapping[str, str] = field(default_factory=lambda: dict(ANTONYMS))
    functional: frozenset[str] = FUNCTIONAL
    multi_valued: frozenset[str] = MULTI_VALUED
    safety: frozenset[str] = frozenset()
    declared_functional: frozenset[str] = frozenset()
    all_functional: bool = False

    def declares(self, relation: str) -> bool:
        """Whether the store's configuration declared ``relation`` one-valued (its schema,
        not the defaults' reading of common usage); every relation but the linking verbs
        (:data:`LINKING_RELATIONS`) under :attr:`all_functional`."""
        return (self.all_functional and relation not in LINKING_RELATIONS
                or relation in self.declared_functional)

    def with_overrides(self, *, functional: Iterable[str] = (), multi_valued: Iterable[str] = (),
                       synonyms: Mapping[str, str] | None = None,
                       safety: Iterable[str] = (),
                       all_functional: bool | None = None) -> RelationTable:
        """A copy with relations moved between cardinalities and synonyms added;
        ``all_functional`` (None: unchanged) declares every relation one-valued."""
        fun, multi = set(self.functional), set(self.multi_valued)
        for rel in functional:
            fun.add(rel)
            multi.discard(rel)
        for rel in multi_valued:
            multi.add(rel)
            fun.discard(rel)
        syn = dict(self.synonyms)
        syn.update(synonyms or {})
        return RelationTable(synonyms=syn, antonyms=self.antonyms, functional=frozenset(fun),
                             multi_valued=frozenset(multi),
                             safety=frozenset(self.safety) | frozenset(safety),
                             declared_functional=(self.declared_functional | set(functional))
                             - set(multi_valued),
                             all_functional=self.all_functional if all_functional is None
                             else all_functional)

    def canonical(self, phrase: str) -> tuple[str, bool]:
        """Canonical relation for a lemmatised phrase, and whether it is an antonym.

        Args:
            phrase: lower-cased, lemmatised relation phrase ("mother tongue", "hate").

        Returns:
            ``(relation, negates)``: ``("native language", False)``, ``("like", True)``.
        """
        words = [SPELLING.get(w, w) for w in phrase.split()]
        # "new favourite dessert", "all-time favourite film": still the one favourite
        while len(words) > 1 and words[0] in _FAVOURITE_MODIFIERS and words[1] in (
                "favorite", "fave", "preferred", "all", "time"):
            words = words[1:] if words[0] != "all" else words[2:]
        if len(words) > 1 and words[0] in _NOW_MODIFIERS and " ".join(
                words[:2]) not in _LEXICALISED:  # "current employer" is the employer
            words = words[1:]
        # "favourite style of dance" is "favourite dance style"
        if len(words) == 4 and words[2] == "of" and self.synonyms.get(words[0]) == "preferred":
            words = [words[0], words[3], words[1]]
        text = " ".join(words)
        negates = False
        if text in self.antonyms:
            text, negates = self.antonyms[text], True
        if text in self.synonyms:
            text = self.synonyms[text]
        else:
            # "favorite color" -> "preferred color"; the head word may carry the synonym.
            head = words[0] if words else ""
            if len(words) > 1 and self.synonyms.get(head) == "preferred":
                text = "preferred " + " ".join(words[1:])
        return text, negates

    def cardinality(self, relation: str, *, attribute: bool = False) -> Cardinality:
        """Cardinality of a canonical relation.

        Args:
            relation: canonical relation.
            attribute: True when it was stated as a singular attribute noun with a copula or as
                a ``key: value`` line, which defaults to functional (see module docstring).
        """
        if self.all_functional and self.declares(relation):
            return Cardinality.functional
        if relation in self.multi_valued:
            return Cardinality.multi_valued
        if relation in self.functional or relation.startswith("preferred "):
            return Cardinality.functional
        if attribute:
            return Cardinality.functional
        return Cardinality.unknown


def _with_lexicon() -> RelationTable:
    from extractors.lexicon import RELATIONS

    functional = {name for name, card in RELATIONS.values() if card == "functional"}
    multi = {name for name, card in RELATIONS.values() if card == "multi_valued"}
    return RelationTable(functional=(FUNCTIONAL | functional) - multi,
                         multi_valued=MULTI_VALUED | multi)


DEFAULT_TABLE = _with_lexicon()
"""The curated tables plus the ParaRel lexicon's cardinalities (:mod:`extractors.lexicon`)."""


SETTING_VERBS = frozenset("""
    raise lower change set bump increase decrease update reduce rename move switch upgrade
    downgrade reset adjust
    """.split())
"""Verbs that give a setting a new value "to" something ("was raised to 8"; change-of-state
verbs with a goal phrase, Levin 1993 §45.4 "calibratable change of state")."""


SETTING_MODIFIERS = frozenset({"default", "main", "primary", "usual", "daily", "go-to",
                               "preferred", "favorite", "favourite", "current", "regular"})
"""Modifiers that make a noun one's own one-valued setting ("default browser", "main editor",
"daily driver"), with or without a possessive in a memory writer's telegraphic style."""
