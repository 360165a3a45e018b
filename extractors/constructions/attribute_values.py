"""Typed values on named attributes (issue 37, kind 2).

"The snack budget was adjusted to $75", "first sprint deadline April 1, 2024", "Zotero library
now contains 45 sources", "The scheduled Zoom call was moved to April 22 at 11 AM", "The build
server's SSH port is now 49222". A typed value — money, a percentage, a date, a clock time, an
amount in a unit, a count of things, a bare number — hangs on the noun phrase of an attribute;
that phrase, with its modifiers, is the relation, so that the same attribute said in other
words ("adjusted to" / "increased to"; "contains" / "now includes") meets it under one key:

    (owner, attribute phrase, normalised value), rule ``attribute_value``

The owner is the user, or a person named as the phrase's possessor ("Scott's homework
completion rate"); a thing that possesses the attribute is part of the attribute's name ("the
build server's SSH port" -> "build server ssh port"). A date or clock value of an event noun
is named by its type: ``(owner, "zoom call (time)", "11:00")``. A count names ``number of`` the
counted thing, and only with a verb that holds (contain, include, have) or sets a value: a
count done ("completed 8 problems") is a step, not a state.

The value attaches to the phrase in one of these shapes (Quirk et al. 1985 §10.8 on
complementation; the verbs are ``extractors/data/attribute_values.toml`` with their FrameNet
frames):

* a change verb with "to"/"at": passive or intransitive, the subject is the attribute ("was
  adjusted to $75", "has decreased to 120ms"); active, the direct object ("I increased my book
  budget to $50", "moved the standup to 9:30");
* a copula or a verb of reaching ("is now 49222", "reached 92%", "stands at 45");
* a verb that holds a count or measures ("contains 45 sources", "costs $350");
* apposition or a premodifying value ("deadline April 1", "a $700 budget ceiling").

Time adjuncts ("on April 28", "by May 13") and the earlier value of "from A to B" give no
value. Questions, conditions and modal plans are not read. The construction adds triples and
changes no other rule's.
"""

from __future__ import annotations

import functools
import itertools
import re
import tomllib
from importlib import resources

from extractors.doc_cache import doc_text
from extractors.types import Triple
from extractors.values import normalize_value

RULE = "attribute_value"
DIRECTED = "directed"
"""The ``change`` qualifier of a value read after "up to" / "down to" (:func:`_directed`): the
clause says the attribute moved, with no change word a memory's text could be searched for."""


@functools.lru_cache(maxsize=1)
def _words() -> dict[str, frozenset[str]]:
    return {name: frozenset(row.get("verbs", row.get("words", ()))) for name, row in
            _table().items() if name not in ("verb_nouns", "complement_relations")}


NOUN_ATTRIBUTES: frozenset[str] = frozenset()
"""Functional relations that are one-valued only as attribute nouns (the data file's
``noun_attributes``)."""
COMPLEMENT_RELATIONS: frozenset[str] = frozenset()
"""Relations whose complement names which attribute they are (``complement_relations``)."""


def complement(relation: str, text: str) -> str | None:
    """The complement of ``relation``'s last word in ``text`` ("prefer JWT over session
    cookies" -> "over session cookies"; "confidence in operator theory" -> "in operator
    theory"): the preposition and up to three words after it, lower case; None when the text
    has none. Only for :data:`COMPLEMENT_RELATIONS`."""
    word = relation.rsplit(" ", 1)[-1]
    if word not in COMPLEMENT_RELATIONS:
        return None
    pattern = _complement_pattern(word)
    found = pattern.search(text)
    if found is None:
        return None
    words = found.group(1).lower().split()
    kept = words[:1] + list(itertools.takewhile(lambda w: w not in _COMPLEMENT_ENDS, words[1:]))
    return " ".join(kept) if len(kept) > 1 else None


