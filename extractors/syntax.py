"""Token-level syntax shared by the extraction rules: words, lemmas, phrases, negation,
truth frames, hypotheticals, questions and the word lists they read.

Reads the labels of spaCy's English dependency parser (ClearNLP style; see
:mod:`extractors.rules`). Pure functions over spaCy tokens; no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from spacy.tokens import Span, Token

from extractors.doc_cache import has_quote_marks, per_token, span_text
from extractors.polarity import (  # noqa: F401 - re-exported for the construction modules
    _FALSE_WORDS, _TRUE_WORDS, _is_negator, _negated, _no_longer, _truth_frame)
from extractors.relations import NOUN_SYNONYMS, SETTING_VERBS, SPELLING
from extractors.values import normalize_value


USER = "user"
"""Canonical subject for first person ("I", "my", "me") and "the user": the scope's user."""

_FIRST_PERSON = {"i", "me", "my", "mine", "myself"}
_CONTAINER_NOUNS = {"city", "town", "country", "state", "province", "region", "village",
                   "county", "island", "republic", "kingdom", "language", "municipality",
                   "continent", "religion", "sport", "instrument", "position", "genre",
                   "occupation", "profession", "field", "discipline", "title", "role",
                   "faith", "denomination", "game"}
"""Classifier nouns that give way to what they classify: "the city of Ann Arbor", "the sport
of association football", "the instrument guitar", "the position of pope" (the value is the
named member, not its class)."""
_PLACE_NOUNS = frozenset({"city", "town", "country", "state", "province", "region", "village",
                          "county", "island", "republic", "kingdom", "municipality",
                          "continent"})
"""The classifier nouns of places: before a common noun they say whose the thing is ("the city
library", "a state park"), not what it is."""
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
                 "about", "of", "under", "over", "against"}
