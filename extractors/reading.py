"""Reading a memory's text for the parser: the edits made before and after the parse.

A subject-less memory-writer fact is read in the first person, with its later ";" clauses
joined (:mod:`extractors.memory_forms`); a labelled line without its label; a verbless
"NAME, in PLACE." fragment with its elided copula; the small tagger's plural-noun reading of a
verb after a name repaired; quoted titles and nominal gerunds tagged after the parse. Each
edit is recorded as :class:`extractors.offsets.Edits`, which maps offsets back.
"""

from __future__ import annotations

import re

from spacy.attrs import DEP, IDX, LENGTH, LIKE_EMAIL, LIKE_URL
from spacy.strings import get_string_id
from spacy.tokens import Doc, Token

from extractors.memory_forms import (
    _LEAD, _STATE_PARTICIPLES, _verbless_predicate, in_first_person, segments_in_first_person,
    subjectless)
from extractors.syntax import (
    _CLAUSE_AFTER_LABEL,
    _CLAUSE_OPENING,
    _KEY_VALUE,
    _LABEL,
    _LOCATIVE_PREPS,
    _NAME_VERB_PREP,
    _RECIPROCAL,
    _SETTING_VERBS,
    _is_time,
    _lemma,
    ADJECTIVE_INDEX,
    NOUN_INDEX,
    VERB_INDEX,
    truecase,
)
from extractors.approximators import approximated_rate
from extractors.constructions.pets import PET_NOUNS
from extractors.doc_cache import doc_text
from extractors.offsets import NO_EDITS, Edits

_LISTED_LABEL = re.compile(r"\s*(?:[-*+\u2022]\s+)?(?P<key>[A-Za-z][\w '\-]{0,40}):\s+(?=\S)")
"""A label opening a line, after a list item's marker ("- Education: …")."""
_EDUCATION_LABELS = frozenset({"education", "school", "university", "college", "studies",
                               "degree", "schooling", "academics"})
"""Labels of the user's own studies (as :data:`extractors.constructions.education_lines.
EDUCATION_KEYS`), whose value may be a subject-less clause of the user."""


def _education_clause(text: str, is_verb, irregular) -> tuple[str, Edits] | None:
    """"- Education: finished my BDS at Marlow in 2024": an education label's value that is a
    subject-less fact (:func:`extractors.memory_forms.in_first_person`) is the user's clause,
    read without its label ("I finished my BDS at Marlow in 2024"), never with the label as
    its subject; None for any other text."""
    label = _LISTED_LABEL.match(text)
    if label is None or label["key"].strip().lower() not in _EDUCATION_LABELS \
            or "\n" in text.strip():
        return None
    value = text[label.end():]
    lead = _LEAD.match(value)
    if lead is None or lead["verb"].lower() in _STATE_PARTICIPLES or _verbless_predicate(
            lead, is_verb, irregular):
        return None  # "currently enrolled, BA History, …": a status among listed pieces
    first = in_first_person(value, is_verb, irregular)
    if first is None:
        return None
    # the label left out, then the value's own edits (in characters of the whole text)
    return first[0], Edits(((0, label.end(), 0),) + tuple(
        (start + label.end(), end + label.end(), length) for start, end, length in first[1].spans))


_REPORTING_LABEL = re.compile(
    r"\b(?:said|says|mentioned|noted|corrected|clarified|added|confirmed|explained|reported|"
    r"updated|wrote|told|shared|stated)\b", re.IGNORECASE)
"""A label that is a reporting clause ("The user corrected this:"), not a topic ("Update for
rack 4:" names what its clause is about and stays)."""
_NAMES_THE_USER = re.compile(r"\bthe user\b", re.IGNORECASE)
_THEY = re.compile(r"(?:their|they)\b", re.IGNORECASE)
_ANSI_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|[@-Z\\-_])")
"""A terminal control sequence (ECMA-48 CSI or a two-character escape)."""
_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028-\u202e"
                        r"\u2060-\u2064\ufeff]")
"""Control characters (Unicode Cc, tab and newline aside) and invisible format characters
(Cf: zero-width space and joiners, directional marks, word joiner, byte order mark, soft
hyphen) that copy and paste leave in text."""