@functools.lru_cache(maxsize=256)
def _complement_pattern(word: str) -> re.Pattern:
    stem = word[:-1] if word.endswith("e") else word
    preps = "|".join(p.replace(" ", r"\s+") for p in _table()["complement_relations"][word])
    return re.compile(rf"\b{re.escape(stem)}\w*\b(?:\s+[\w$%.,'-]+){{0,4}}?\s+"
                      rf"((?:{preps})\s+(?!\d)[\w'-]+(?:\s+[\w'-]+){{0,2}})",
                      re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def _table() -> dict:
    return tomllib.loads(resources.files("extractors.data").joinpath(
        "attribute_values.toml").read_text(encoding="utf-8"))


def _verb_noun(lemma: str) -> str | None:
    """The attribute noun a measuring verb names ("cost" -> "cost", "weigh" -> "weight")."""
    value = _table()["verb_nouns"].get(lemma)
    return value if isinstance(value, str) else None


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_UNITS = (r"(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?"
          r"|months?|years?|kg|g|lbs?|pounds|km|m|cm|mm|mi|miles?|mb|gb|tb|kb|ghz|mhz|mbps"
          r"|gbps|rpm|fps|k?ops/s|req/s|rps|qps|words|pages|calories|kcal|steps|reps|sets"
          r"|degrees|°[cf]?|c|f|ml|l|liters?|litres?)")
_VALUE = re.compile(
    r"(?P<money>[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion|thousand)\b)?"
    r"|\d[\d,]*(?:\.\d+)?\s?(?:k|m|bn|million|billion|thousand)?\s?"
    r"(?:usd|eur|gbp|chf|jpy|dollars|euros|bucks)\b)"
    r"|(?P<percent>\d+(?:\.\d+)?\s?(?:%|percent\b))"
    rf"|(?P<date>{_MONTH}\s\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s\d{{4}})?\b"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?{_MONTH}(?:,?\s\d{{4}})?\b|\d{{4}}-\d{{2}}-\d{{2}})"
    r"|(?P<clock>\d{1,2}(?::\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)|\d{1,2}:\d{2}\b)"
    rf"|(?P<measure>\d[\d,]*(?:\.\d+)?(?:\s?-\s?\d+(?:\.\d+)?)?\s?(?:k\s)?{_UNITS}(?![\w/]))"
    r"|(?P<number>(?<![\w.])\d[\d,]*(?:\.\d+)?(?:/\d+)?(?!\w|%|\.\d))",
    re.IGNORECASE)
"""Typed values as written; the group names the type."""

def typed_value_spans(text: str) -> list[tuple[int, str, str]]:
    """Every typed value written in ``text``, read without a parse: ``(start offset, type,
    normalised value)``, the type ``money``, ``percent``, ``date``, ``clock``, ``number`` or
    the unit of a measure ("120ms" -> ``"s"``, value ``"0.12 s"``). A four-digit year alone
    is no value."""
    out = []
    for match in _VALUE.finditer(text):
        kind, written = match.lastgroup, match.group()
        if kind == "number" and written.isdigit() and len(written) == 4 and \
                1900 <= int(written) <= 2100:
            continue
        value = (measure_value(written) if kind == "measure" else None) or \
            normalize_value(written)
        if not value:
            continue
        if kind == "measure":
            kind = value.rsplit(" ", 1)[-1] if " " in value else kind
        out.append((match.start(), kind, value))
    return out


def typed_values(text: str) -> frozenset[tuple[str, str]]:
    """The ``(type, normalised value)`` pairs of :func:`typed_value_spans`."""
    return frozenset((kind, value) for _, kind, value in typed_value_spans(text))


NOUN_ATTRIBUTES = frozenset(_table()["noun_attributes"]["words"])
_COMPLEMENT_ENDS = frozenset("""is are was were be been for to at and or but with as by from
that which who because so since when while than over in on of about""".split())
COMPLEMENT_RELATIONS = frozenset(k for k, v in _table()["complement_relations"].items()
                                 if isinstance(v, list))

_TYPE_NAMES = {"money": "amount", "percent": "percentage", "date": "date", "clock": "time",
               "measure": "measure", "number": "number"}
