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
"""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from extractors.memory_forms import in_first_person
from extractors.lexicon import (
    Pattern,
    PatternIndex,
    compile_patterns,
    instantiations,
    load_pattern_packs,
    load_patterns,
    match_patterns,
    place_relations,
)
from extractors.pipeline import ISO_DATE, load_pipeline
from extractors.relations import DEFAULT_TABLE, RELATIONSHIP_NOUNS, SPELLING, RelationTable
from extractors.state_changes import ENDED_RULE, StateChanges, default_state_changes
from extractors.types import Triple
from extractors.values import count_in_digits, is_quantity, normalize_value

USER = "user"
"""Canonical subject for first person ("I", "my", "me") and "the user": the scope's user."""

_FIRST_PERSON = {"i", "me", "my", "mine", "myself"}
_CONTAINER_NOUNS = {"city", "town", "country", "state", "province", "region", "village",
                   "county", "island", "republic", "kingdom", "language", "municipality"}
_PARTITIVE_NOUNS = {"lot", "lots", "type", "kind", "sort", "part", "variety", "bunch", "plenty",
                    "bit", "piece", "glass", "cup", "bottle", "bowl", "slice", "pair", "couple",
                    "number", "ton"}
"""Nouns that measure out or sort what their "of" phrase names ("a lot of time", "all types
of food", "a glass of wine"): as an object, they give way to it."""
_LIGHT_VERBS = {"be", "have", "use", "do", "make", "get", "go", "take", "give", "become",
                "say", "keep", "let", "put", "come", "see", "own", "represent", "release"}
"""Verbs too general to stand for one lexicon relation when induced from patterns."""


def _lexicon_items():
    from extractors.lexicon import RELATIONS

    return RELATIONS.items()
_POSSESSIVE_PRONOUNS = {"his", "her", "their"}
_UNRESOLVED_PRONOUNS = {
    "he", "she", "it", "they", "them", "him", "her", "his", "its", "their", "this", "that",
    "these", "those", "there", "someone", "somebody", "something", "everyone", "you", "we",
    "us", "our", "who", "which", "what", "one",
}
_STOP_ASPECT = {"stop", "quit", "cease", "give up", "discontinue", "abandon"}
_START_ASPECT = {"start", "begin", "continue", "keep", "resume", "take up"}
_FORGET = {"forget", "fail", "neglect", "omit"}
_REMEMBER = {"remember", "make sure", "ensure", "try"}
_LIKE_VERBS = {"like", "love", "enjoy", "hate", "dislike", "prefer", "adore", "detest"}
_DESIRE_VERBS = {"want", "hope", "plan", "wish", "intend", "aim", "dream", "aspire", "long",
                 "consider", "contemplate"}
"""Verbs whose infinitive complement is wanted, not done: "I want to move to Lisbon" says
nothing about where the user lives; it becomes (user, want, lisbon) as "like" does."""
_NOMINAL_MODIFIERS = {"amod", "compound", "nmod", "nummod", "quantmod", "poss", "case", "det",
                      "predet", "npadvmod", "advmod", "flat"}
_CLAUSE_DEPS = {"ROOT", "conj", "ccomp", "xcomp", "advcl", "relcl", "parataxis", "acl"}
_OBJECT_PREPS = {"in", "at", "to", "for", "on", "with", "from", "as", "into", "near", "by",
                 "about", "of", "under", "over"}
_COMPOUND_PREP_HEADS = {"out", "away", "off", "up", "down", "back", "ahead"}
"""Words that head a compound preposition over another one ("out of", "away from")."""
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+$|^[a-z]+(?:[A-Z][a-z0-9]+)+$")
"""A configuration identifier: snake_case, dotted ("db.pool_size") or camelCase."""
_RELATIONAL_NOUNS = frozenset("""
    fan member part lover supporter follower student regular subscriber customer patron
    employee volunteer resident citizen owner admirer devotee enthusiast
    """.split())
"""Nouns whose "of" complement is what they are about (relational nouns, Barker 1995
"Possessive Descriptions"): "a fan of thriller movies" and "a fan of horror movies" are two
values; the complement stays part of the value."""
_GROUP_NOUNS = frozenset("""
    club team group band choir church class league union party society association committee
    crew squad brigade guild organization organisation troupe orchestra gang circle
    community congregation cohort program programme course
    """.split())
"""Nouns for social groups (WordNet 3.1 social_group.n.01 and its hyponyms, with a course or
class one attends): to be "in" one is to be a member."""
_LABEL = re.compile(r"^\s*[A-Za-z][\w '\-]{0,40}:\s+(?=\S)")
"""A label before a colon that opens a line ("Launch plan: ...")."""
_CLAUSE_AFTER_LABEL = re.compile(r"\b(?:is|are|was|were|has|have|had)\b.*\b(?:is|are|was|"
                                 r"were|has|have|had)\b|\b(?:and|but)\b.*\b(?:is|are)\b")
"""A labelled line whose text holds clauses of their own (two finite verbs, or a coordinated
copula clause), not a ``key: value`` pair ("Likes: hiking", "Name: Chad")."""
_LOCATIVE_PREPS = {"in", "at", "near", "inside", "within"}
"""Prepositions whose object is a place: "the meeting is in Room 4" gives the place as the
attribute's value; "is on tenuous grounds", "is under review" describe a state."""
_KEY_VALUE = re.compile(
    r"^\s*(?P<key>[A-Za-z][\w .'/\-]{0,60}?)\s*(?::(?=\s)|=)"
    r"\s*(?P<value>\S[^\n]{0,80}?)\s*[.;]?\s*$")
"""A "key: value" or "key = value" line; the colon is followed by a space (a colon inside a
word or between digits is a name's or a time's: "CS:GO", "10:00Z")."""
_YEAR = re.compile(r"^(1[5-9]|20)\d\d$")
_TIME_WORDS = frozenset("""
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday today yesterday tomorrow tonight morning evening afternoon night week
    weekend month year quarter q1 q2 q3 q4 spring summer autumn fall winter
    """.split())
_ISO_DATE = re.compile(r"^(?:\d{4}-\d{2}|" + ISO_DATE.pattern + r")$", re.IGNORECASE)
"""A year and month, or a whole ISO 8601 date or date-time, which the pipeline's tokenizer keeps
as one token."""


_WHEN_NOUNS = frozenset("""
    age time moment point stage period while decade century childhood youth adulthood
    beginning start end
    """.split())
"""Nouns whose phrase says when, not what: "at the age of ten", "at that point"."""


def _no_value(pobj: Token) -> bool:
    """True for a prepositional object that is a time, an age, a duration or a bare number:
    it qualifies the predicate and is never the value of an entity-valued relation ("started
    working on cars at the age of ten" names no employer)."""
    return (_is_time(pobj) or pobj.lemma_.lower() in _WHEN_NOUNS or pobj.pos_ == "NUM"
            or any(c.dep_ == "nummod" for c in pobj.children) and _is_time(pobj))


def _misread_subject(head: Token) -> Token | None:
    """A name the parser labelled a bare noun-phrase adverbial (``npadvmod``) in front of a
    predicate that has no subject: the small model reads some first names as time
    expressions ("Tim owns a basketball" -> "Tim" npadvmod). A proper noun at the start of
    the clause, before its predicate, is the predicate's subject."""
    for child in head.children:
        if child.i >= head.i:
            break
        if child.dep_ in ("nsubj", "nsubjpass", "csubj", "csubjpass", "expl"):
            return None
        if (child.dep_ == "npadvmod" and child.pos_ == "PROPN" and not _is_time(child)
                and child.i == child.sent.start + (child.sent[0].dep_ == "det")):
            return child
    return None


def _habitual_past(verb: Token, xcomp: Token) -> bool:
    """"used to X": the past habit of ``verb`` "used" over the infinitive ``xcomp``."""
    return verb.lower_ == "used" and verb.tag_ == "VBD" and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in xcomp.children)


def _completed_past(head: Token) -> bool:
    """A past-tense predicate bounded before now: "worked at Amazon for three years before
    joining Shopify", "lived in Madrid until 2020" (a duration or a "before"/"until" bound on
    a simple past; the perfect "has worked for three years" still holds)."""
    if head.tag_ != "VBD":
        return False
    for child in head.children:
        if child.dep_ == "prep" and child.lower_ in ("before", "until", "till"):
            return True
        if child.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("before", "until")
                                         for m in child.children):
            return True
        if child.dep_ == "prep" and child.lower_ == "for" and any(
                p.dep_ == "pobj" and _is_time(p) and any(n.dep_ == "nummod" for n in p.children)
                for p in child.children):
            return True
    return False


