"""Definite descriptions and predicational copulas: when a copula names the one value of
an attribute ("the release manager is Wei", "the default region is eu-west-1") and when it
only describes a thing ("my car is fast")."""

from __future__ import annotations

import re

from spacy.tokens import Token

from extractors.relations import CLASSIFIER_NOUNS
from extractors.relations import RELATIONSHIP_NOUNS
from extractors.syntax import ADJECTIVE_INDEX, NOUN_INDEX


_VALUE_PREMODIFIERS = frozenset({"amod", "compound", "det", "nummod"})
"""Words before a noun that a setting's new value may carry ("dark mode", "a weekly summary")."""


_AGENT_SUFFIXES = ("er", "or", "ist", "ant", "ent", "ian", "ee")
"""Suffixes of English agent and personal nouns (Quirk et al. 1985, App. I.34-I.36:
"manager", "editor", "pianist", "assistant", "student", "librarian", "trainee")."""
_PERSON_HEADS = frozenset({"user", "coach", "lead", "head", "boss", "chair", "staff", "person",
                           "friend", "partner", "parent", "child", "kid", "team", "owner"})
"""Person nouns without an agent suffix, with "team" (a group acts as its people do)."""


def _agent_noun(noun: Token) -> bool:
    """Whether ``noun`` may name a person: an agent suffix or a person noun."""
    low = noun.lemma_.lower()
    return low in _PERSON_HEADS or low.endswith(_AGENT_SUFFIXES)


def _names_role_holder(subj: Token, complements: list[Token], *, changed: bool = False) -> bool:
    """A definite common noun ("the on-call engineer", no owner, no clause of its own) whose
    copula names a person or thing by a proper name ("… is Farida"): the definite article
    presupposes one holder (Russell 1905, "On denoting"; the uniqueness of definite
    descriptions), so the noun is a one-valued attribute. A noun ``changed`` "to" a value
    names it whatever word it is ("the default branch was renamed to main"). An acronym
    heading a modified noun is a common noun ("API base URL")."""
    # (a memory writer's telegraphic "Default deployment region is …" drops the article: a
    # modified noun opening the sentence with no determiner reads as definite)
    common = subj.pos_ == "NOUN" or (subj.text.isupper() and len(subj.text) <= 5 and any(
        c.dep_ in ("compound", "amod") for c in subj.children))
    if not common or not complements or not (_telegraphic(subj) or any(
            c.dep_ == "det" and c.lower_ == "the" for c in subj.children)
            or changed and _bare_opening(subj)):
        return False
    if any(c.dep_ in ("poss", "prep", "relcl", "acl", "appos") for c in subj.children):
        return False
    # (a measure is no name: "the kiln temperature is 1200 C"; a name may carry a model or
    # tier number after it: "the internet plan is AT&T Fiber 1 Gig"; a code names a value
    # as a proper name does: "the default region is eu-west-1")
    # (a default names its one value, whatever word it is: "Default branch is master")
    default = any(t.lower_ == "default" for t in subj.subtree if t.i < subj.i)
    if changed:
        # (a value with its own premodifiers, "switched to dark mode", "changed to a weekly
        # summary", only for a noun that names no one: "the manager switched to a standing
        # desk" is what a person did; a phrase or clause after the value is no setting value)
        premodified = not _agent_noun(subj)
        return all(not c.n_lefts and not c.n_rights or premodified and not c.n_rights and all(
            d.dep_ in _VALUE_PREMODIFIERS and not d.n_lefts and not d.n_rights
            for d in c.children) for c in complements)
    # (a capitalised word inside the sentence that English knows as no adjective is a name
    # whatever its tag, "the support tier is Platinum"; "the food is Italian" describes)
    # (a lone capitalised adjective is no name: "the project is Confidential")
    return all((c.pos_ == "PROPN" and min(c.subtree, key=lambda t: t.i).pos_ == "PROPN"
                and not (c.n_lefts + c.n_rights == 0 and c.lower_ in ADJECTIVE_INDEX))
               or (c.text[:1].isupper() and c.i > c.sent.start
                   and all((t.text[:1].isupper() and t.lower_ not in ADJECTIVE_INDEX)
                           or (t.like_num and t.i > c.i) for t in _name_tokens(c)))
               or (not c.n_lefts and not c.n_rights and (
                   (default and (c.pos_ in ("NOUN", "PROPN") or c.lower_ not in ADJECTIVE_INDEX))
                   or _CODE.fullmatch(c.text) is not None or c.like_url or c.like_email))
               for c in complements)