"""The value type named in the relation ("snack budget (amount)"): values of two types never
meet, and no other rule's relation (a verb or a noun) is ever spelt so; a measure is named
by its unit ("login api response time (s)")."""
_TO = frozenset({"to", "at", "into"})
_FROM_START = re.compile(r"\bfrom\s+(?:about\s+|around\s+|roughly\s+)?$", re.IGNORECASE)
_TO_NEXT = re.compile(r"\s*(?:to|-|–)\s+", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s+\S+(?:\s\S+)?\s+to\s+$", re.IGNORECASE)
_DATED = frozenset({"date", "clock"})
_NEGATORS = frozenset({"not", "never", "n't", "no"})
_CONDITIONS = frozenset({"if", "unless", "when", "whenever", "once", "until", "while"})
_RESTRICTIONS = frozenset({"on", "in", "at", "during", "for", "under", "with", "by", "over",
                           "per", "within", "across", "before", "without", "except"})
"""Prepositions of an adjunct that restricts a value to a time, place, manner or
circumstance ("changed to 9am on Sundays", "120ms under 20 concurrent requests", "$85 for the
holidays"; Quirk et al. 1985 §8.14 on adjuncts of space, time and process): a restricted
value is no value of the attribute as such, and is not read."""
_MODALS = frozenset({"might", "may", "could", "would", "should"})
_COMPLEMENTS = frozenset({"of", "in", "on", "for", "with"})
"""Prepositions whose phrase after an attribute noun says whose or which it is ("confidence
in operator theory", "the cost of the course", "the budget for the party", "a limit on
uploads", "the session with the immigration consultant"; Quirk et al. 1985 §17.37-17.44 on
noun complementation): part of the name."""
_POSSESSIVE_USER = frozenset({"my", "our", "i", "we", "me", "us"})


def attribute_values(doc) -> list[Triple]:
    """The ``attribute_value`` triples of a parsed document (:mod:`extractors.parsed`).

    Returns:
        ``(owner, attribute phrase, value)`` triples with ``object_text`` the value as written;
        at most one per attribute phrase and value type of a sentence.
    """
    text = doc_text(doc)
    found: list[Triple] = []
    seen: set[tuple[str, str]] = set()
    tokens = list(doc)
    if not tokens:
        return found
    starts = {t.idx: t for t in tokens}
    for match in _VALUE.finditer(text):
        kind = match.lastgroup
        span = [t for t in tokens if match.start() <= t.idx < match.end()]
        if not span or tokens[0].idx > match.start() or match.start() not in starts:
            continue
        head = next((t for t in span if t.head not in span or t.head is t), span[-1])
        sent = head.sent
        if sent.text.rstrip().endswith("?"):
            continue
        before = text[max(0, match.start() - 80):match.start()]
        if _FROM_START.search(before) and _TO_NEXT.match(text, match.end()):
            continue  # "from 60% to 85%": the value the change left behind
        changed = False
        if _FROM_BEFORE.search(before):
            reading = _governor(head, span)  # "... from 60% to 85%": 85% (the parse is loose)
            changed = True
        else:
            reading = _reading(head, span, kind)
            before_span = span[0].i - 1
            if reading is None and before_span >= 0 and tokens[before_span].dep_ == "prep" \
                    and tokens[before_span].lower_ in _TO | {"for"} and head.dep_ != "pobj":
                reading = _prep_reading(tokens[before_span], kind)  # a loose parse of the value
        directed = False
        if reading is None and _UP_DOWN_TO.search(before):
            reading = _directed(head)  # "has gone up to £515", "is down to £35 a week"
            changed = directed = reading is not None
        if reading is None:
            continue
        owner, attribute = reading
        if kind == "number" and match.group().isdigit() and len(match.group()) == 4 and \
                1900 <= int(match.group()) <= 2100:
            continue  # a year alone is a time, not a value
        value = measure_value(match.group()) if kind == "measure" else None
        value = value or normalize_value(match.group())
        if not value:
            continue
        unit = value.rsplit(" ", 1)[-1] if kind == "measure" and " " in value else None
        attribute = f"{attribute} ({unit or _TYPE_NAMES[kind]})"
        slot = (attribute, kind)
        if slot in seen:
            continue
        seen.add(slot)
        clause = _clause_of(head)
        changed = changed or _marks_change(head, clause)
        found.append(Triple(owner, attribute, value, False, clause.left_edge.idx,
                            clause.right_edge.idx + len(clause.right_edge.text),
                            match.group(), (("change", DIRECTED if directed else "marked"),) if changed
                            else (), RULE))
    return found


_AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?(k|m)?\s?(\S.*)$", re.IGNORECASE)


def measure_value(text: str) -> str | None:
    """An amount in a unit the unit registry does not know ("3.3k ops/s"), as a plain number
    and the unit ("3300 ops/s"); None when :func:`extractors.values.normalize_value` reads
    it (its unit is known) or the text is no such amount."""
    known = normalize_value(text)
    if known != text.lower() and known != text:
        return None
    found = _AMOUNT.match(text.strip())
    if not found:
        return None
    number = float(found.group(1).replace(",", "")) * {"k": 1e3, "m": 1e6}.get(
        (found.group(2) or "").lower(), 1)
    return f"{number:.6f}".rstrip("0").rstrip(".") + f" {found.group(3).lower()}"


def _marks_change(head, clause) -> bool:
    """Whether the value is stated as the result of a change or as the state now: its clause's
    verb is a change or reaching verb (:data:`_words` ``change``, ``reach``: "was moved to",
    "has grown to", "reached") or the clause says "now" (Quirk et al. 1985 §8.128). A value
    stated so is the current one of its attribute; a value noted in passing ("noting a 10%
    failure rate at 350ms") reports one episode."""
    words = _words()
    token = head
    for _ in range(4):
        if token.pos_ in ("VERB", "AUX") and token.lemma_.lower() in words["change"] | \
                words["reach"]:
            return True
        if token.head is token:
            break
        token = token.head
    return any(t.lower_ == "now" for t in clause.subtree)


def _clause_of(token):
    while token.head is not token and token.dep_ not in ("ROOT", "conj", "ccomp", "advcl",
                                                          "relcl", "xcomp"):
        token = token.head
    return token


def _reading(head, span, kind) -> tuple[str, str] | None:
    """``(owner, attribute)`` the value at ``head`` hangs on, or None."""
    words = _words()
    dep, parent = head.dep_, head.head
    # "to $75", "at 4:30 PM": the object of a preposition on a verb
    if dep == "pobj" and parent.dep_ == "prep":
        return _prep_reading(parent, kind)
    if dep in ("attr", "acomp") and parent.lemma_ == "be" and _plain(parent):
        return _subject_phrase(parent)
    if dep in ("dobj", "npadvmod", "attr") and parent.pos_ in ("VERB", "AUX") and _plain(parent):
        lemma = parent.lemma_.lower()
        if lemma in words["reach"] or lemma in words["measure"]:
            return _named(lemma, _subject_phrase(parent))
        if lemma in words["holding"] and kind == "number":
            return None
    if kind == "number" and dep == "nummod" and parent.tag_ == "NNS":
        verb = parent.head
        if (parent.dep_ == "dobj" and verb.pos_ in ("VERB", "AUX") and _plain(verb)
                and verb.lemma_.lower() in words["holding"]):
            subject = _subject_phrase(verb)
            if subject is None:
                return None
            owner, whose = subject
            counted = parent.lemma_.lower()
            return owner, f"number of {counted} of {whose}" if whose else f"number of {counted}"
        return None
    if dep in ("appos", "npadvmod", "nummod", "compound", "amod", "nmod") and \
            parent.pos_ in ("NOUN", "PROPN") and parent not in span and kind != "number":
        if dep in ("nummod", "compound", "amod") and kind in _DATED:
            return None  # "the April 5 release": a date naming which one
        if parent.lemma_.lower() not in words["value_nouns"]:
            return None  # "a $20 aromatherapy kit": a thing of that price, one of many
        if parent.dep_ == "pobj" and parent.head.lower_ != "of":
            return None  # "with 1.5% error rate", "under a $50 fee": a circumstance
        verb = parent.head
        while verb.pos_ not in ("VERB", "AUX") and verb.head is not verb and \
                verb.dep_ in ("conj", "appos", "dobj", "nsubj", "attr"):
            verb = verb.head
        if verb.pos_ in ("VERB", "AUX") and not _plain(verb):
            return None  # "targeting a $1,000 donation goal"
        return _phrase(parent)
    return None


def _prep_reading(parent, kind: str) -> tuple[str, str] | None:
    """``(owner, attribute)`` of a value that is the object of the preposition ``parent``."""
    words = _words()
    prep, verb = parent.lower_, parent.head
    if prep in words["time_adjuncts"] and not (prep == "for" and kind in _DATED):
        return None
    if verb.pos_ in ("NOUN", "PROPN") and prep in ("at", "of") and kind not in ("date",
                                                                                "number"):
        return _phrase(verb)  # "a response time of 120ms", "ceiling at $700"
    if verb.pos_ not in ("VERB", "AUX") or prep == "from":  # "from 60%": the value left behind
        return None
    lemma = verb.lemma_.lower()
    if verb.dep_ in ("advcl", "xcomp", "conj") and lemma in words["schedule"] | \
            words["reach"] and prep in _TO | {"for"} and verb.head.pos_ == "VERB" and \
            verb.head.lemma_.lower() in words["change"] and _plain(verb.head):
        return _verb_attribute(verb.head)  # "shifted, aiming for May 5"
    if not _plain(verb) or _restricted(verb, parent, dated_ok=lemma in words["change"] | words[
            "reach"]):
        return None
    if prep == "at" and lemma in words["measured_at"]:
        return _named(lemma, _verb_attribute(verb))
    if prep == "at" and lemma == "be":
        return _subject_phrase(verb)  # "my confidence in X is at 79%"
    if prep in _TO and lemma in words["change"] | words["reach"] | words["measured_at"]:
        return _named(lemma, _verb_attribute(verb))
    if prep in _TO | {"for"} and lemma in words["schedule"] and kind in _DATED and (
            _verb_attribute(verb) or _ruling_attribute(verb)):
        return _verb_attribute(verb) or _ruling_attribute(verb)
    return None

_UP_DOWN_TO = re.compile(r"\b(?:up|down)\s+to\s+(?:about\s+|around\s+|roughly\s+)?$",
                         re.IGNORECASE)


def _directed(head) -> tuple[str, str] | None:
    """The attribute a value after "up to" / "down to" is the new value of: the clause's
    verb is a :data:`_words` ``directed`` verb, its attribute the copula's subject or the
    change verb's (:func:`_verb_attribute`). The parser reads "up to" as a bound of the
    number ("up to 515"), so the verb is the first one above the value."""
    verb = head
    for _ in range(4):
        if verb.pos_ in ("VERB", "AUX"):
            break
        if verb.head is verb:
            return None
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX") or not _plain(verb) or \
            verb.lemma_.lower() not in _words()["directed"]:
        return None
    if verb.lemma_ == "be":
        return _subject_phrase(verb)
    return _verb_attribute(verb)


def _governor(head, span) -> tuple[str, str] | None:
    """The attribute of the "to" value of "from A to B": the nearest noun or verb above it
    that is no part of a value."""
    token = head
    for _ in range(6):
        token = token.head
        if token in span or token.tag_ in ("CD", "$") or token.lower_ in ("%", "from", "to"):
            if token.head is token:
                return None
            continue
        if token.pos_ in ("NOUN", "PROPN") and token.lower_ not in _words()["not_attributes"]:
            return _phrase(token)
        if token.pos_ == "VERB":
            return _verb_attribute(token) if _plain(token) else None
        if token.head is token:
            return None
    return None


def _plain(verb) -> bool:
    """Whether a verb's clause asserts a state: a finite verb or a participle with its
    auxiliary, and no negation, modal of possibility, condition or question. A bare gerund
    or infinitive ("focusing on cutting latency to 50ms", "to raise the cap to 10") states a
    goal or an activity, not the attribute's value (Quirk et al. 1985 §14.3 on non-finite
    clauses)."""
    if verb.tag_ in ("VBG", "VB") and not any(c.dep_ in ("aux", "auxpass") for c in
                                               verb.children):
        return False
    if verb.tag_ == "VB" and any(c.lower_ == "to" and c.dep_ == "aux" for c in verb.children):
        return False
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ in _NEGATORS:
            return False
        if child.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CONDITIONS
                                         for c in child.children):
            return False  # "if I move to Lisbon, my rent is 900 euros"
        if child.dep_ == "aux" and child.lower_ in _MODALS:
            return False
        if child.dep_ == "mark" and child.lower_ in ("if", "unless", "whether"):
            return False
    return True