def _is_time(token: Token) -> bool:
    """True for a date or time expression head ("2021", "March", "2026-03-02", "Monday").

    A lexical test rather than the NER component, which the pipeline leaves out for speed.
    """
    low = token.lower_
    return bool(_YEAR.match(low) or _ISO_DATE.match(low) or low in _TIME_WORDS
                or token.lemma_.lower() in _TIME_WORDS
                or (low.endswith("s") and low[:-1] in _TIME_WORDS))
_VERB_FORMS: dict[str, str] = {}


def _inflections(base: str) -> Iterator[str]:
    yield base
    stem = base[:-1] if base.endswith("e") else base
    yield base + ("es" if base.endswith(("s", "sh", "ch", "x")) else "s")
    yield stem + "ed" if not base.endswith("e") else base + "d"
    yield stem + "ing"


for _base in ("hate", "love", "like", "dislike", "detest", "loathe", "adore", "enjoy",
              "prefer", "forbid", "prohibit", "allow", "ban", "disable", "enable", "reject",
              "accept", "live", "move", "work", "use", "drink", "eat", "quit", "stop"):
    for _form in _inflections(_base):
        _VERB_FORMS.setdefault(_form, _base)
_VERB_FORMS.update({"banned": "ban", "banning": "ban", "stopped": "stop", "stopping": "stop",
                    "quitting": "quit", "preferred": "prefer", "preferring": "prefer",
                    "forbade": "forbid", "forbidden": "forbid"})


def _lemma(token: Token) -> str:
    """Lemma with spaCy's small-model slips on common verbs repaired ("hates" -> "hate")."""
    text = token.text.lower()
    if token.pos_ in ("VERB", "AUX") or text in _VERB_FORMS:
        return _VERB_FORMS.get(text, token.lemma_.lower())
    return token.lemma_.lower()


def _word(token: Token) -> str:
    """One token in canonical form: common nouns lemmatised (plural folded), spelling folded.
    Proper nouns stay as written: the small tagger tells NNP from NNPS inconsistently
    ("Philippines"), and a name's plural is part of the name ("Tapley Mountains"); but a
    recurring day or month is its name ("Fridays" -> "friday"). A capitalised word inside a
    sentence, or opening it before another capitalised word, that the tagger calls a common
    noun is such a name too ("originated from Leeds" tags "Leeds" NNS, "founded in Leeds"
    NNPS; both are "leeds"; "Sports Unlimited was created" keeps "sports")."""
    text = token.text.lower()
    name = token.pos_ == "PROPN" or (token.text[:1].isupper() and (
        token.i > token.sent.start or _capitalised(token.nbor(1) if token.i + 1 < len(
            token.doc) else token)))
    if token.pos_ == "NOUN" and token.tag_ in ("NNS", "NN") and not name:
        text = token.lemma_.lower()
    elif name and text.endswith("s") and text[:-1] in _TIME_WORDS:
        text = text[:-1]
    elif token.pos_ in ("VERB",) and token.tag_ == "VBG" and token.dep_ not in ("dobj", "pobj"):
        text = _lemma(token)  # a gerund object stays a noun: "do kickboxing" as "kickboxing"
    return SPELLING.get(text, text)


def _capitalised(token: Token) -> bool:
    """A word that starts with a capital letter (the next word of a name: "Sports Unlimited")."""
    return token.text[:1].isupper() and token.i > token.sent.start


def _is_negator(token: Token) -> bool:
    return token.dep_ == "neg" or token.lower_ in ("never", "no longer")


def _negated(head: Token) -> bool:
    """True when ``head`` carries a negation: "not", "n't", "never", "no longer"."""
    for child in head.children:
        if _is_negator(child):
            return True
        if child.dep_ == "advmod" and any(c.dep_ == "neg" for c in child.children):
            return True  # "no longer", "not anymore"
        if child.dep_ == "advmod" and child.lower_ in ("more", "longer") and any(
                c.lower_ == "no" for c in child.children):
            return True  # "I smoke no more": the parser makes "no" a determiner of "more"
    return False


def _no_longer(token: Token) -> bool:
    """True when ``token`` carries "no longer" / "no more" / "not anymore" itself."""
    return any(c.dep_ == "advmod" and c.lower_ in ("longer", "more", "anymore")
               and any(g.dep_ == "neg" or g.lower_ == "no" for g in c.children)
               for c in token.children)


_TRUE_WORDS = frozenset({"true", "correct", "right", "so", "case"})
_FALSE_WORDS = frozenset({"false", "untrue", "wrong", "incorrect"})


def _truth_frame(head: Token) -> bool | None:
    """Whether the truth frame around clause ``head`` affirms it (True: "It is true that I
    smoke", "It is the case that …") or denies it (False: "It's not true that I smoke", "It
    is false that …", "It is not the case that …"); None when ``head`` is in no such frame.
    The parser attaches the clause to "be" (ccomp) or, after "the case", to "case" (relcl)."""
    word = head.head
    if head.dep_ == "ccomp":
        frame = word
        word = next((c for c in frame.children if c.dep_ == "acomp"
                     and c.lower_ in _TRUE_WORDS | _FALSE_WORDS), None)
    elif head.dep_ == "relcl" and word.lower_ == "case" and word.dep_ == "attr":
        frame = word.head
    else:
        return None
    if word is None or frame.lemma_ != "be" or frame == head or not any(
            c.dep_ in ("nsubj", "expl") and c.lower_ == "it" for c in frame.children):
        return None
    return _negated(frame) == (word.lower_ in _FALSE_WORDS)


_QUOTES = {"'", '"', "‘", "’", "“", "”", "``", "''"}


def _quoted_span(token: Token) -> Span | None:
    """The words between the quotation marks around ``token`` in its sentence (a title:
    'The Name of the Wind', "Becoming Nicole"), or None when it is not quoted."""
    sent = token.sent
    marks = [t.i for t in sent if t.text in _QUOTES and not (
        t.text in ("'", "’") and t.i > sent.start and not t.nbor(-1).whitespace_
        and not t.whitespace_ and t.i + 1 < len(t.doc) and t.nbor(1).text[:1].isalpha())]  # an apostrophe inside a word ("rock'n'roll") is no quote
    for open_i, close_i in zip(marks[::2], marks[1::2]):
        if open_i < token.i < close_i and close_i - open_i > 1:
            return token.doc[open_i + 1:close_i]
    return None


def _span_tokens(head: Token, *, drop: set[str], keep_of: bool = False) -> list[Token]:
    """``head`` with its dependents, minus the subtrees whose dependency label is in ``drop``
    (an "of" phrase is kept when ``keep_of``)."""
    out = [head]
    for child in head.children:
        if child.dep_ in drop and not (keep_of and child.dep_ == "prep" and child.lower_ == "of"):
            continue
        out.extend(_span_tokens(child, drop=drop, keep_of=keep_of))
    return sorted(out, key=lambda t: t.i)


def _of_object(token: Token) -> Token | None:
    """The object of ``token``'s "of" phrase ("a glass of [wine]", "the city of [Paris]")."""
    return next((p for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
                 for p in c.children if p.dep_ == "pobj"), None)


def _prep_objects(prep: Token) -> list[tuple[str, Token]]:
    """(preposition, object) pairs of a prepositional phrase; a compound preposition joins its
    words ("out of Ohio" -> ("out of", Ohio))."""
    direct = [(prep.lower_, c) for c in prep.children if c.dep_ == "pobj"]
    if direct:
        return direct
    return [(f"{prep.lower_} {inner.lower_}", c) for inner in prep.children
            if inner.dep_ == "prep" for c in inner.children if c.dep_ == "pobj"]


_NP_DROP = {"prep", "relcl", "acl", "appos", "conj", "cc", "punct", "det", "neg", "advcl",
            "case", "predet", "cop", "aux", "auxpass", "ccomp", "mark", "dep", "parataxis",
            "npadvmod", "advmod", "poss", "xcomp"}


def _phrase(tokens: Iterable[Token]) -> str:
    words = [_word(t) for t in tokens
             if t.dep_ not in ("det", "case", "punct", "neg") and t.pos_ != "PUNCT"]
    return " ".join(w for w in words if w)


def _surface(tokens: list[Token]) -> str:
    if not tokens:
        return ""
    doc = tokens[0].doc
    return doc[tokens[0].i: tokens[-1].i + 1].text


_EXCEPT = {"except", "excluding", "unless", "save"}
_MODALS = {"might", "may", "could", "would", "should", "will", "shall", "'ll", "'d", "must",
           "wo"}  # "wo" is spaCy's token for the "wo" of "won't"