def visible_text(text: str) -> str:
    """``text`` with terminal escape sequences and invisible characters each replaced by
    spaces of the same length, so offsets into the stored text stay right: "lives in\u200b
    Paris" is read as "lives in Paris" (a zero-width space had made "in\u200b" the
    preposition and the place no object)."""
    if text.isascii() and "\x1b" not in text and text.isprintable():
        return text
    text = _ANSI_ESCAPE.sub(lambda m: " " * len(m[0]), text)
    return _INVISIBLE.sub(" ", text)


class ReadingRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for reading a text (a mixin: it
    reads the extractor's ``nlp``, ``_is_verb`` and ``_verb_tables``)."""

    def _readable(self, text: str) -> tuple[str, Edits]:
        """The text as parsed, and its edit (:class:`extractors.offsets.Edits` maps offsets
        back): a subject-less memory-writer fact is read
        in the first person (:mod:`extractors.memory_forms`); a labelled line without its
        label (and see :meth:`_repaired`)."""
        text = _parenthetical_sentence(truecase(visible_text(text)), self._is_verb,
                                       self._irregular_past())
        label = _LABEL.match(text)
        if label is not None and (_CLAUSE_AFTER_LABEL.search(text, label.end()) or (
                _REPORTING_LABEL.search(label[0]) and _CLAUSE_OPENING.match(text, label.end()))):
            # "Launch plan: the go-live date is … and the share is …": each clause keeps its
            # own subject; the label only names the topic (a label that names the user stays:
            # "The user corrected this: their birthday is …" is their birthday)
            if not (_NAMES_THE_USER.search(label[0])
                    and _THEY.match(text, label.end())):
                return text[label.end():], Edits(((0, label.end(), 0),))
            return text, NO_EDITS
        clause = _education_clause(text, self._is_verb, self._irregular_past())
        if clause is not None:
            return clause
        if _KEY_VALUE.match(text) and not _CLAUSE_OPENING.match(text):
            # "Billing plan: Pro", "Preferred reply language: Spanish": a label, never a
            # subject-less clause ("I am billing plan", "I preferred reply language")
            return text, NO_EDITS
        irregular = self._irregular_past()
        first = segments_in_first_person(text, self._is_verb, irregular)
        if first is not None and first[1]:
            return _joined_clauses(first[0], self._is_verb, irregular), first[1]
        return text, NO_EDITS

    def _repaired(self, doc: Doc, edit: Edits) -> tuple[Doc, Edits]:
        """``doc``, or a parse of its text with an adverb before the verb when the tagger read
        "Maria volunteers at" as a name compounded with a plural noun (only then: a pattern
        with literal words still sees the text as written)."""
        return self._repaired_many([(doc, edit)])[0]

    def _repaired_many(self, parsed: list[tuple[Doc, Edits]], batch_size: int = 256
                       ) -> list[tuple[Doc, Edits]]:
        """:meth:`_repaired` of each ``(doc, edit)``; the texts to parse again are parsed
        together, in batches of ``batch_size`` (one ``nlp.pipe``)."""
        fixes = [self._repair(doc, edit) for doc, edit in parsed]
        again = iter(self.nlp.pipe((f[0] for f in fixes if f is not None),
                                   batch_size=batch_size))
        out = []
        for (doc, edit), fix in zip(parsed, fixes):
            if fix is None:
                out.append((doc, edit))
                continue
            doc, (_, edit, verb) = next(again), fix
            if verb is not None:
                verb = doc.char_span(*verb)
                if verb is not None:
                    _retagged_verb(verb[0])
            out.append((doc, edit))
        return out

    def _repair(self, doc: Doc, edit: Edits
                ) -> tuple[str, Edits, tuple[int, int] | None] | None:
        """What :meth:`_repaired` parses again: ``(text, edit, verb)``, ``edit`` the edit of
        the text read before (only an unedited text is repaired), ``verb`` the character span
        of a verb to tag as one in the new parse, or None; None when ``doc`` stands (a verb
        may be retagged in it, in place)."""
        fragment = _located_fragment(doc) if not edit else None
        if fragment is not None:
            # "Marstrand, in Sweden.": a verbless fragment, its copula elided, read as
            # "Marstrand is in Sweden" (only a place phrase: "Sam, the piano." stays nothing)
            return (doc_text(doc)[:fragment] + " is" + doc_text(doc)[fragment + 1:],
                    Edits(((fragment, fragment + 1, len(" is")),)), None)
        m = _NAME_VERB_PREP.match(doc_text(doc)) if not edit else None
        if m is None or not self._is_verb(m["verb"][:-1]) or self._is_verb(m["verb"]):
            return None
        verb = doc.char_span(m.start("verb"), m.end("verb"))
        name = doc.char_span(m.start("name"), m.end("name"))
        if verb is None or verb[0].tag_ != "NNS" or name is None or \
                name[0].pos_ not in ("PROPN", "NOUN"):
            return None  # ("For uploads the timeout is …": no name, no verb)
        if _retagged_verb(verb[0]):
            return None
        text = doc_text(doc)
        # "now"/"also" give way to "regularly"; a negating or frequency adverb stays
        kept = m["adverb"] in (None, "no longer", "never", "always", "rarely")
        at = m.start("verb") if kept else m.start("adverb")
        end = at if kept else m.end("adverb")
        added = len("regularly ") - (end - at)
        return (text[:at] + "regularly " + text[end:], Edits(((at, end, len("regularly ")),)),
                (m.start("verb") + added, m.end("verb") + added))

    def _irregular_past(self) -> dict[str, str]:
        """Irregular simple-past forms -> base form, from the lemmatizer's verb exceptions
        (a form that is also a base form, "found", "saw", is left out: "Found ..." opens a
        fact about founding as often as one about finding)."""
        if not hasattr(self, "_irregular"):
            tables = self._verb_tables()
            self._irregular = {} if tables is None else {
                form: lemmas[0] for form, lemmas in tables[0].items()
                if lemmas and form != lemmas[0] and form.isalpha() and not form.endswith(
                    ("ing", "en", "s")) and form not in tables[2]}
            self._irregular.update({form: form for form in _UNCHANGED_PAST})
        return self._irregular


_UNCHANGED_PAST = ("quit", "let", "put", "set", "cut", "shut", "split", "hurt", "spread",
                   "upset", "bet", "cast", "cost", "rid", "shed")
"""Irregular verbs whose base, past and participle are one form (Quirk et al. 1985, §3.16):
"Quit smoking in May" opens a subject-less fact in the past, as "Sold the car" does (a memory
is never an imperative)."""


_REPAIR_ATTRS = [DEP, LIKE_URL, LIKE_EMAIL, IDX, LENGTH]
_REPAIRED_DEPS = frozenset(get_string_id(d) for d in (
    "advmod", "npadvmod", "dep", "intj", "acl", "nsubj", "nsubjpass", "xcomp", "oprd", "pcomp"))
"""The relations a token of :func:`nominal_gerunds` holds before any of its repairs applies
(besides a merged title's space and an address): every other token is skipped. A repair
changes a later token's head only, or a relation within this set, so the set read before the
loop stays exact."""


def nominal_gerunds(parsed: tuple[Doc, Edits] | Doc):
    """Tag and attachment repairs after the parse, in place; returns its argument.

    Merged quoted titles are names. An "-ing" form the parser made a preposition's clausal
    complement although a noun modifies it is a noun ("looking for Marley flooring": a verb
    takes no compound modifier); so is a form the lemmatizer knows as a noun right after a name
    the parser took for its subject ("looking for Ikea shelving"). A gerund keeps its verb
    reading otherwise ("dreams of moving"). Also: a capitalised word after a copula with no
    complement is its complement ("… is Java"); an address tagged as an adjective or verb is
    a name, and the copula the parser made its auxiliary heads the clause; a past form after
    coordinated nouns is their verb, not a reduced relative ("The user and Priya divorced");
    "to" before a word that is no verb is a preposition ("renamed to main", "allergic to
    shellfish"); a change verb hung on a noun in a verbless line is the line's verb
    ("Preferred language for replies changed to English"); a base form made a subject is the
    head noun of a compound ("the project lead for Atlas"); a participle read as a passive
    verb with a bare noun object is that noun's adjective ("is salted almonds")."""
    doc = parsed[0] if isinstance(parsed, tuple) else parsed
    text = doc_text(doc)
    for i, (dep, url, email, idx, length) in enumerate(
            doc.to_array(_REPAIR_ATTRS).tolist() if len(doc) else ()):
        if dep not in _REPAIRED_DEPS and not url and not email and " " not in text[
                idx:idx + length]:
            continue  # no repair below applies to this token (one array read for all)
        token = doc[i]
        if " " in token.text and token.text[:1].isupper():
            # a quoted title merged into one token (extractors.pipeline.quoted_titles): a
            # name, and the complement of a copula or the object of a verb the parser left
            # it hanging from ("is now 'Harry Potter and the Prisoner of Azkaban'")
            token.tag_, token.pos_ = "NNP", "PROPN"
            head = token.head
            if token.dep_ in ("intj", "dep", "npadvmod", "appos", "nsubj") and head.i < token.i:
                taken = {c.dep_ for c in head.children if c != token}
                if head.lemma_ == "be" and "attr" not in taken:
                    token.dep_ = "attr"
                elif head.pos_ == "VERB" and "dobj" not in taken:
                    token.dep_ = "dobj"
        if (token.pos_ == "PROPN" or token.text[:1].isupper() and token.pos_ in ("ADV", "NOUN", "X")
                and token.lower_ not in ADJECTIVE_INDEX) and \
                token.dep_ in ("advmod", "npadvmod", "dep", "intj") and \
                token.head.lemma_ == "be" and token.head.i < token.i and not any(
                    c.dep_ in ("attr", "acomp") or (c.dep_ == "prep" and c.i < token.i)
                    for c in token.head.children) and not any(
                    c.dep_ == "neg" for c in token.children):
            # "… preferred language is Java": a name after a copula with no complement is
            # its complement, whatever relation the parser gave it
            token.dep_ = "attr"
        if (token.like_url or token.like_email) and token.pos_ in ("ADJ", "VERB", "ADV"):
            # "… URL is https://docs.kelp.dev/v3": an address is a name, whatever its tag
            # (and the copula the parser made its passive auxiliary heads the clause)
            token.tag_, token.pos_ = "NNP", "PROPN"
            _copula_heads(token)
        if token.dep_ == "acl" and (token.tag_ == "VBD" or (
                token.tag_ == "VBN" and token.lemma_ in _RECIPROCAL)) and \
                token.head.dep_ == "ROOT" and token.head.pos_ in ("NOUN", "PROPN") and \
                token.head.i < token.i and any(c.dep_ == "conj" for c in token.head.children):
            # "The user and Priya divorced last year": a past tense form heads no reduced
            # relative clause (that takes the participle); the nouns are its subject. A
            # reciprocal verb's participle reads the same ("The user and Henrik divorced"
            # tagged VBN): its passive and its active say one thing
            noun = token.head
            token.head, token.dep_ = token, "ROOT"
            noun.head, noun.dep_ = token, "nsubj"
        if token.dep_ == "nsubj" and token.tag_ == "NN" and token.i + 1 < len(doc):
            _copula_after_noun(token, doc[token.i + 1])
        if token.dep_ == "npadvmod":
            approximated_rate(token)  # "smokes about a pack a day"
        if token.dep_ == "nsubj" and token.pos_ == "PROPN" and token.i > 0:
            _named_pet_subject(doc[token.i - 1], token)
        if token.dep_ in ("nsubj", "nsubjpass") and (
                token.tag_ in ("VBP", "VB") and token.lower_ in NOUN_INDEX
                or token.pos_ == "NOUN") and any(
                    c.dep_ == "nsubj" and c.pos_ == "NOUN" and c.i == token.i - 1
                    for c in token.children):
            # "the project lead for Atlas is …": a base form (or a noun) the parser made a
            # subject is the head noun of a compound (a verb heads no noun phrase, a noun no
            # subject), its "subject" the modifier
            token.tag_, token.pos_, token.lemma_ = "NN", "NOUN", token.lower_
            for c in token.children:
                if c.dep_ == "nsubj" and c.i == token.i - 1:
                    c.dep_ = "compound"
                    # (a determiner, genitive or adjective before it is the whole phrase's:
                    # "the user's new team lead")
                    for d in [d for d in c.children if d.dep_ in ("det", "poss", "amod")
                              and d.i < c.i]:
                        d.head = token
        if token.dep_ in ("xcomp", "oprd") and token.head.pos_ in ("ADJ", "VERB") and (
                token.pos_ in ("ADJ", "NOUN", "PROPN") and token.tag_ != "VB" or (
                    token.tag_ == "VB" and VERB_INDEX and token.lower_ not in VERB_INDEX
                    and token.lower_ in NOUN_INDEX)):
            to = next((c for c in token.children if c.dep_ == "aux" and c.lower_ == "to"), None)
            if to is not None:
                # "is not allergic to shellfish", "was renamed to main": "to" before a word
                # that is no verb (an adjective, or a word the lexicon knows only as a noun)
                # is a preposition, the word its object, whatever the tagger read
                to.head, to.dep_, to.tag_, to.pos_ = token.head, "prep", "IN", "ADP"
                for child in [c for c in token.children if c.i > token.i and c.dep_ in (
                        "prep", "advmod", "npadvmod", "advcl")]:
                    child.head = to.head  # ("… to shellfish after all": the clause's)
                token.head, token.dep_ = to, "pobj"
                if token.tag_ == "VB":
                    token.tag_, token.pos_, token.lemma_ = "NN", "NOUN", token.lower_
        if token.dep_ == "acl" and _lemma(token) in _SETTING_VERBS and token.head.dep_ in (
                "pobj", "ROOT") and any(c.dep_ == "prep" and c.lower_ == "to"
                                        for c in token.children):
            root = token.sent.root
            if root.pos_ == "NOUN" and root.i < token.i and not any(
                    t.pos_ in ("VERB", "AUX") and t != token for t in token.sent):
                # "Preferred language for replies changed to English": a verbless line
                # whose change verb the parser hung on a noun states the change of the
                # line's first noun phrase, as "… was changed to English" does
                token.head, token.dep_ = token, "ROOT"
                root.head, root.dep_ = token, "nsubj"
        if token.dep_ == "nsubjpass":
            _participle_value(token)
        if token.dep_ == "nsubj" and _is_time(token) and any(
                c.dep_ == "nsubj" and c.i > token.i for c in token.head.children):
            # "Weekends my alarm is 9am": of two subjects, a fronted time is an adverbial
            token.dep_ = "npadvmod"
        if token.dep_ == "npadvmod" and token.pos_ == "PROPN" and token.head.pos_ == "VERB" \
                and token.head.i < token.i and any(
                    c.dep_ == "det" and c.lower_ in ("a", "an", "the", "my") for c in token.children
                ) and not any(c.dep_ in ("dobj", "attr") for c in token.head.children):
            # "I drive a 2011 Mazda 3": a name with an article after a verb with no object
            # is its object (a time or measure phrase is no name: "every day", "a mile")
            token.dep_ = "dobj"
        if token.tag_ == "VBG" and token.dep_ == "pcomp" and any(
                (c.dep_ == "compound" and c.i < token.i) or (
                    c.dep_ == "nsubj" and c.i == token.i - 1 and c.pos_ == "PROPN"
                    and token.lower_ in NOUN_INDEX) for c in token.children):
            token.tag_, token.pos_, token.dep_ = "NN", "NOUN", "pobj"
            token.lemma_ = token.lower_
    return parsed


_CLOSING_ASIDE = re.compile(r" \((?P<aside>[A-Z][\w'.-]*(?: [\w'.,-]+){1,12})\)(?P<end>\.?)\s*$")
"""A sentence that closes with an aside in brackets opening with a capital letter."""


def _parenthetical_sentence(text: str, is_verb, irregular) -> str:
    """``text`` with a closing aside that is a clause of its own read as the next sentence,
    in place (the same length, so offsets stand): "Release manager for v2 is now Ortega (Wei
    stepped down)" -> "… is now Ortega. Wei stepped down." The aside must hold a past or
    third-person verb after its first word (a name, a pronoun); "(since 2020)" or "(Netflix
    only)" stay asides of the clause they follow."""
    m = _CLOSING_ASIDE.search(text)
    if m is None or _LABEL.match(text) or _KEY_VALUE.match(text):
        return text  # (a labelled line reads its own comments: "Netflix (Spotify cancelled)")
    words = [w.strip(".,").lower() for w in m["aside"].split()[1:]]
    if not any(w in irregular or w.endswith("ed") and (is_verb(w[:-2]) or is_verb(w[:-1]))
               or w.endswith("s") and len(w) > 3 and is_verb(w[:-1]) for w in words[:3]):
        return text
    sentence = ". " + m["aside"] + "."
    return text[:m.start()] + sentence + " " * (m.end() - m.start() - len(sentence))


def _named_pet_subject(noun: Token, name: Token) -> None:
    """"Teodora's parrot Mango passed away": a possessed pet noun the parser made the root,
    with the name right after it made the subject of a clausal complement, is that clause's
    subject, the name its appositive (a noun takes no clausal complement without a
    complementiser), in place."""
    verb = name.head
    if noun.dep_ != "ROOT" or noun.pos_ != "NOUN" or noun.lemma_.lower() not in PET_NOUNS or \
            not any(c.dep_ == "poss" for c in noun.children) or verb.head != noun or \
            verb.dep_ != "ccomp" or verb.pos_ != "VERB" or any(c.dep_ == "mark"
                                                               for c in verb.children):
        return
    for child in [c for c in noun.children if c.i > verb.i]:
        child.head = verb
    verb.head, verb.dep_ = verb, "ROOT"
    name.head, name.dep_ = noun, "appos"
    noun.head, noun.dep_ = verb, "nsubj"


def _copula_after_noun(subject: Token, verb: Token) -> None:
    """"The team lead for Heron is Lisbeth": a singular common noun's "verb" in the base form
    right after it (tagged VBP, which a singular subject never takes: subject-verb concord,
    Quirk et al. 1985 §10.34) that the lexicon knows as a noun, heading a later copula of
    the sentence, is the head noun of a compound and the subject of that copula, in place;
    so is a noun the parser made the root with the noun before it as its subject ("my team
    lead is Priya": a noun takes no subject). The copula heads the clause; a subject the
    parser gave the copula inside the noun's prepositional phrase ("for Project Heron") is
    that phrase's object."""
    if verb.head != subject.head and subject.head != verb or verb.tag_ not in ("VBP", "NN") or \
            verb.dep_ != "ROOT" or verb.lower_ not in NOUN_INDEX or subject.i + 1 != verb.i:
        return
    cop = next((c for c in verb.children if c.dep_ in ("conj", "advcl", "ccomp")
                and c.lemma_ == "be" and c.i > verb.i
                and any(d.dep_ == "attr" for d in c.children)), None)
    if cop is None or any(c.dep_ in ("dobj", "cc") for c in verb.children):
        return
    prep = next((c for c in verb.children if c.dep_ == "prep" and c.i < cop.i), None)
    moved = next((c for c in cop.children if c.dep_ == "nsubj"), None)
    if moved is not None:
        if prep is None or any(c.dep_ == "pobj" for c in prep.children) or not (
                prep.i < moved.i < cop.i):
            return
        moved.head, moved.dep_ = prep, "pobj"
    for child in [c for c in verb.children if c.i > cop.i]:
        child.head = cop
    cop.head, cop.dep_ = cop, "ROOT"
    verb.head, verb.dep_ = cop, "nsubj"
    verb.tag_, verb.pos_, verb.lemma_ = "NN", "NOUN", verb.lower_
    subject.dep_ = "compound"
    for d in [d for d in subject.children if d.dep_ == "det"]:
        d.head = verb


def _copula_heads(token: Token) -> None:
    """Make the copula the parser made ``token``'s passive auxiliary head the clause, with
    ``token`` its complement (``attr``) and the passive subject its subject, in place."""
    cop = next((c for c in token.children if c.dep_ in ("auxpass", "aux")
                and c.lemma_ == "be"), None)
    if token.dep_ == "ROOT" and cop is not None:
        for child in list(token.children):
            if child != cop:
                child.head = cop
                if child.dep_ == "nsubjpass":
                    child.dep_ = "nsubj"
        cop.head, cop.dep_ = cop, "ROOT"
        token.head = cop
    if token.dep_ in ("acomp", "ROOT") and token.head != token:
        token.dep_ = "attr"


_DOUBLE_OBJECT_VERBS = frozenset("""
    give offer send show tell teach ask award grant pay promise deny refuse allow charge
    lend owe hand bring feed sell serve assign bill fine cost save spare wish
    """.split())
"""Verbs whose passive keeps a direct object ("was given a bike", "was taught French"; the
indirect-object passive, Quirk et al. 1985 §16.55): with them a participle and its object stay
verb and object."""


def _participle_value(subject: Token) -> None:
    """"My favourite snack is salted almonds": a participle the parser read as a passive verb
    with a bare noun for its object, right after the copula, is an adjective of that noun,
    the noun the copula's complement (a passive takes no direct object outside
    :data:`_DOUBLE_OBJECT_VERBS`); in place. Only a common-noun subject: "I was paid cash"
    stays a passive."""
    verb = subject.head
    cop = next((c for c in verb.children if c.dep_ == "auxpass" and c.lemma_ == "be"), None)
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if (verb.tag_ != "VBN" or verb.dep_ != "ROOT" or cop is None or obj is None
            or subject.pos_ != "NOUN" or cop.i != verb.i - 1 or obj.i != verb.i + 1
            or obj.pos_ != "NOUN" or _is_time(obj) or verb.lemma_ in _DOUBLE_OBJECT_VERBS
            or any(c.dep_ in ("det", "poss", "nummod") for c in obj.children)
            or any(c.dep_ in ("dative", "agent", "oprd", "ccomp", "xcomp", "neg")
                   for c in verb.children)):
        return
    for child in list(verb.children):
        if child not in (cop, obj):
            child.head = cop
    subject.dep_ = "nsubj"
    cop.head, cop.dep_ = cop, "ROOT"
    obj.head, obj.dep_ = cop, "attr"
    verb.head, verb.dep_, verb.pos_ = obj, "amod", "ADJ"


def _retagged_verb(token: Token) -> bool:
    """Tag ``token`` as a verb in "-s" when the parser made it the head of a clause with a
    subject ("Caroline now volunteers at ...") although the tagger read a plural noun; True when
    it did."""
    if token.tag_ == "NNS" and token.dep_ == "ROOT" and any(
            c.dep_ == "nsubj" for c in token.children):
        token.tag_, token.pos_ = "VBZ", "VERB"
        return True
    return False


def _joined_clauses(text: str, is_verb, irregular) -> str:
    """A subject-less fact's later clauses after ";" joined to the first by a comma (same
    length, so offsets stay), when they are subject-less too: "I now drink coffee black; cut
    out oat milk" -> "…, cut out oat milk", which the parser reads as a second verb of the
    same subject (a clause after ";" alone has none)."""
    if ";" not in text:
        return text
    parts = text.split(";")
    out = parts[0]
    for part in parts[1:]:
        words = part.split()
        first = next((w for w in words if w.lower() not in ("now", "also", "still")), "")
        # a lower-case verb opens it ("cut out oat milk": a past form equal to its base)
        verb = first[:1].islower() and (is_verb(first) or first in irregular)
        out += ("," if verb or subjectless(part, is_verb, irregular) else ";") + part
    return out


def _located_fragment(doc: Doc) -> int | None:
    """The offset of the comma of a verbless "NAME, in PLACE." fragment, else None: one
    sentence, no verb, a proper-noun root, then a comma and a locative preposition with a
    proper-noun object (the elided copula of a located entity)."""
    if len(doc) > 12 or any(t.pos_ in ("VERB", "AUX") for t in doc):
        return None
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    # a capitalised name the tagger took for a common noun ("Toulouse, in Europe.") too
    if root is None or root.i + 2 >= len(doc) or not (root.pos_ == "PROPN" or (
            root.pos_ == "NOUN" and root.text[:1].isupper()
            and not any(c.dep_ == "det" for c in root.children))):
        return None
    # the name may carry its own "of" phrase: "Royal College of Music, in London."
    comma = next((t for t in doc[root.i + 1:] if t.text == ","), None)
    if comma is None or comma.i + 1 >= len(doc) or any(
            root not in t.ancestors for t in doc[root.i + 1:comma.i]):
        return None
    prep = doc[comma.i + 1]
    if prep.lower_ not in _LOCATIVE_PREPS or prep.head != root:
        return None
    if not any(c.dep_ == "pobj" and c.pos_ == "PROPN" for c in prep.children):
        return None
    return comma.idx