_CODE = re.compile(r"(?=\S*[A-Za-z])(?=\S*\d)[A-Za-z0-9][\w.-]*|[A-Za-z]+_[\w.]+")
"""A value written as a code: letters with digits ("eu-west-1", "db-stg-02", "MapleTree42",
"v2.3") or an identifier ("new_checkout")."""


ADJECTIVE_VALUED = frozenset("""
    diet colour color gender sex nationality religion orientation handedness theme mode
    """.split())
"""Attribute nouns whose value is one adjective out of exclusive categories ("my diet is
vegan", "the theme is dark", "her favourite colour is green"). Any other noun with an adjective
complement is described, not given a value: "my car is fast" and "my car is reliable" both hold
(a predicational copula; Higgins 1979, Declerck 1988), and so do "my hair is long" and "my
hair is curly", "my default browser is fast" and "… is free"."""
COLOUR_TERMS = frozenset("""
    black white red green yellow blue brown purple pink orange grey gray beige navy teal
    turquoise maroon silver gold
    """.split())
"""Colour adjectives (Berlin & Kay 1969's eleven basic terms and common others): one colour
of a thing at a time ("my bike is red" / "my bike is blue now")."""


def _name_tokens(head: Token) -> list[Token]:
    """A value's words without the phrases after it that restrict it ("PostgreSQL 12 on
    RDS" -> PostgreSQL, 12; ``SettingRules._value_restriction`` qualifies those)."""
    restricting = {t.i for c in head.children if c.dep_ == "prep" and c.i > head.i
                   for t in c.subtree}
    return [t for t in head.subtree if t.i not in restricting]


def _telegraphic(noun: Token) -> bool:
    """A modified noun opening its sentence with no determiner or owner, as a memory
    writer's telegraphic style writes it ("Default deployment region is …", "Notification
    email updated to …")."""
    first = min(noun.subtree, key=lambda t: t.i)
    return first.i == noun.sent.start and first != noun and not any(
        c.dep_ in ("det", "poss") for c in noun.children)


def _bare_opening(noun: Token) -> bool:
    """A lone singular common noun opening its sentence ("Theme switched to light"): with a
    change "to" a value, the telegraphic style's setting, as a modified one is
    (:func:`_telegraphic`). A person who switched ("Mom switched to decaf", "Manager changed
    to tea") is none."""
    return noun.i == noun.sent.start and noun.tag_ == "NN" and not any(noun.children) and not (
        _agent_noun(noun) or noun.lemma_.lower() in RELATIONSHIP_NOUNS)


def _describes_thing(rel_tokens: list[Token], complements: list[Token]) -> bool:
    """True when a copula gives an adjective to a noun that is no adjective-valued attribute
    (:data:`ADJECTIVE_VALUED`, judged by its head noun): a description of the thing."""
    # (a capitalised adjective or a written form is a value: "the language spoken is
    # French", "the work email is nadia@example.org")
    # (only a word English knows as an adjective: "the preferred glaze is celadon" names a
    # glaze the tagger called an adjective)
    # (a past participle says what happened to the thing: "my favourite cafe was closed
    # yesterday", "my main account is locked")
    if not complements or not all((c.pos_ == "ADJ" and c.lower_ in ADJECTIVE_INDEX
                                   or c.tag_ == "VBN")
                                  and c.dep_ in ("acomp", "attr")
                                  and c.text.isalpha() and c.text.islower()
                                  and not any(d.pos_ in ("NOUN", "PROPN")
                                              and d.dep_ != "npadvmod" for d in c.subtree)
                                  for c in complements):
        return False
    words = {t.lemma_.lower() for t in rel_tokens[-1:]} | {t.lower_ for t in rel_tokens[-1:]}
    # (a classifier noun names kinds, which adjectives name: "favourite dance style is
    # contemporary"; an evaluative adjective only grades the thing, whatever its kind:
    # "my diet is strict" says nothing of which diet)
    return not (words & (ADJECTIVE_VALUED | CLASSIFIER_NOUNS)) or all(
        c.lower_ in EVALUATIVE_ADJECTIVES for c in complements)


EVALUATIVE_ADJECTIVES = frozenset("""
    good bad great fine excellent poor perfect terrible awful nice decent solid proper
    strict lenient loose rigid relaxed casual serious intense moderate extreme
    simple easy hard difficult complex complicated basic elaborate fancy plain sophisticated
    healthy unhealthy balanced varied sensible normal usual typical standard consistent
    """.split())