_CONDITIONAL_MARKS = {"if", "unless", "whether"}
"""Marks of a condition; "though" and "although" concede a fact, which stays asserted."""


def _is_question(sent: Span) -> bool:
    """A question asserts nothing: "Do I live in Lisbon?"."""
    last = next((t for t in reversed(sent) if not t.is_space), None)
    return last is not None and last.text.endswith("?")


_FRONTED_POS = frozenset({"ADP", "SCONJ", "ADV", "INTJ", "PRON", "DET", "CCONJ", "AUX"})


def _fronted_modifier(span: Span) -> bool:
    """True when a subject slot that opens the sentence and holds a comma or colon starts
    with a fronted modifier rather than a name ("In 2019, Bob", "Yesterday, Alice",
    "Honestly, Bob"): its first piece starts with a preposition, adverb, interjection,
    pronoun, determiner or conjunction, or is a date or time. :func:`extractors.lexicon.name_with_commas` has accepted its
    spelling; this is the parse's half of the test."""
    if span.start > span.sent.start or not any(t.text in (",", ":") for t in span):
        return False  # after literal text, nothing is fronted: "The language of Secretly, …"
    first = span[0]
    if first.pos_ in _FRONTED_POS:
        return True
    comma = next(t for t in span if t.text in (",", ":"))
    return any(_is_time(t) for t in span[:comma.i - span.start])


def _hypothetical(head: Token) -> bool:
    """A clause that states a possibility, plan or condition rather than a fact: a modal
    auxiliary other than "can" ("I might move to Lisbon", "I will work at Globex next
    month"), or a conditional clause ("if I move to Lisbon"). "can"/"can't" stay: "I can't
    eat gluten" is a standing fact."""
    for child in head.children:
        if child.dep_ in ("aux", "auxpass") and child.tag_ == "MD" and child.lower_ in _MODALS:
            return True
        if child.dep_ == "mark" and child.lower_ in _CONDITIONAL_MARKS:
            return True
        if child.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in _CONDITIONAL_MARKS
                                         for m in child.children):
            return True  # the consequent of a condition: "If I move, my rent is …"
    if head.lower_ == "going" and any(c.dep_ == "xcomp" and c.tag_ == "VB"
                                      for c in head.children):
        return True  # "I am going to move to Porto"
    return head.dep_ == "xcomp" and head.head.lower_ == "going" and head.tag_ == "VB"


def _with_exceptions(doc: Doc, triples: list[Triple]) -> list[Triple]:
    """Attach an ``except`` qualifier to the triples of a sentence that states an exception
    ("… within 30 days, except for enterprise plans"), so the rule with the exception stays
    distinct from the rule without it."""
    low = doc.text.lower()
    if not any(word in low for word in _EXCEPT):
        return triples  # no exception word at all: skip the walk over every token
    spans = {}
    for sent in doc.sents:
        words = [t for t in sent if t.lower_ in _EXCEPT and t.dep_ in ("prep", "mark", "cc")]
        if words:
            tail = [t for w in words for t in w.subtree if t.i != w.i and t.dep_ != "det"
                    and t.pos_ != "PUNCT" and t.lower_ not in ("for", "of")]
            spans[(sent.start_char, sent.end_char)] = " ".join(_word(t) for t in tail)
    if not spans:
        return triples
    out = []
    for t in triples:
        exception = spans.get((t.start, t.end))
        if exception:
            quals = tuple(sorted(set(t.qualifiers) | {("except", exception)}))
            t = Triple(**{**t.to_dict(), "qualifiers": quals})
        out.append(t)
    return out


def _imperative(verb: Token) -> bool:
    """A root verb in base form with no subject, first in its sentence but for auxiliaries,
    negation and adverbs ("Do not forget to …", "Always use tabs")."""
    if verb.dep_ != "ROOT" or verb.tag_ not in ("VB", "VBP"):
        return False
    return all(t.dep_ in ("aux", "neg", "advmod", "punct") for t in verb.sent
               if t.i < verb.i)


def _age(token: Token) -> str | None:
    """"34 years old" -> "34" (an age in years), else None; also inside a noun phrase ("a 46
    year old single dad")."""
    if token.lower_ != "old":
        if token.pos_ in ("NOUN", "PROPN"):
            return next((a for c in token.children if c.dep_ == "amod"
                         and (a := _age(c)) is not None), None)
        return None
    for child in token.children:
        if child.dep_ == "npadvmod" and child.lemma_.lower() in ("year", "yr"):
            num = next((c for c in child.children if c.dep_ == "nummod"), None)
            if num is not None:
                return normalize_value(num.text)
    return None


_LOWER_I = re.compile(r"(?<![\w'])i(?=\s|'|$)")


def truecase(text: str) -> str:
    """Capitalise the pronoun "i" of lower-cased chat text, which the small parser otherwise
    tags as a noun. Same length, so character offsets stay valid."""
    if not (" i " in f" {text} " or "i'" in text):
        return text
    return _LOWER_I.sub(_pronoun_i, text)


def _pronoun_i(m: re.Match) -> str:
    """"I" unless the "i" sits between two capitalised words, inside a name ("Josep
    Tarradellas i Joan", Catalan "and")."""
    before = m.string[:m.start()].rstrip().rsplit(" ", 1)[-1]
    after = m.string[m.end():].lstrip().split(" ", 1)[0]
    return "i" if before[:1].isupper() and after[:1].isupper() else "I"


def _infinitive_complements(head: Token) -> list[Token]:
    """The "to" infinitives a copula takes as its complement ("my goal is to run")."""
    if head.lemma_ != "be" or head.pos_ != "AUX":
        return []
    return [c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB"
            and not _negated(c) and any(a.dep_ == "aux" and a.lower_ == "to"
                                        for a in c.children)]


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
    for comp in complements:
        if comp.dep_ == "acomp" or comp.pos_ == "ADJ":
            continue
        det = next((c for c in comp.children if c.dep_ == "det"), None)
        if comp.pos_ != "NOUN" or (det is not None and det.lower_ not in ("a", "an")) or any(
                c.dep_ == "poss" for c in comp.children):
            return False
    return True


_ANAPHORS = {"it", "he", "she", "they"}
"""Sentence-initial pronouns resolved to the subject of a wh-question just before them
(singular "they" included: "Which position does Ana play? They play as goalkeeper.")."""


def _question_antecedent(sent: Span) -> Token | Span | None:
    """What a sentence-initial "it"/"he"/"she"/"they" answers about when the sentence before
    is a wh-question on one noun phrase: "Where is Cleveland Classic? It is located in
    Cleveland." -> the head of "Cleveland Classic"; "Which position does Ana play? They play
    as goalkeeper." -> "Ana". Anything else is left unresolved."""
    if sent.start == 0:
        return None
    question = sent.doc[sent.start - 1].sent
    if not _is_question(question) or question[0].tag_ not in ("WRB", "WP", "WDT"):
        return None
    subject = next((c for c in question.root.children if c.dep_ in ("nsubj", "nsubjpass")),
                   None)
    if subject is None or subject.pos_ not in ("NOUN", "PROPN") \
            or subject == question[0].head:  # "Which team …": the asked-for noun is no topic
        return _do_support_subject(question)
    return subject


_NAME_POS = frozenset({"PROPN", "NOUN", "ADJ", "NUM", "DET", "PART", "PUNCT"})


def _do_support_subject(question: Span) -> Span | None:
    """The subject of a wh-question with do-support, read off the word order when the parse
    misses it: "Which position does [Mark Visentin] play?", "Which team does [Ana] coach?"
    (the small parser often attaches the name as a compound of the verb or of a nominal
    "play"). English puts the subject between the auxiliary "do" and the bare main verb
    (subject–auxiliary inversion; Huddleston & Pullum 2002, ch. 10), so the words there are
    the subject when they hold a name or noun and no pronoun or verb.

    Returns:
        The subject's span, or None when the question has another shape.
    """
    words = [t for t in question if not t.is_punct]
    aux = next((t for t in words[1:4] if t.lower_ in ("do", "does", "did")), None)
    if aux is None or len(words) < 3 or words[-1].i <= aux.i + 1:
        return None
    span = question.doc[aux.i + 1:words[-1].i]
    if not any(t.pos_ in ("PROPN", "NOUN") for t in span) or \
            any(t.pos_ not in _NAME_POS for t in span) or span[0].pos_ == "PUNCT":
        return None
    return span


def _span_phrase(span: Span) -> str:
    """Canonical words of a span, without articles and punctuation (by the words' own
    spelling: the parser sometimes labels a name such as "SouthFM" as punctuation)."""
    return " ".join(w for w in (_word(t) for t in span
                                if t.dep_ not in ("det", "case", "neg") and not t.is_punct)
                    if w)