def _restricted(verb, value_prep, *, dated_ok: bool = False) -> bool:
    """Whether the verb carries an adjunct of :data:`_RESTRICTIONS` besides the preposition
    of its value (a second "at" with a clock time after a date is part of the value), or a
    noun of time before it ("Weekdays my alarm is 6am"). With ``dated_ok`` (a change verb),
    a date or time after the value says when the change happened, not under what condition
    the value holds ("increased my accuracy to 60% by April 12")."""
    for child in verb.children:
        if child is value_prep or child.dep_ != "prep" or child.lower_ not in _RESTRICTIONS:
            if child.dep_ == "npadvmod" and child.i < verb.i and child.pos_ == "NOUN":
                return True
            continue
        objects = [c for c in child.children if c.dep_ == "pobj"]
        written = " ".join(t.text for t in objects[0].subtree) if objects else ""
        if child.lower_ == "at" and objects and _VALUE.fullmatch(written):
            continue
        dated = _VALUE.fullmatch(written) if dated_ok and child.i > value_prep.i else None
        if dated is not None and dated.lastgroup in _DATED:
            continue
        return True
    return False


def _verb_attribute(verb) -> tuple[str, str] | None:
    """The attribute a change verb sets: its passive or intransitive subject, else its
    direct object."""
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    subjects = [c for c in verb.children if c.dep_ in ("nsubjpass", "nsubj")]
    passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children)
    if not objects and not subjects and verb.dep_ == "conj" and verb.head.pos_ == "VERB":
        # a coordinated predicate shares its head's subject (Quirk et al. 1985 §13.48):
        # "The number of commits merged into main has grown to 165", parsed as two verbs
        subjects = [c for c in verb.head.children if c.dep_ in ("nsubjpass", "nsubj")]
    if objects and not passive:
        return _phrase(objects[0])
    if subjects and subjects[0].pos_ in ("NOUN", "PROPN"):
        return _phrase(subjects[0])
    if verb.dep_ in ("acl", "relcl") and verb.head.pos_ in ("NOUN", "PROPN"):
        return _phrase(verb.head)
    return None