_COMPOUND_PREP_HEADS = {"out", "away", "off", "up", "down", "back", "ahead"}
"""Words that head a compound preposition over another one ("out of", "away from")."""
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+$|^[a-z]+(?:[A-Z][a-z0-9]+)+$")
"""A configuration identifier: snake_case, dotted ("db.pool_size") or camelCase."""
_RELATIONAL_NOUNS = frozenset("""
    fan member part lover supporter follower student regular subscriber customer patron
    employee volunteer resident citizen owner admirer devotee enthusiast captain president
    chair chairman chairwoman chairperson treasurer secretary leader head director coach
    manager founder cofounder editor organizer organiser
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
_CLAUSE_OPENING = re.compile(
    r"(?:the|my|our|their|his|her|its|[A-Z][\w-]*'s)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:is|are|was|were|has|have)\b", re.IGNORECASE)
"""Text after a label that opens with a clause of its own, a possessed or definite subject and
its verb ("The user corrected this: their birthday is actually on March 21"): the label is
a comment on the clause, no key of a value."""
_LOCATIVE_PREPS = {"in", "at", "near", "inside", "within"}
"""Prepositions whose object is a place: "the meeting is in Room 4" gives the place as the
attribute's value; "is on tenuous grounds", "is under review" describe a state."""
_KEY_VALUE = re.compile(
    r"^\s*(?P<key>[A-Za-z][\w .'/\-]{0,60}?)\s*(?::(?=\s)|=)"
    r"\s*(?P<value>\S[^\n]{0,80}?)\s*[.;]?\s*$")
"""A "key: value" or "key = value" line; the colon is followed by a space (a colon inside a
word or between digits is a name's or a time's: "CS:GO", "10:00Z")."""
# the time vocabulary (re-exported: the constructions import it from here)
from extractors.times import (  # noqa: E402, F401
    _CLOCK,
    _ISO_DATE,
    _TIME_WORDS,
    _WHEN_NOUNS,
    _YEAR,
    _is_time,
    _no_value,
    elided_year,
)


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
        if (child.dep_ == "amod" and child.i == child.sent.start == head.i - 1
                and child.text[:1].isupper() and not child.text.isupper()
                and head.pos_ in ("VERB", "AUX") and head.tag_ in ("VBZ", "VBD")
                and not child.is_ascii):
            # "Tomás lives in Valencia": a name with a non-English letter the tagger read as
            # an adjective of the verb
            return child
    return None


_CHANGE_VERBS = frozenset("""
    move relocate marry divorce become join switch change start begin adopt buy get graduate
    retire settle transfer convert rename upgrade downgrade
    acquire purchase sell inherit receive found establish launch create build hire appoint
    elect name win
    """.split())
"""Verbs of a change whose result holds after the event ("moved to Zurich last month" still
lives there; "Acme acquired Beta in 2021" still owns it; Vendler's 1957 achievements, with the
transfers of possession and the creations, appointments and wins whose result is a state): a
dated past of them is no completed past."""


def _event(verb: Token) -> bool:
    """A verb that reports an event: a simple past ("sold"), a perfect ("has shelved", "has
    been cancelled") or a past passive ("was cancelled"); not a present, a progressive or a
    base form ("sells", "is selling", "is sold by")."""
    if verb.tag_ == "VBD":
        return True
    if verb.tag_ == "VBP" and verb.lower_ in ("quit", "shut", "cut", "let") and any(
            c.dep_ == "nsubj" and c.lower_ in ("i", "we", "they", "you") for c in verb.children):
        # "I quit salsa": a verb whose past is its base form, which the tagger reads as a
        # present; a habit of quitting is no fact a memory keeps
        return True
    if verb.tag_ == "VBN":
        auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        return any(a.lemma_ == "have" or a.tag_ == "VBD" for a in auxes) or not auxes
    return False


_SETTING_VERBS = SETTING_VERBS
_OWNED_NOUNS = frozenset("""
    headquarters headquarter capital mayor ceo founder owner president leader chair chairman
    director manager captain coach principal currency population anthem
    """.split())
"""Relational nouns whose "of" phrase names their owner (Barker 1995): "the headquarters of
X is located in Y" is a fact about X."""


_ROLE_VERBS = frozenset({"take over", "step in", "stand in", "start", "serve", "act",
                         "be appoint", "be name", "be elect"})
"""Verbs whose "as" phrase names a role the subject now holds ("took over as manager")."""
_RECIPROCAL = frozenset({"divorce", "separate", "break up", "split up", "split"})
"""Intransitive predicates of two coordinated subjects that each do to the other ("Sam and
Helen divorced": each divorced the other)."""


_NAME_VERB_PREP = re.compile(
    r"^(?P<name>[A-Z][a-z]+) (?:(?P<adverb>now|also|still|currently|often|usually|no longer"
    r"|never|always|rarely) )?"
    r"(?P<verb>[a-z]+s) (?!and\b|or\b|are\b|were\b|have\b|had\b)[A-Za-z]")
"""A sentence opening with a name, an optional adverb and a verb in "-s" before a word that is
no conjunction or plural verb ("Maria volunteers at", "Fatima volunteers every Saturday",
"Caroline now volunteers at", "Ikaika no longer volunteers at", "Beatriz practices Korean"),
where the small tagger often reads the verb as a plural noun compounded with the name."""


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
_VERB_FORMS.update({"lost": "lose", "sold": "sell", "left": "leave", "broke": "break",
                    "gave": "give", "threw": "throw", "bought": "buy", "moved": "move",
                    "banned": "ban", "banning": "ban", "stopped": "stop", "stopping": "stop",
                    "quitting": "quit", "preferred": "prefer", "preferring": "prefer",
                    "forbade": "forbid", "forbidden": "forbid"})


@per_token
def _lemma(token: Token) -> str:
    """Lemma with spaCy's small-model slips on common verbs repaired ("hates" -> "hate")."""
    text = token.text.lower()
    if token.pos_ in ("VERB", "AUX") or text in _VERB_FORMS:
        lemma = _VERB_FORMS.get(text, token.lemma_.lower())
        if token.tag_ == "VBZ" and text.endswith("es") and lemma == text[:-2] and \
                not lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
            # "-es" is the third-person ending after a sibilant or "o" only (Quirk et al.
            # 1985, §3.5): "rides" is "ride", never "rid"
            lemma = text[:-1]
        if lemma.endswith(("ise", "yse")) and lemma[:-2] + "ze" in VERB_INDEX:
            # British "-ise" of a verb English also spells "-ize" ("organise", "analyse"):
            # one verb (not "advise", "promise", which have no "-ize" form)
            lemma = lemma[:-2] + "ze"
        return lemma
    return token.lemma_.lower()


NOUN_INDEX: set[str] = set()
"""The lemmatizer's index of English nouns, filled by :class:`extractors.rules.TripleExtractor`
when it loads its pipeline (empty: every capitalised sentence-initial plural is lemmatised)."""


VERB_INDEX: set[str] = set()
"""The lemmatizer's index of English verbs, filled with :data:`NOUN_INDEX` ("shellfish" is
none, though the tagger may read it as one after "to")."""


ADJECTIVE_INDEX: set[str] = set()
"""The lemmatizer's index of English adjectives, filled with :data:`NOUN_INDEX` ("fast",
"busy"; not "celadon" or "tiramisu", which the tagger may still call adjectives)."""


@per_token
def _word(token: Token) -> str:
    """One token in canonical form: common nouns lemmatised (plural folded), spelling folded.
    Proper nouns stay as written: the small tagger tells NNP from NNPS inconsistently
    ("Philippines"), and a name's plural is part of the name ("Tapley Mountains"); but a
    recurring day or month is its name ("Fridays" -> "friday"). A capitalised word inside a
    sentence, or opening it before another capitalised word, that the tagger calls a common
    noun is such a name too ("originated from Leeds" tags "Leeds" NNS, "founded in Leeds"
    NNPS; both are "leeds"; "Sports Unlimited was created" keeps "sports"). So is a
    sentence-initial capitalised plural whose singular is no noun the lemmatizer knows
    ("Ines knows Marco": "ines", never "ine"; "Nicolas" never "nicola")."""
    text = token.text.lower()
    name = token.pos_ == "PROPN" or (token.text[:1].isupper() and (
        token.i > token.sent.start or _capitalised(token.nbor(1) if token.i + 1 < len(
            token.doc) else token) or (token.tag_ == "NNS" and NOUN_INDEX
                                       and token.lemma_.lower() not in NOUN_INDEX)))
    if token.pos_ == "NOUN" and token.tag_ in ("NNS", "NN") and not name:
        lemma = token.lemma_.lower()
        if not (NOUN_INDEX and lemma not in NOUN_INDEX and lemma != text):
            # (a plural rule that makes a word the lexicon does not know keeps the word as
            # written, as a capitalised one is kept above: "analytics" is no "analytic",
            # "ramen" no "raman"; "firemen" folds to the "fireman" it knows)
            text = lemma
        text = NOUN_SYNONYMS.get(text, text)
    elif name and text.endswith("s") and text[:-1] in _TIME_WORDS:
        text = text[:-1]
    elif token.pos_ in ("VERB",) and token.tag_ == "VBG" and token.dep_ not in ("dobj", "pobj"):
        text = _lemma(token)  # a gerund object stays a noun: "do kickboxing" as "kickboxing"
    if name and "-" in text and text.replace("-", "").isalpha():
        # a hyphenated name kept as one word ("Spider-Man", extractors.pipeline) is the name
        # as its parts were read before: "spider man", whichever way it is written
        text = " ".join(text.replace("-", " ").split())
    return SPELLING.get(text, text)


def _capitalised(token: Token) -> bool:
    """A word that starts with a capital letter (the next word of a name: "Sports Unlimited")."""
    return token.text[:1].isupper() and token.i > token.sent.start


_QUOTES = {"'", '"', "‘", "’", "“", "”", "``", "''"}


def _quoted_span(token: Token) -> Span | None:
    """The words between the quotation marks around ``token`` in its sentence (a title:
    'The Name of the Wind', "Becoming Nicole"), or None when it is not quoted."""
    if not has_quote_marks(token.doc):
        return None  # (no quotation mark anywhere: nothing to scan for)
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
    (an "of" phrase is kept when ``keep_of``; a name's qualifier always, :func:`name_qualifier`)."""
    out = [head]
    qualifier = name_qualifier(head) if "appos" in drop else None
    for child in head.children:
        if child.dep_ in drop and not (keep_of and child.dep_ == "prep" and child.lower_ == "of"
                                       ) and child is not qualifier:
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


def name_qualifier(name: Token) -> Token | None:
    """The parenthesised appositive right after a proper name that says which of its kind it
    is ("iPad (3rd generation)", "Civic (2019 model)"), else None: part of the name, so the
    qualified name is another entity than the bare one (a restrictive apposition, Quirk et al.
    1985 §17.93), never a second object."""
    if name.pos_ != "PROPN":
        return None
    doc = name.doc
    for child in name.children:
        if child.dep_ == "appos" and child.i > name.i and doc[name.i + 1].text == "(" and \
                not any(c.dep_ in ("det", "poss") for c in child.children):
            first = min(t.i for t in child.subtree if t.text != "(")
            if first == name.i + 2:
                return child  # (a description, "Toyota (the company)", is no qualifier)
    return None


def _phrase(tokens: Iterable[Token]) -> str:
    words = [_word(t) for t in tokens
             if t.dep_ not in ("det", "case", "punct", "neg") and t.pos_ != "PUNCT"]
    return " ".join(w for w in words if w)


def time_words(tokens: Iterable[Token]) -> list[str]:
    """The words of a time phrase, a plural time word in the singular ("Saturdays" ->
    ``saturday``): "on Saturdays" and "every Saturday" name one time."""
    tokens = list(tokens)
    # a year written "'19" is the year 2019 (extractors.times.elided_year)
    years = {t.text: year for t in tokens for year in (elided_year(t),) if year}
    return [w[:-1] if w.endswith("s") and w[:-1] in _TIME_WORDS else years.get(w, w)
            for w in _phrase(tokens).split()]


def _surface(tokens: list[Token]) -> str:
    if not tokens:
        return ""
    return span_text(tokens[0].doc, tokens[0].i, tokens[-1].i + 1)


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


def _imperative(verb: Token) -> bool:
    """A root verb in base form with no subject, first in its sentence but for auxiliaries,
    negation, adverbs and interjections ("Do not forget to …", "Always use tabs", "Please
    include …")."""
    if verb.dep_ != "ROOT" or verb.tag_ not in ("VB", "VBP"):
        return False
    return all(t.dep_ in ("aux", "neg", "advmod", "punct", "intj") for t in verb.sent
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


# tense and aspect of a clause (re-exported: the constructions import them from here)
from extractors.aspect import (  # noqa: E402, F401
    _clause_tokens,
    _completed_past,
    _habitual_past,
    _temporary,
)