def _fronted_gerund(head: Token) -> Token | None:
    """A sentence-initial gerund clause that the small parser attached as ``advcl`` although it
    is the subject ("Deploying on Fridays is forbidden.")."""
    first = head.sent[0]
    for child in head.children:
        if child.dep_ == "advcl" and child.tag_ == "VBG" and child.i == first.i:
            return child
    return None


class TripleExtractor:
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

    # -- public API -------------------------------------------------------------------------
    def extract(self, text: str) -> list[Triple]:
        """Triples of one text, deduplicated, in text order."""
        read, shift = self._readable(text)
        return _shifted(self.triples_from_doc(self.nlp(read)), shift)

    def _readable(self, text: str) -> tuple[str, int]:
        """The text as parsed, and how many characters were put in front: a subject-less
        memory-writer fact is read in the first person (:mod:`extractors.memory_forms`)."""
        text = truecase(text)
        label = _LABEL.match(text)
        if label is not None and _CLAUSE_AFTER_LABEL.search(text, label.end()):
            # "Launch plan: the go-live date is … and the share is …": each clause keeps its
            # own subject; the label only names the topic
            return text[label.end():], -label.end()
        return in_first_person(text, self._is_verb) or (text, 0)

    def _is_noun(self, form: str) -> bool:
        """Whether ``form`` is in the lemmatizer's index of nouns."""
        if not hasattr(self, "_nouns"):
            try:
                self._nouns = set(self.nlp.get_pipe("lemmatizer").lookups
                                  .get_table("lemma_index")["noun"])
            except (KeyError, ValueError):
                self._nouns = set()
        return form in self._nouns

    def _is_verb(self, base: str) -> bool:
        tables = self._verb_tables()
        return tables is not None and base in tables[2]

    def extract_many(self, texts: Iterable[str], batch_size: int = 256,
                     n_process: int = 1) -> list[list[Triple]]:
        """Triples for many texts, parsed in batches with ``nlp.pipe``; one list per text.

        Args:
            texts: the texts.
            batch_size: texts per parser batch.
            n_process: worker processes. With more than one, the texts are cut into chunks and
                each worker parses *and* extracts its chunks, returning only triples (parsed
                ``Doc`` objects never cross a process boundary). Workers are forked, so they
                share this extractor's loaded pipeline and tables instead of loading them
                again; where ``fork`` is unavailable the texts are processed here.

        Returns:
            ``len(texts)`` lists of triples, in input order, equal to ``[extract(t) for t in
            texts]``.
        """
        texts = list(texts)
        chunk = max(batch_size, -(-len(texts) // (4 * max(1, n_process))))
        if (n_process <= 1 or len(texts) <= batch_size
                or "fork" not in multiprocessing.get_all_start_methods()):
            return self._extract_chunk(texts, batch_size)
        chunks = [texts[i:i + chunk] for i in range(0, len(texts), chunk)]
        _FORKED[:] = [self]
        try:
            with multiprocessing.get_context("fork").Pool(n_process) as pool:
                parts = pool.map(_extract_in_worker,
                                 [(part, batch_size) for part in chunks], chunksize=1)
        finally:
            _FORKED.clear()
        return [triples for part in parts for triples in part]

    def _extract_chunk(self, texts: list[str], batch_size: int) -> list[list[Triple]]:
        readable = [self._readable(t) for t in texts]
        docs = self.nlp.pipe((text for text, _ in readable), batch_size=batch_size)
        return [_shifted(self.triples_from_doc(doc), shift)
                for doc, (_, shift) in zip(docs, readable)]

    def triples_from_doc(self, doc: Doc) -> list[Triple]:
        """Triples of a parsed document."""
        found: list[Triple] = []
        found.extend(self._key_values(doc))
        if self.patterns:
            found.extend(self._pattern_triples(doc))
        found.extend(self._rule_triples(doc))
        # a continent's name makes a location the continent relation (both for "australia")
        placed: list[Triple] = []
        for t in found:
            relations = place_relations(t.relation, t.object)
            if relations == (t.relation,):
                placed.append(t)
            else:
                placed += [Triple(**{**t.to_dict(), "relation": r, "qualifiers": t.qualifiers})
                           for r in relations]
        found = self._unique(_with_exceptions(doc, placed))
        ended = {(t.subject, t.relation, t.object) for t in found if t.rule == ENDED_RULE}
        if ended:
            # "Melanie's dog Luna passed away" presupposes the dog it says she no longer has
            found = [t for t in found if t.negated or t.rule != "presupposition"
                     or (t.subject, t.relation, t.object) not in ended]
        return found

    def _rule_triples(self, doc: Doc) -> list[Triple]:
        found: list[Triple] = []
        for sent in doc.sents:
            if _is_question(sent):
                continue
            for token in sent:
                if token.dep_ in _CLAUSE_DEPS or token.head == token:
                    found.extend(self._clause(token))
                elif token.dep_ == "poss" and token.head.lemma_.lower() in RELATIONSHIP_NOUNS:
                    found.extend(self._presupposed(token))
        return found

    def _presupposed(self, owner: Token) -> list[Triple]:
        """``(owner, have, X)`` for a possessed relationship noun: "my wife spends all my
        money" presupposes that the user has a wife (the existence presupposition of
        possessive descriptions, Karttunen 1973 "Presuppositions of compound sentences")."""
        who = self._entity(owner)
        noun = owner.head
        if not who or noun.pos_ != "NOUN":
            return []
        words = [t for t in _span_tokens(noun, drop=_NP_DROP) if t.dep_ != "poss"]
        value = normalize_value(_phrase(words))
        return [self._make(who, "have", value, _surface(words), negated=False, clause=noun,
                           rule="presupposition")] if value else []

    def _pattern_triples(self, doc: Doc) -> list[Triple]:
        """Triples of sentences that instantiate a ParaRel pattern (rule ``pattern``)."""
        out = []
        for sent in doc.sents:
            seen = set()
            if _is_question(sent):
                continue
            for pat, (xs, xe), (ys, ye) in match_patterns(sent.text, self._pattern_index):
                base = sent.start_char
                x = doc.char_span(base + xs, base + xe, alignment_mode="expand")
                y = doc.char_span(base + ys, base + ye, alignment_mode="expand")
                if x is None or y is None:
                    continue
                if any(span.start > sent.start and span[0].pos_ in ("VERB", "AUX")
                       and not span[0].text[:1].isupper() for span in (x, y)):
                    continue  # a slot after literal text swallowed a clause: "is known for …"
                    # (a capitalised one is a title: "The language of Being Julia is …")
                if _fronted_modifier(x):
                    continue  # "In 2019, Bob was born in Paris": "In 2019" is no part of Bob
                subject = self._span_entity(x)
                surface = y.text
                if y.root.pos_ == "NOUN" and y.root.lemma_.lower() in _CONTAINER_NOUNS and \
                        y.root.i == y.start + (y[0].dep_ == "det"):
                    value, surface = self._value(y.root)  # "the city of Barcelona"
                else:
                    value = normalize_value(surface) if is_quantity(surface) else \
                        normalize_value(_span_phrase(y))
                if not subject or not value or (pat.relation, value) in seen:
                    continue
                if pat.objects is not None and value not in pat.objects \
                        and normalize_value(surface) not in pat.objects:
                    continue  # a typed pattern: not an object of its relation
                seen.add((pat.relation, value))
                out.append(Triple(subject=subject, relation=pat.relation, object=value,
                                  start=sent.start_char, end=sent.end_char,
                                  object_text=surface, rule="pattern"))
        return out

    def _span_entity(self, span: Span) -> str | None:
        low = span.text.lower()
        if low in _FIRST_PERSON or low in ("the user", "user"):
            return USER
        if low in _ANAPHORS and span.start == span.sent.start:
            return self._antecedent_entity(_question_antecedent(span.sent))
        if low in _UNRESOLVED_PRONOUNS:
            return None
        if len(span) > 1 and span[0].lower_ == "my":  # "my father" as _entity spells it
            rest = _span_phrase(span[1:])
            return f"{USER}'s {rest}" if rest else None
        return _span_phrase(span) or None

    @staticmethod
    def _unique(found: list[Triple]) -> list[Triple]:
        """One triple per fact, in first-seen order; a repeat's qualifiers are kept when the
        first had none."""
        kept: dict[tuple, Triple] = {}
        for triple in found:
            if not (triple.subject and triple.relation):
                continue
            if not triple.object and triple.rule != "state":
                continue  # the object was a pronoun we cannot resolve
            first = kept.get(triple.fact)
            if first is None:
                kept[triple.fact] = triple
            elif not first.qualifiers and triple.qualifiers:
                kept[triple.fact] = Triple(**{**triple.to_dict(), "qualifiers": triple.qualifiers,
                                              "rule": first.rule})
        return list(kept.values())

    # -- subjects ---------------------------------------------------------------------------
    def _subject_token(self, verb: Token) -> Token | None:
        for child in verb.children:
            if child.dep_ in ("nsubj", "nsubjpass", "csubj", "csubjpass", "expl"):
                if child.dep_ == "expl":
                    return None
                return child
        misread = _misread_subject(verb)
        if misread is not None:
            return misread
        if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head != verb:
            return self._subject_token(verb.head)
        if verb.dep_ in ("relcl", "acl") and verb.head != verb:
            return verb.head
        return None

    def _entity(self, token: Token) -> str | None:
        """Canonical subject for a noun phrase head; None for an unresolvable pronoun."""
        low = token.lower_
        if token.text == "i" and self._name_internal(token):
            return None  # "Josep Tarradellas i Joan": Catalan "and", not the pronoun
        if low in _FIRST_PERSON:
            return USER
        if token.tag_ in ("WP", "WP$", "WDT"):
            return self._relative_antecedent(token)
        if low in _ANAPHORS and token.i == token.sent.start:
            antecedent = _question_antecedent(token.sent)
            if antecedent is not None:  # "Where is the backup? It is in S3."
                return self._antecedent_entity(antecedent)
        if low in _POSSESSIVE_PRONOUNS and token.dep_ == "poss":
            return self._possessor_antecedent(token)
        if low in _UNRESOLVED_PRONOUNS:
            return None
        if token.dep_ in ("csubj", "csubjpass") or token.pos_ == "VERB":
            return _phrase(t for t in token.subtree)
        # names keep their "of" phrase: "Bank of America", "Club of Queensland"
        tokens = _span_tokens(token, drop=_NP_DROP, keep_of=token.pos_ == "PROPN")
        text = _phrase(tokens)
        if text in ("user", "the user"):
            return USER
        owner = next((c for c in token.children if c.dep_ == "poss"), None)
        if text and owner is not None and token.pos_ in ("NOUN", "PROPN"):
            # "my wife", "Bob's wife": the possessor stays part of who is meant
            who = self._entity(owner)
            return f"{who}'s {text}" if who else None
        return text or None

    def _possessor_antecedent(self, pronoun: Token) -> str | None:
        """What "his" / "her" / "their" refers to: the named subject of the nearest clause
        that governs the pronoun's clause ("Tim says his favourite book is X" -> tim), the
        subject-antecedent preference of pronoun resolution (Hobbs 1978, "Resolving pronoun
        references"). None when no governing clause has a proper-noun subject."""
        own = pronoun.head
        for ancestor in own.ancestors:
            subj = next((c for c in ancestor.children if c.dep_ in ("nsubj", "nsubjpass")
                         and c != own and own not in c.subtree), None)
            if subj is not None and subj.i < pronoun.i and (
                    subj.pos_ == "PROPN" or any(t.pos_ == "PROPN" for t in subj.subtree)):
                return self._entity(subj)
        return None

    def _antecedent_entity(self, antecedent: Token | Span | None) -> str | None:
        """The canonical subject a question's answer is about (:func:`_question_antecedent`):
        a noun phrase head as :meth:`_entity` spells it, a span as :func:`_span_phrase` does."""
        if antecedent is None:
            return None
        if isinstance(antecedent, Span):
            return _span_phrase(antecedent) or None
        return self._entity(antecedent)

    @staticmethod
    def _name_internal(token: Token) -> bool:
        """A lower-case word between two capitalised ones, as :func:`truecase` leaves it."""
        doc = token.doc
        return (0 < token.i < len(doc) - 1 and doc[token.i - 1].text[:1].isupper()
                and doc[token.i + 1].text[:1].isupper())

    def _relative_antecedent(self, token: Token) -> str | None:
        """The noun a relative pronoun ("who", "whose", "which") stands for."""
        for ancestor in token.ancestors:
            if ancestor.dep_ == "relcl":
                return self._entity(ancestor.head)
        return None

    def _topic(self, cop: Token, subj: Token) -> str | None:
        """A fronted scene-setter that names what an implicit attribute belongs to.

        "On rack 4 the preferred glaze is …" and "Update for rack 4: the preferred glaze
        is …" -> "rack 4"; dates and times are never topics ("In 2021, …").
        """
        candidates = [p for p in cop.children if p.dep_ == "prep" and p.i < subj.i]
        colon = next((t for t in cop.sent if t.text == ":" and t.i < subj.i), None)
        if colon is not None:
            candidates += [t for t in cop.sent if t.dep_ == "prep" and t.i < colon.i
                           and t.lower_ in ("for", "on", "at", "in", "about")]
        for prep in candidates:
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            if pobj is None or _is_time(pobj):
                continue
            return self._entity(pobj)
        return None

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
        rel_tokens = sorted([noun] + [t for m in mods for t in m.subtree], key=lambda t: t.i)
        for child in noun.children:
            if child.dep_ == "poss":
                who = self._entity(child)
                return (who, rel_tokens) if who else None
        # a definite role or setting "for" an owner: "the release manager for version 2",
        # "the budget for Q3" (a definite description names one holder, as "of" does)
        definite = any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
        owner_for = next((p for c in noun.children if c.dep_ == "prep" and c.lower_ == "for"
                          for p in c.children if p.dep_ == "pobj"), None)
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

    def _known(self, relation: str) -> bool:
        return (relation in self.table.functional or relation in self.table.multi_valued
                or relation.startswith("preferred ") or relation in self.table.synonyms.values())

    # -- values -----------------------------------------------------------------------------
    def _value(self, token: Token) -> tuple[str, str]:
        """(canonical value, surface text) of an object head; ``("", "")`` for a pronoun.

        Container nouns give way to what they contain: "the city of Madrid" -> "madrid",
        "the French language" -> "french".
        """
        quoted = _quoted_span(token)
        if quoted is not None:  # a title in quotes is one value: 'The Name of the Wind'
            return normalize_value(quoted.text), quoted.text
        named = any(c.dep_ == "det" for c in token.children)  # "the Who" is a band
        if (token.pos_ == "PRON" or token.lower_ in _UNRESOLVED_PRONOUNS) and not named:
            return "", ""
        lemma = token.lemma_.lower()
        # a measure or sort gives way to what it measures, but not after a copula ("Bavaria
        # is part of Germany" is the lexicon's "part of"); a container to what it contains
        if (lemma in _PARTITIVE_NOUNS and token.dep_ != "attr") or lemma in _CONTAINER_NOUNS:
            inner = _of_object(token)
            if inner is not None:
                return self._value(inner)
        if lemma == "language":  # "the French language" -> "french"
            mods = [c for c in token.children if c.dep_ in ("amod", "compound")]
            if mods:
                words = " ".join(normalize_value(_phrase(m.subtree)) for m in mods)
                return words, _surface(sorted((t for m in mods for t in m.subtree),
                                              key=lambda t: t.i))
        tokens = _span_tokens(token, drop=_NP_DROP - {"npadvmod", "advmod"} | {"poss"},
                              keep_of=lemma in _RELATIONAL_NOUNS)
        # a rate keeps its unit: "100 requests per minute" is no "100 requests per hour"
        tokens += [t for c in token.children if c.dep_ == "prep" and c.lower_ == "per"
                   for t in c.subtree]
        tokens.sort(key=lambda t: t.i)
        # a frequency is no part of the value: "twenty books a year" -> "twenty book"
        every = {t.i for c in token.children if c.dep_ == "npadvmod" and _is_time(c)
                 for t in c.subtree}
        tokens = [t for t in tokens if t.dep_ not in ("det", "neg") and t.i not in every]
        # "a charity run": the tagger reads a noun after a noun as a bare participle; a bare
        # participle right after the head that the lemmatizer knows as a noun is the head
        tokens += [c for c in token.children if c.dep_ == "acl" and c.i == token.i + 1
                   and c.tag_ in ("VBN", "VBD", "VB") and self._is_noun(c.lower_)
                   and not any(g.dep_ in ("dobj", "agent", "prep", "auxpass")
                               for g in c.children)]
        tokens.sort(key=lambda t: t.i)
        if not tokens:
            tokens = [token]
        surface = _surface(tokens)
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

    def _objects(self, head: Token) -> list[Token]:
        """``head`` and the conjuncts coordinated with it ("tea and coffee")."""
        out = [head]
        for child in head.children:
            if child.dep_ in ("conj", "appos"):
                out.extend(self._objects(child))
            elif child.dep_ == "acl" and child.lemma_.lower() in ("name", "call"):
                # "a dog named Luna": the name is the same thing, a second object
                out.extend(c for c in child.children
                           if c.dep_ in ("oprd", "attr", "dobj") and c.pos_ == "PROPN")
            elif child.dep_ == "prep" and (child.lower_ == "including" or (
                    child.lower_ == "as" and any(c.lower_ == "such" for c in child.children))):
                # an example is an object too: "sports such as running", "fruit including
                # apples and pears"
                for example in (c for c in child.children if c.dep_ in ("pobj", "pcomp")):
                    out.extend(self._objects(example))
        return out

    # -- clauses ----------------------------------------------------------------------------
    def _clause(self, head: Token) -> list[Triple]:
        """Triples of one predicate head; coordinated subjects ("Alice and I live in Nice")
        each get the triples of the first."""
        found = self._clause_triples(head)
        subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if not found or subj is None:
            return found
        others = [c for c in self._objects(subj)[1:] if c.dep_ == "conj"]
        first = self._entity(subj) if others else None
        for other in others:
            who = self._entity(other)
            if who and first and who != first:
                found += [Triple(**{**t.to_dict(), "subject": who, "qualifiers": t.qualifiers})
                          for t in found if t.subject == first]
        return found

    def _clause_triples(self, head: Token) -> list[Triple]:
        found = self._clause_triples_as_stated(head)
        if found and _truth_frame(head) is False:
            found = [Triple(**{**t.to_dict(), "negated": not t.negated,
                               "qualifiers": t.qualifiers}) for t in found]
        return found

    def _clause_triples_as_stated(self, head: Token) -> list[Triple]:
        if _hypothetical(head):
            return []
        if head.lemma_ == "be" and head.pos_ == "AUX" and head.dep_ not in ("aux", "auxpass"):
            return self._with_state_changes(head, self._copula(head))
        if head.pos_ == "VERB":
            if any(c.dep_ == "auxpass" for c in head.children):
                return self._with_state_changes(head, self._passive(head))
            if head.dep_ == "xcomp" and (_lemma(head.head) in (
                    _STOP_ASPECT | _START_ASPECT | _LIKE_VERBS | _DESIRE_VERBS)
                    or _habitual_past(head.head, head)):
                return []  # handled from the governing verb
            if head in _infinitive_complements(head.head):
                return []  # "my goal is to run …": a value of the copula's subject
            return self._with_state_changes(head, self._active(head))
        return []

    def _with_state_changes(self, verb: Token, triples: list[Triple]) -> list[Triple]:
        """``triples`` and what their predicates end or leave behind
        (:meth:`extractors.state_changes.StateChanges.derive`)."""
        governed = {c.lower_ for c in verb.children if c.dep_ in ("prep", "dative", "prt")}
        derived = [d for t in triples for d in self.state_changes.derive(t, governed)]
        return triples + derived if derived else triples

    def _gerund_object(self, verb: Token) -> tuple[str, Token | None, Token] | None:
        """The activity in a noun-tagged gerund object of ``verb``, what it acts on, and the
        gerund: ``("smoke", None, smoking)`` for "quit smoking", ``("drink", coffee,
        drinking)`` for "quit drinking coffee" (the small model tags "drinking" as a compound
        noun); None otherwise."""
        obj = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
        if obj is None:
            return None
        first = next((c for c in obj.children if c.dep_ == "compound" and c.i < obj.i), None)
        if first is not None and first.lower_.endswith("ing"):
            base = self._verb_base(first.lower_)
            return (base, obj, first) if base else None
        if obj.lower_.endswith("ing") and obj.tag_ in ("NN", "VBG") and not any(
                c.dep_ in ("det", "poss", "amod", "compound") for c in obj.children):
            base = self._verb_base(obj.lower_)
            return (base, None, obj) if base else None
        return None

    def _verb_base(self, form: str) -> str | None:
        """The verb an ``-ing`` form comes from, by the pipeline's own verb lemma tables
        (spaCy's English lemmatizer: exceptions, suffix rules, the index of known verbs);
        None when no known verb fits ("ceiling", "morning")."""
        if form in _VERB_FORMS:
            return _VERB_FORMS[form]
        lookups = self._verb_tables()
        if lookups is None:
            return None
        exceptions, rules, index = lookups
        if form in exceptions:
            return exceptions[form][0]
        for old, new in rules:
            if old == "ing" and form.endswith(old):
                stem = form[:-len(old)] + new
                if stem in index:
                    return stem
                if len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in index:
                    return stem[:-1]  # "running" -> "run"
        return None

    def _verb_tables(self) -> tuple[dict, list, set] | None:
        if not hasattr(self, "_verb_lookups"):
            try:
                tables = self.nlp.get_pipe("lemmatizer").lookups
                self._verb_lookups = (tables.get_table("lemma_exc")["verb"],
                                      tables.get_table("lemma_rules")["verb"],
                                      set(tables.get_table("lemma_index")["verb"]))
            except (KeyError, ValueError):
                self._verb_lookups = None
        return self._verb_lookups

    def _make(self, subject: str, relation_phrase: str, value: str, surface: str, *,
              negated: bool, clause: Token, rule: str,
              qualifiers: Iterable[tuple[str, str]] = ()) -> Triple:
        relation, flips = self.table.canonical(relation_phrase)
        relation = self._induced.get(relation, relation)
        sent = clause.sent
        return Triple(subject=subject, relation=relation, object=value,
                      negated=negated != flips, start=sent.start_char, end=sent.end_char,
                      object_text=surface, qualifiers=tuple(sorted(set(qualifiers))), rule=rule)

    def _state(self, subject: str, word: Token, *, negated: bool, clause: Token,
               qualifiers: Iterable[tuple[str, str]] = ()) -> Triple:
        """``(subject, be, state)`` for an adjective or participle predicate, antonyms folded:
        "is forbidden" -> negated ``be allow``; "is closed" -> negated ``be open``."""
        lemma = _lemma(word) if word.pos_ == "VERB" else word.lemma_.lower()
        flips = False
        if lemma in self.table.antonyms:
            lemma, flips = self.table.antonyms[lemma], True
        elif f"be {word.lower_}" in self.table.antonyms:
            lemma, flips = self.table.antonyms[f"be {word.lower_}"].removeprefix("be "), True
        triple = self._make(subject, "be", lemma, word.text, negated=negated != flips,
                            clause=clause, rule="state", qualifiers=qualifiers)
        return triple

    def _time_qualifiers(self, head: Token) -> list[tuple[str, str]]:
        quals = [("time", "past")] if _completed_past(head) else []
        for child in head.children:
            if child.dep_ == "prep":
                for pobj in child.children:
                    if pobj.dep_ == "pobj" and _is_time(pobj):
                        words = [w[:-1] if w.endswith("s") and w[:-1] in _TIME_WORDS else w
                                 for w in _phrase(pobj.subtree).split()]
                        quals.append(("time", " ".join(words)))
        return quals

    def _copula(self, cop: Token) -> list[Triple]:
        subj = next((c for c in cop.children if c.dep_ in ("nsubj", "csubj")), None)
        if subj is None:
            subj = _misread_subject(cop)
        if subj is None:
            subj = _fronted_gerund(cop)
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
        negated_alternatives = [c for c in cop.children
                                if c.dep_ in ("xcomp", "conj", "appos") and _negated(c)
                                and c.pos_ != "AUX"]
        preps = [c for c in cop.children if c.dep_ == "prep" and c.i > subj.i]
        topic = self._topic(cop, subj)
        places = [("place", topic)] if topic else []
        split = self._split_attribute(subj, topic) if subj.dep_ == "nsubj" else None
        if split is not None and _predicational(subj, complements, bool(preps)):
            split = None  # "my father is a farmer": about the father, (user's father, be, …)
        if split is None and subj.dep_ == "nsubj" and complements and all(
                is_quantity(self._value(o)[1]) for c in complements for o in self._objects(c)):
            split = self._measured_attribute(subj, topic)
            preps = [] if split is not None else preps  # "… is 1200 C at peak": no value
        out: list[Triple] = []
        if split is not None:
            subject, rel_tokens = split
            relation_phrase = _phrase(rel_tokens)
            plural = rel_tokens[-1].tag_ == "NNS"
            rule = "attribute_set" if plural else "attribute"
            values = [o for c in complements for o in self._objects(c)]
            for prep in preps:
                if prep.lower_ not in _LOCATIVE_PREPS:
                    continue  # "Jon's dance studio is on tenuous grounds": a state, no value
                values += [o for c in prep.children if c.dep_ == "pobj" for o in self._objects(c)]
            for value_token in values:
                alt_neg = _negated(value_token) and value_token not in complements
                value, surface = self._value(value_token)
                out.append(self._make(subject, relation_phrase, value, surface,
                                      negated=neg or alt_neg, clause=cop, rule=rule,
                                      qualifiers=places))
            for value, surface in self._infinitive_values(cop, subject):
                # "my current goal is to run a marathon" -> (user, current goal, run marathon)
                out.append(self._make(subject, relation_phrase, value, surface, negated=neg,
                                      clause=cop, rule=rule, qualifiers=places))
            for alt in negated_alternatives:
                value, surface = self._value(alt)
                out.append(self._make(subject, relation_phrase, value, surface, negated=True,
                                      clause=cop, rule=rule, qualifiers=places))
            return out
        subject = self._entity(subj)
        if subject is None:
            return []
        for comp in complements:
            for value_token in self._objects(comp):
                negated = neg or (_negated(value_token) and value_token != comp)
                age = _age(value_token)
                if age is not None:
                    out.append(self._make(subject, "age", age, age, negated=negated,
                                          clause=cop, rule="attribute", qualifiers=places))
                if age is not None and value_token.lower_ == "old":
                    pass  # "34 years old" says the age only; "a 46 year old dad" says more
                elif value_token.pos_ in ("ADJ", "VERB", "ADV") and comp.dep_ == "acomp":
                    out.append(self._state(subject, value_token, negated=negated, clause=cop,
                                           qualifiers=places))
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
                    group = _of_object(value_token) if value_token.lemma_.lower() in (
                        "member", "part") else None
                    if group is not None:
                        # "is a member / part of the hiking club": the membership itself
                        value, surface = self._value(group)
                        out.append(self._make(subject, "member of", value, surface,
                                              negated=negated, clause=cop, rule="copula",
                                              qualifiers=places))
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
                    if words == "in" and value_token.lemma_.lower() in _GROUP_NOUNS:
                        # "is (not) in the hiking club": a membership
                        out.append(self._make(subject, "member of", value, surface,
                                              negated=neg, clause=cop, rule="prep_object",
                                              qualifiers=places))
        return out

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
            return out
        subject = self._entity(patient)
        if subject is None:
            return []
        participle = "be " + verb.lower_
        preps = [c for c in verb.children if c.dep_ == "prep" and c.lower_ in _OBJECT_PREPS]
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

    def _active(self, verb: Token, *, subject: str | None = None,
                negated: bool = False) -> list[Triple]:
        inherited = subject is not None
        if subject is None:
            subj = self._subject_token(verb)
            if subj is None and _imperative(verb):
                subject = USER  # an instruction is the user's own rule: "Always use tabs."
            elif subj is None:
                return []
            else:
                subject = self._entity(subj)
            if subject is None:
                return []
        neg = negated != _negated(verb)
        lemma = _lemma(verb)
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
        base = f"{lemma} {particle}" if particle else lemma
        xcomp = next((c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), None)
        if xcomp is not None and base == "go" and xcomp.tag_ == "VBG":
            return self._active(xcomp, subject=subject, negated=neg)  # "go hiking" = "hike"
        if xcomp is not None and base in _FORGET and neg:
            # "do not forget to use X" affirms "use X": the negation is only mentioned
            return self._active(xcomp, subject=subject, negated=False)
        if xcomp is not None and base in _REMEMBER:
            return self._active(xcomp, subject=subject, negated=neg)
        if xcomp is not None and base in _STOP_ASPECT | _START_ASPECT:
            return self._active(xcomp, subject=subject, negated=neg != (base in _STOP_ASPECT))
        if xcomp is not None and _habitual_past(verb, xcomp):
            # "Sam used to live in Lyon": a habit that was is one that no longer is
            return self._active(xcomp, subject=subject, negated=not neg)
        if xcomp is None and base in _STOP_ASPECT | _START_ASPECT:
            found = self._gerund_object(verb)
            if found is not None:
                # "quit smoking", "quit drinking coffee": the parser reads the gerund as a
                # noun (or a compound of the noun after it); the activity is what stops
                activity, rest, gerund = found
                value, surface = self._value(rest) if rest is not None else ("", "")
                # the object's phrase without the gerund the parser compounded into it
                value = value.removeprefix(gerund.lower_ + " ")
                surface = surface.removeprefix(gerund.text + " ")
                stated = [self._make(subject, activity, value, surface,
                                     negated=neg != (base in _STOP_ASPECT), clause=verb,
                                     rule="svo" if value else "state",
                                     qualifiers=self._time_qualifiers(verb))]
                if base in _STOP_ASPECT and not neg and not value:
                    # "has given up hiking" ends the activity wherever it was the object:
                    # "enjoys hiking" (like hike), "does hiking"
                    ended = self._make(subject, base, activity, gerund.text, negated=False,
                                       clause=verb, rule="svo")
                    stated += self.state_changes.derive(ended)
                return stated
        out: list[Triple] = []
        if xcomp is not None and lemma in _LIKE_VERBS | _DESIRE_VERBS:
            inner = self._active(xcomp, subject=subject, negated=False)
            for t in inner:
                # "likes drinking coffee" -> like "coffee" and like "drink coffee"
                for value in {t.object, f"{t.relation} {t.object}".strip()}:
                    if value:
                        out.append(self._make(subject, base, value, t.object_text, negated=neg,
                                              clause=verb, rule="svo"))
            if not inner:
                out.append(self._make(subject, base, _lemma(xcomp), xcomp.text, negated=neg,
                                      clause=verb, rule="svo"))
            return out
        replaced = self._replacement(verb, subject, neg) if lemma == "replace" else []
        if replaced:
            return replaced
        out.extend(self._idioms(verb, base, subject, neg))
        times = self._time_qualifiers(verb)
        objects = [o for c in verb.children if c.dep_ in ("dobj", "obj")
                   for o in self._objects(c)]
        if objects and _truth_frame(verb) is not None:
            # "It is false that I live in Lyon": the parser reads "that" as the object
            objects = [o for o in objects if not (o.lower_ == "that" and o.i < verb.i)]
        for obj in objects:
            if obj.lower_ in _UNRESOLVED_PRONOUNS:
                continue
            value, surface = (USER, obj.text) if obj.lower_ in _FIRST_PERSON else self._value(obj)
            out.append(self._make(subject, base, value, surface, negated=neg, clause=verb,
                                  rule="svo", qualifiers=times))
            if lemma == "have" and obj.pos_ == "NOUN" and value and \
                    obj.lemma_.lower() not in _PARTITIVE_NOUNS:
                # "I have a weakness for ice cream", "a fear of heights": the noun's own
                # prepositional object is what the light verb construction is about
                for prep in (c for c in obj.children
                             if c.dep_ == "prep" and c.lower_ in ("for", "of", "to")):
                    for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                        for inner in self._objects(pobj):
                            v, surf = self._value(inner)
                            out.append(self._make(subject, f"have {value} {prep.lower_}", v,
                                                  surf, negated=neg, clause=verb,
                                                  rule="prep_object", qualifiers=times))
        if objects:
            return out
        for comp in (c for c in verb.children if c.dep_ in ("acomp", "oprd")):
            age = _age(comp) if lemma in ("turn", "become") else None
            if age is not None:  # "I turned 18 years old yesterday"
                out.append(self._make(subject, "age", age, age, negated=neg, clause=verb,
                                      rule="attribute", qualifiers=times))
            elif comp.pos_ == "ADJ":
                # a linking verb's adjective is its object: "I feel old", "I stay healthy"
                value, surface = self._value(comp)
                if value:
                    out.append(self._make(subject, base, value, surface, negated=neg,
                                          clause=verb, rule="svo", qualifiers=times))
        copula = next((c for c in verb.children if c.dep_ == "xcomp"
                       and c.lemma_.lower() in ("be", "become")), None)
        if copula is not None:
            # "I want to be a physical therapist" -> (user, want be, physical therapist)
            for comp in (c for c in copula.children if c.dep_ in ("attr", "acomp")):
                for obj in self._objects(comp):
                    value, surface = self._value(obj)
                    out.append(self._make(subject, f"{base} be", value, surface, negated=neg,
                                          clause=verb, rule="svo", qualifiers=times))
        if out:
            return out
        for prep in self._verb_preps(verb):
            for words, pobj in _prep_objects(prep):
                if _no_value(pobj):
                    continue
                for obj in self._objects(pobj):
                    value, surface = self._value(obj)
                    out.append(self._make(subject, f"{base} {words}", value, surface,
                                          negated=neg, clause=verb, rule="prep_object",
                                          qualifiers=times))
            heads = [(prep.lower_, prep)] + [(f"{prep.lower_} {inner.lower_}", inner)
                                             for inner in prep.children if inner.dep_ == "prep"]
            for words, node in heads if not neg else ():
                if base in _STOP_ASPECT or f"{base} {words}" in self.state_changes.endings:
                    # "gave up on learning the piano", "stepped away from volunteering at the
                    # shelter": the activity in the gerund is what ends
                    for clause in (c for c in node.children if c.dep_ == "pcomp"
                                   and c.pos_ == "VERB" and c.tag_ == "VBG"):
                        out.extend(self._active(clause, subject=subject, negated=True))
            for value, surface in self._gerund_values(prep, subject):
                # "I dream of moving to the city" -> (user, dream of, live in city)
                out.append(self._make(subject, f"{base} {prep.lower_}", value, surface,
                                      negated=neg, clause=verb, rule="prep_object",
                                      qualifiers=times))
        if not out and (verb.dep_ in ("ROOT", "conj", "ccomp", "parataxis") or inherited
                        or _truth_frame(verb) is not None):
            out.append(self._make(subject, base, "", "", negated=neg, clause=verb,
                                  rule="state", qualifiers=times))
        return out

    def _idioms(self, verb: Token, base: str, subject: str, neg: bool) -> list[Triple]:
        """A verb, its object noun and that noun's preposition that together name one
        predicate (``state_changes`` ``[idioms]``): "found a new home for her puppy" ->
        (maria, rehome, puppy); "found a job at a tech company" -> (john, find job at, …)."""
        out = []
        for obj in (c for c in verb.children if c.dep_ in ("dobj", "obj")):
            after = [c for c in verb.children if c.dep_ == "prep" and c.i > obj.i]
            for prep in [c for c in obj.children if c.dep_ == "prep"] + after:
                phrase = f"{base} {obj.lemma_.lower()} {prep.lower_}"
                relation = self.state_changes.idioms.get(phrase)
                if relation is None:
                    continue
                for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                    for token in self._objects(pobj):
                        value, surface = self._value(token)
                        if value:
                            out.append(self._make(subject, relation, value, surface,
                                                  negated=neg, clause=verb, rule="svo"))
        return out

    def _replacement(self, verb: Token, subject: str, neg: bool) -> list[Triple]:
        """"Salsa has replaced contemporary as Gina's favourite style of dance": the role
        names an attribute of its owner, whose value is now the subject and no longer the
        object -> (gina, preferred dance style, salsa) and its negated old value."""
        role = next((p for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                     for p in c.children if p.dep_ == "pobj"), None)
        subj = self._subject_token(verb)
        old = next((c for c in verb.children if c.dep_ in ("dobj", "obj")), None)
        if role is None or subj is None or old is None or neg:
            return []
        split = self._split_attribute(role)
        if split is None:
            return []
        owner, rel_tokens = split
        phrase = _phrase(rel_tokens + [t for c in role.children
                                       if c.dep_ == "prep" and c.lower_ == "of"
                                       for t in c.subtree])
        out = []
        for token, negated in ((subj, False), (old, True)):
            value, surface = self._value(token)
            if value:
                out.append(self._make(owner, phrase, value, surface, negated=negated,
                                      clause=verb, rule="attribute"))
        return out

    @staticmethod
    def _verb_preps(verb: Token) -> list[Token]:
        """The verb's prepositional phrases, with those the parser hung on another one's
        object: a role ("work at a school as a teacher") and a named place after a companion
        ("live with my husband in Pennsylvania") say how and where the verb holds."""
        preps = [c for c in verb.children if c.dep_ == "prep" and c.lower_ in _OBJECT_PREPS]
        # a compound preposition: "dropped out of the class" (prep "out" over prep "of"),
        # "stepped away from volunteering" (adverb "away" over prep "from")
        preps += [c for c in verb.children if c.dep_ in ("prep", "advmod")
                  and c.lower_ in _COMPOUND_PREP_HEADS
                  and any(g.dep_ == "prep" for g in c.children)]
        for prep in list(preps):
            for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                for inner in (c for c in pobj.children if c.dep_ == "prep"):
                    named = any(p.dep_ == "pobj" and p.pos_ == "PROPN" for p in inner.children)
                    if inner.lower_ == "as" or (prep.lower_ == "with" and named
                                                and inner.lower_ in ("in", "at")):
                        preps.append(inner)
        return preps

    def _identifier_setting(self, cop: Token, subj: Token) -> list[Triple]:
        """"max_retries is 5", "db.pool_size is 20": a setting named by an identifier is a
        functional attribute of the scope's user, as the line "max_retries: 5" is (rule
        ``key_value``)."""
        subject, relation = self._split_key(subj.text.replace(".", " "))
        neg = _negated(cop)
        out = []
        for comp in (c for c in cop.children if c.dep_ in ("attr", "acomp", "oprd")):
            for value_token in self._objects(comp):
                tokens = [t for t in value_token.subtree if t.dep_ not in ("det", "punct")]
                surface = _surface(tokens) if tokens else value_token.text
                value = normalize_value(surface)
                relation_name, flips = self.table.canonical(relation)
                out.append(Triple(subject=subject, relation=relation_name, object=value,
                                  negated=neg != flips, start=cop.sent.start_char,
                                  end=cop.sent.end_char, object_text=surface, rule="key_value"))
        return out

    # -- key: value lines --------------------------------------------------------------------
    def _key_values(self, doc: Doc) -> list[Triple]:
        out: list[Triple] = []
        offset = 0
        for line in doc.text.split("\n"):
            m = _KEY_VALUE.match(line)
            start = offset
            offset += len(line) + 1
            if not m:
                continue
            value_span = doc.char_span(start + m.start("value"), start + m.end("value"),
                                       alignment_mode="expand")
            if value_span is None or len(value_span) > 6 or any(
                    t.pos_ in ("VERB", "AUX") for t in value_span):
                continue
            subject, relation = self._split_key(m["key"])
            if not relation:
                continue
            neg = any(t.dep_ == "neg" or t.lower_ in ("not", "no", "never") for t in value_span)
            words = [t for t in value_span if t.lower_ not in ("not", "no", "never")]
            surface = _surface(words) if words else m["value"]
            value = normalize_value(surface) if is_quantity(surface) else normalize_value(
                _phrase(words))
            relation, flips = self.table.canonical(relation)
            out.append(Triple(subject=subject, relation=relation, object=value,
                              negated=neg != flips, start=start, end=start + len(line),
                              object_text=surface, rule="key_value"))
        return out

    def _split_key(self, key: str) -> tuple[str, str]:
        """"Timeout for service A" -> ("service a", "timeout"); "retry_timeout" -> (user, ..)."""
        key = " ".join(key.replace("_", " ").replace("-", " ").split()).lower()
        for pattern in (r"^(?P<rel>.+?) (?:for|of) (?P<subj>.+)$", r"^(?P<subj>.+?)'s (?P<rel>.+)$"):
            m = re.match(pattern, key)
            if m:
                subject = m["subj"]
                subject = re.sub(r"^(?:the|a|an) ", "", subject)
                return (USER if subject in _FIRST_PERSON or subject == "user" else subject,
                        m["rel"])
        words = [SPELLING.get(w, w) for w in re.sub(r"^(?:the|my|our) ", "", key).split()]
        return USER, " ".join(words)


def _shifted(triples: list[Triple], shift: int) -> list[Triple]:
    """Triples with their offsets moved back by the ``shift`` characters put in front of the
    text as parsed (negative: characters of a label left out of it)."""
    if not shift:
        return triples
    return [Triple(**{**t.to_dict(), "start": max(0, t.start - shift),
                      "end": max(0, t.end - shift), "qualifiers": t.qualifiers})
            for t in triples]


_FORKED: list[TripleExtractor] = []
"""The extractor a forked worker inherits from :meth:`TripleExtractor.extract_many`."""


def _extract_in_worker(job: tuple[list[str], int]) -> list[list[Triple]]:
    texts, batch_size = job
    return _FORKED[0]._extract_chunk(texts, batch_size)


def extract(text: str) -> list[Triple]:
    """Triples of one text with the default pipeline and tables (see :class:`TripleExtractor`)."""
    return _default().extract(text)


_DEFAULT: list[TripleExtractor] = []


def _default() -> TripleExtractor:
    if not _DEFAULT:
        _DEFAULT.append(TripleExtractor())
    return _DEFAULT[0]