def _named(lemma: str, reading: tuple[str, str] | None) -> tuple[str, str] | None:
    """A reading under a measuring verb named by its noun ("costs" -> "cost of course")."""
    noun = _verb_noun(lemma)
    if reading is None or noun is None or reading[1].split()[-1] == noun:
        return reading
    return reading[0], f"{noun} of {reading[1]}"


def _ruling_attribute(verb) -> tuple[str, str] | None:
    """The event a scheduling verb in a participle or relative clause sets ("the session
    booked for May 22")."""
    if verb.dep_ in ("acl", "relcl", "amod") and verb.head.pos_ in ("NOUN", "PROPN"):
        return _phrase(verb.head)
    return None


def _subject_phrase(verb) -> tuple[str, str] | None:
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects or subjects[0].pos_ not in ("NOUN", "PROPN"):
        if verb.dep_ in ("acl", "relcl") and verb.head.pos_ in ("NOUN", "PROPN"):
            return _phrase(verb.head)
        return None
    return _phrase(subjects[0])


def _phrase(noun) -> tuple[str, str] | None:
    """``(owner, attribute)`` of a noun phrase: its compound and adjective modifiers and an
    "of" phrase, lemmatised; a person's name or "my" as possessor is the owner, a thing's
    name as possessor is part of the attribute."""
    owner, parts, mine = "user", [], False
    for child in noun.lefts:
        if child.dep_ == "poss":
            if child.lower_ in _POSSESSIVE_USER:
                mine = True
                continue
            if child.pos_ == "PRON":
                return None  # "its success rate": an owner the phrase does not name
            if child.pos_ == "PROPN" and not any(c.dep_ == "compound" for c in child.lefts):
                owner = child.lower_
                continue
            parts.extend(_words_of(child))
        elif child.dep_ in ("compound", "amod", "nmod") and child.tag_ not in ("CD", "$") \
                and child.pos_ in ("NOUN", "PROPN", "ADJ", "VERB") and _wordlike(child) \
                and child.lower_ not in _words()["non_restrictive"]:
            parts.extend(_words_of(child))
    head = noun.lemma_.lower() if noun.tag_ in ("NNS", "NNPS") else noun.lower_
    parts.append(head)
    for child in noun.rights:
        if child.dep_ == "prep" and child.lower_ in _COMPLEMENTS:
            objects = [c for c in child.children if c.dep_ == "pobj"]
            if objects and objects[0].pos_ in ("NOUN", "PROPN") and \
                    objects[0].lower_ not in _words()["not_attributes"]:
                parts.append(child.lower_)
                parts.extend(_words_of(objects[0]))
    attribute = " ".join(p for p in parts if p and p.isascii() and not p.isdigit())
    if not attribute or (len(parts) == 1 and head in _words()["not_attributes"]):
        return None
    if len(parts) == 1 and owner == "user" and not mine:
        return None  # "the error rate", "rent": whose, or of what, is not said
    return owner, attribute


def _wordlike(token) -> bool:
    """A token with a letter in it ("API", "self-adjoint"), not "%" or "$"."""
    return any(c.isalpha() for c in token.text)


def _words_of(noun, depth: int = 0) -> list[str]:
    """A modifier noun with its own compounds, recursively ("login API" of "login API
    response time"), lower case, no possessive."""
    out = []
    for child in noun.lefts:
        hyphened = child.dep_ == "npadvmod" and child.i + 1 < noun.i and \
            noun.doc[child.i + 1].tag_ == "HYPH"  # "problem-solving"
        if (child.dep_ in ("compound", "amod") or hyphened) and child.tag_ != "CD" and \
                depth < 4 and _wordlike(child) and \
                child.lower_ not in _words()["non_restrictive"]:
            out.extend(_words_of(child, depth + 1))
    out.append(noun.lower_.removesuffix("'s"))
    return [w.strip("'’") for w in out if w.strip("'’")]