"""Gradable adjectives of value, difficulty and qualification (Dixon 1982, "Where have all the
adjectives gone?", semantic types VALUE, DIFFICULTY, QUALIFICATION; gradable, Quirk et al.
1985, §7.3): they grade an attribute's value on a scale of its own and never name which
value it is ("my diet is strict" and "my diet is vegan" hold at once; a classifying
adjective, "vegan", "rustic", names the kind)."""


def colour_of(complements: list[Token]) -> Token | None:
    """The colour term a copula gives its subject ("my bike is red"), else None."""
    if len(complements) == 1 and complements[0].lower_ in COLOUR_TERMS:
        return complements[0]
    return None


def _premodified(noun: Token) -> list[Token]:
    """``noun`` with the modifiers before it ("on-call engineer")."""
    mods = [t for c in noun.children if c.dep_ in ("amod", "compound", "nmod") and c.i < noun.i
            for t in c.subtree]
    return sorted([noun, *mods], key=lambda t: t.i)


PERSON_STATES = frozenset({"vegan", "vegetarian", "pescatarian", "teetotal", "sober", "single",
                           "married", "divorced", "widowed", "engaged", "pregnant", "retired",
                           "unemployed", "gluten-free", "kosher", "halal"})
"""Adjectives of a person's diet, abstinence, marital state or stage of working life
(WordNet 3.1 adjective senses, e.g. vegan.a.01, single.s.05, retired.s.01): a description of
the person, never the name a relationship noun's copula gives ("my partner is Vegan")."""


IDENTITY_CLIPPINGS = frozenset({"trans", "bi", "cis", "enby", "nonbinary", "non-binary"})
"""Clipped adjectives of gender and sexual identity (clipping, Quirk et al. 1985, App.
I.74: "trans" < transgender.s.01, "bi" < bisexual.s.01, "cis" < cisgender): descriptions of a
person, never a name, though the lemmatizer's tables may lack the clipped form."""

GENERATION_WORDS = frozenset({"gen", "generation"})
"""Heads of a generational cohort label ("Gen Z", "Generation X"; WordNet 3.1
generation.n.02, a group of people born about the same time)."""

GENERATION_NAMES = frozenset({"millennial", "boomer", "zoomer", "xennial"})
"""Single-word names of a generational cohort (WordNet 3.1 baby_boomer.n.01; the others by
the same pattern): a description of a person's age group."""


def describes_person(word: str) -> bool:
    """Whether a lower-cased word is a state or description of a person rather than a name:
    :data:`PERSON_STATES`, :data:`IDENTITY_CLIPPINGS`, :data:`GENERATION_NAMES` or a word
    English knows as an adjective."""
    return word in PERSON_STATES or word in IDENTITY_CLIPPINGS or word in GENERATION_NAMES \
        or word in ADJECTIVE_INDEX


ADHERENT_NOUNS = frozenset("""
    quaker mormon amish hindu sikh muslim moslem jew jain pagan atheist agnostic catholic
    protestant anglican baptist lutheran methodist presbyterian episcopalian pentecostal
    evangelical orthodox adventist mennonite rastafarian wiccan zoroastrian
    democrat republican libertarian socialist conservative liberal
    """.split())
"""Nouns of a person by faith, creed or political allegiance (WordNet 3.1 religious_person.n.01
and its hyponyms, e.g. quaker.n.01, mormon.n.01; democrat.n.01, republican.n.01): a
description of a person, never the person's name."""

_ADHERENT_SUFFIXES = ("ist", "ian", "arian")
"""Suffixes of nouns naming a person by adherence or practice (Quirk et al. 1985, App.
I.34-I.36: "Buddhist", "Episcopalian", "vegetarian")."""


def _person_description_noun(word: str) -> bool:
    """A common noun (the lemmatizer's noun table) naming a person by a faith, creed or
    practice: :data:`ADHERENT_NOUNS` or a known noun with an adherent's suffix."""
    return word in ADHERENT_NOUNS or (word in NOUN_INDEX and word.endswith(_ADHERENT_SUFFIXES))


def common_description(words: list[str]) -> bool:
    """Whether the lower-cased words of a capitalised value are a description of a person,
    not who the person is: a generation label ("gen z", "generation x"), or a head that
    :func:`describes_person` ("Gluten Intolerant", "Bi") or names an adherent ("Quaker",
    "Orthodox Jew") after modifiers that are all common words of English (the lemmatizer's
    noun and adjective tables). A name that is also an adherent's noun ("Christian") is read
    as one: precision first (a description must never replace who the person is)."""
    if not words:
        return False
    if words[0] in GENERATION_WORDS and len(words) == 2 and (
            len(words[1]) == 1 or words[1] == "alpha"):
        return True
    *mods, head = words
    return (describes_person(head) or _person_description_noun(head)) and all(
        describes_person(w) or w in NOUN_INDEX for w in mods)


def _described(comp: Token) -> bool:
    """A complement of state or description words only, coordinated or not ("Vegan", "Deaf
    and Catholic"): :data:`PERSON_STATES` or words English knows as adjectives; or a
    capitalised complement, with the capitalised words compounded before it, that
    :func:`common_description` reads as a description ("Quaker", "Gen Z", "Gluten
    Intolerant")."""
    words = [comp] + [c for c in comp.children if c.dep_ == "conj"]
    if all(c.dep_ in ("cc", "conj", "punct") for c in comp.children) \
            and all(describes_person(w.lower_) and not w.n_lefts for w in words):
        return True
    return all(_capitalised_description(w) for w in words) and all(
        c.dep_ in ("cc", "conj", "punct", "compound", "amod") for c in comp.children)


def _capitalised_description(word: Token) -> bool:
    """A capitalised word, with the capitalised words compounded before it and nothing else
    of its own, that :func:`common_description` reads as a description of a person."""
    lefts = [c for c in word.lefts if c.dep_ not in ("cc", "punct")]
    if any(c.dep_ not in ("compound", "amod") or c.n_lefts or c.n_rights for c in lefts):
        return False
    phrase = [*lefts, word]
    return all(t.text[:1].isupper() for t in phrase) and common_description(
        [t.lower_ for t in phrase])


def _predicational(subject: Token, complements: list[Token], located: bool = False) -> bool:
    """True when a copula with a possessed relationship noun as subject describes that
    person rather than naming them: an adjective or an indefinite noun phrase as complement
    ("my father is a farmer", "my parents were very athletic"), or only a prepositional
    phrase ("my father is in the army"); not a name or a definite description ("my father
    is Tom"). See ``RELATIONSHIP_NOUNS``."""
    if subject.lemma_.lower() not in RELATIONSHIP_NOUNS or not any(
            c.dep_ == "poss" for c in subject.children):
        return False
    if not complements:
        return located
    if len(complements) > 1 and all(c.text[:1].isupper() for c in complements) and \
            common_description([c.lower_ for c in complements]):
        return True  # a label the parser split in two: "Gen Z" as two complements
    for comp in complements:
        if comp.dep_ == "acomp" or comp.pos_ == "ADJ" or _described(comp):
            # (a capital letter makes no name of a state or a description: "my partner is
            # Vegan", "my dad is Hindu"; a name English also knows as an adjective, "Frank",
            # is read so too: precision first)
            continue
        det = next((c for c in comp.children if c.dep_ == "det"), None)
        # (a name after "a" is a kind: "my dog is a Labrador", not the dog's name)
        kind_name = comp.pos_ == "PROPN" and det is not None and det.lower_ in ("a", "an")
        if (comp.pos_ != "NOUN" and not kind_name) or (
                det is not None and det.lower_ not in ("a", "an")) or any(
                c.dep_ == "poss" for c in comp.children):
            return False
    return True


PERSON_HEADS = frozenset("""
    man woman guy girl boy lady gentleman person someone somebody sweetheart lover
    """.split())
"""Head nouns of a person other than a kinship, partner or occupation noun."""

_PARTNER_RELATIONS = frozenset({"spouse", "be engaged to", "date"})
"""Relations whose value is a person: "married to my work", "engaged to the idea of a
startup" are idioms of devotion (WordNet 3.1 married.s.02, "devoted to") and name nobody."""


def partners_are_people(triples: list, occupations: frozenset[str]) -> list:
    """``triples`` without the affirmed partner states (:data:`_PARTNER_RELATIONS`) whose value
    names no person: no capitalised word in its surface, and a head that is no kinship or
    partner noun (:data:`extractors.relations.RELATIONSHIP_NOUNS`), occupation
    (``occupations``) or :data:`PERSON_HEADS` noun ("married to my work lol")."""
    def person(t) -> bool:
        if any(w[:1].isupper() for w in t.object_text.split()):
            return True
        head = t.object.split()[-1] if t.object else ""
        return head in RELATIONSHIP_NOUNS or head in occupations or head in PERSON_HEADS

    return [t for t in triples if t.relation not in _PARTNER_RELATIONS or t.negated
            or not t.object or t.rule not in ("prep_object", "copula") or person(t)]
