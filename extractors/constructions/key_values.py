"""Key: value lines ("retry_timeout = 30s", "Timeout for service A: 30s")."""

from __future__ import annotations

import re

from spacy.tokens import Doc

from extractors.relations import RELATIONSHIP_NOUNS, SPELLING, Cardinality
from extractors.syntax import (
    _CLAUSE_OPENING, _FIRST_PERSON, _KEY_VALUE, _surface, _word, NOUN_INDEX, USER)
from extractors.constructions.descriptions import common_description, describes_person
from extractors.types import Triple
from extractors.values import is_quantity, normalize_value
from extractors.constructions.attribute_values import measure_value as _measure_value
from extractors.change_cues import CHANGED_LABEL
from extractors.doc_cache import doc_text
from extractors.memory_forms import _base_form
from extractors.note_words import DEICTIC_WORDS


_COMMENT = re.compile(r"\s*(?:\(|\s[\u2014\u2013-]\s|;|\s#\s)")
"""Where a profile value's comment starts: a parenthesis, a spaced dash, a semicolon, a
configuration file's " # " comment."""
_NEGATORS = frozenset({"not", "no", "never", "n't"})
_STILL = frozenset({"longer", "anymore", "more", "now", "currently", "still"})
_ANSWERS = frozenset({"yes", "no", "none", "true", "false", "y", "n"})
_EMPTY = frozenset({"none", "nothing", "no", "n/a", "nil"})
"""Answers that say a plural key's set is empty ("Pets: none")."""
_NONE = _EMPTY - {"no"}
"""Answers that say a singular key has no value ("Pet: none", "Diet: none"); "no" answers a
yes-no key ("Smoker: no")."""
_ADJUNCT = re.compile(
    r"\s+(?:(?:since|as of|starting|until|till|after|because|due to|following)\s.*"
    r"|\d+\s*x\s*(?:/|a|per)\s*(?:day|week|month|year)\b.*"
    r"|(?:once|twice|\d+ times|(?:three|four|five) times)\s+(?:a|per)\s+"
    r"(?:day|week|month|year)\b.*)$", re.IGNORECASE)
"""A profile value's trailing time, reason or frequency adjunct, which qualifies the value but
is not part of it: "keto since last month", "8 after the incident", "CrossFit 4x/week"."""
_PAST_OR_FUTURE = (r"[Uu]ntil|[Tt]ill|[Pp]revious(?:ly)?|[Ff]ormer(?:ly)?|[Uu]sed to|will"
                   r"|[Uu]pcoming|[Pp]lanned|[Ss]oon"
                   r"|next (?:week|month|year|summer|spring|autumn|fall|winter|term|semester)"
                   r"|(?:19|20)\d\d\s*[-\u2013]\s*(?:(?:19|20)\d\d|\d\d)(?![\d-])")
_NOT_NOW_COMMENT = re.compile(rf"\b(?:{_PAST_OR_FUTURE})\b")
_NOT_NOW = re.compile(rf"\b(?:{_PAST_OR_FUTURE}|[Bb]efore)\b")
"""A profile value said to hold before now or only later: "Employer: Zalando until 2019",
"(2015-2019)", "(previous job)", "City: Lisbon after the wedding next year"; such a line states
no current value (a comment may say "before" of the change itself: "none (sold it before the
move)")."""
_FORMER_VALUE = re.compile(r"\s*\(\s*(?:used to be|formerly|previously|was)\s+\w")
"""A comment naming the value the current one replaced: "Ethiopian (used to be Thai)"."""
_STATE_CODE = re.compile(r"[A-Z]{2,3}")
_MEASURED = re.compile(r"(?P<amount>\d[\d,]*(?:\.\d+)?\s?[kKmM]?\s?[A-Za-z]+/[A-Za-z]+)"
                       r"(?:\s+(?P<where>(?:at|under|with|on|for)\s+[^,;]{1,40}?))?\.?$")
"""A rate in a unit of the form "<thing>/<time>" ("3.3k ops/s", "120 req/min"), with the
circumstance it holds in ("at 128 agents")."""
"""A piece after a place's name that is its state's or country's code ("Oakland, CA")."""
_PLACE_KEYS = frozenset({"home", "city", "town", "location", "hometown", "home town", "residence", "address",
                         "live in", "located in", "based in", "place of birth", "birthplace", "current city"})
"""Profile keys whose value is a place: capitalised pieces after the first name its region
("Home: Lyon, France" is Lyon), not more values ("Employer: Stripe, Figma" holds two)."""

_IDENTIFIER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+")
"""A key written as a program's identifier: snake_case, dotted or camelCase."""
_NEXT_LABEL = re.compile(
    r"(?<=[.,;|\u00b7\u2022])\s+(?=[A-Z][\w'/\-]*(?: [\w'/\-]+){0,3}: )")
_NEXT_LOWER_LABEL = re.compile(
    r"(?<=[.;|\u00b7\u2022])\s+(?=[a-z][\w'/\-]*(?: [\w'/\-]+){0,2}: )")
"""Where a profile block's next label starts on the same line: after a full stop, semicolon,
bar, middle dot or bullet, a capitalised label of one to four words and a colon ("Name: Chad.
Likes: hiking. Pet: a cat named Miso", "• Name: Aisha • Employer: Northwind")."""
_OPENING_LABEL = re.compile(r"\s*[A-Za-z][\w .'/\-]{0,60}?\s*(?::(?=\s)|=)\s*\S")
"""A line that opens with a label, whatever the length of what follows (a block of several
labels on one line is longer than one value, :data:`extractors.syntax._KEY_VALUE`)."""


_RESTRICTED_VALUE = re.compile(
    r"(?P<value>\S+)\s+(?:for|in|on)\s+(?:the\s+|our\s+|my\s+)?"
    r"(?P<owner>(?:(?!\b(?:and|or|for|in|on|at)\b)[A-Za-z_ .-]){1,40}?)\s*$")
"""A setting's one-word value followed by what it is for or where it holds ("3 for the
ingest job", "DEBUG in production")."""


_NAME_WORD = r"(?:[A-Z][\w.+#-]*|[a-z]+[A-Z][\w.+#-]*|\d[\w.-]*)"
"""A word of a name or version: capitalised, a brand's inner capital ("macOS", "iPhone",
"eBay") or a number."""
_SITUATED_NAME = re.compile(
    rf"(?P<value>{_NAME_WORD}(?: {_NAME_WORD}){{0,3}})"
    r"\s+(?P<prep>for|on|in|at)\s+(?:the\s+|my\s+|our\s+|a\s+|an\s+)?"
    r"(?P<where>[a-z](?:(?!\s(?:and|or|for|in|on|at)\s)[\w .'-]){0,40}?|[A-Z][\w.'-]{0,20})\s*$")
"""A profile or setting value of name words (a name, a version: :data:`_NAME_WORD`) followed by
the lower-case situation it holds in ("Ubuntu 22.04 on my laptop", "Node 20 for the frontend")
or the platform it runs on ("VS Code 1.85 on Windows"); "Lisbon in Portugal" names a place in
a place and stays one value."""
_OTHER_OWNER = re.compile(
    r"^\s*\(\s*(?:(?:my|our|the|his|her|their)\s+)?[A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*)?"
    r"(?:['\u2019]s|s['\u2019])\s*\)")
"""A comment that is an independent genitive naming the value's owner, with its head left out
(Quirk et al. 1985, §17.41: "(wife's)", "(my brother's)", "(the twins')"): the value is that
owner's, not the profile's subject's."""
_RESTRICTING_COMMENT = re.compile(
    r"^\s*(?:\(|#)\s*(?P<where>(?:(?:for|on|at|in)\s+)?(?:the\s+|my\s+)?"
    r"(?:work|home|personal|office|staging|prod|production|dev|test|laptop|desktop|phone|"
    r"mobile|server|servers|router|machine|account)\b[\w ]{0,30}?)\s*(?:only)?\s*\)?\s*$",
    re.IGNORECASE)
"""A comment that names where a value holds rather than why it changed: "# personal machine",
"(office only)", "# staging only", "(for work)"."""
_ENDED_VALUE = re.compile(
    r"^\s*\(\s*(?:stopped|dropped|quit|gave up(?: on)?|no longer|left|cancell?ed|canceled|ended)"
    r"\s+(?:the\s+|my\s+|his\s+|her\s+|their\s+)?"
    r"(?P<value>(?!(?:for|until|till|while|during|at|in|on|to|doing|going)\b)[A-Za-z][\w'-]*"
    r"(?:\s(?!(?:for|until|till|while|during|temporarily|briefly|again|and|or|but|in|on|at|"
    r"last|this|since|ago|after|following|when|because)\b)[\w'-]+){0,3}?)"
    r"(?:\s+(?:in|since|back in)\s+(?:(?:19|20)\d\d|january|february|march|april|may|june|"
    r"july|august|september|october|november|december|spring|summer|autumn|fall|winter)"
    r"|\s+last\s+(?:week|month|year|spring|summer|autumn|fall|winter)"
    r"|\s+(?:a|one|two|three|four|five|six|\d+)\s+(?:weeks?|months?|years?)\s+ago)?"
    # what brought the ending about: an event after which it ended ("after shoulder surgery",
    # "after the injury"; a lone word or a clock time is a habit's restriction: "after dark",
    # "after 9pm") or a clause of time or reason in the past ("when the studio closed",
    # "because it got too pricey"; Quirk et al. 1985 §15.25, §15.45); a present one restricts
    # a habit ("when it's cold") and ends nothing, nor does weather ("when it got cold": a
    # season's pause)
    r"(?:\s+(?:after|following)\s+(?:(?:a|an|the|my|his|her|their)\s+[A-Za-z][\w'-]*"
    r"(?:\s[A-Za-z][\w'-]*){0,3}|[A-Za-z][\w'-]*(?:\s[A-Za-z][\w'-]*){1,3})"
    r"|\s+(?:when|because)\s+(?:the|my|his|her|their|they|he|she|i|we)\b[^()\d]{0,40}?"
    r"\b(?:[a-z]+ed|was|were|got|went|broke|shut|fell|left|became|came|ran|had)\b"
    r"[^()\d]{0,30})?"
    r"\s*\)[.;]?\s*$", re.IGNORECASE)
"""A profile value's comment saying a value of the key has ended: "Hobbies: knitting (stopped
birdwatching)", "Diet: no restrictions (dropped low-carb)", "Employer: Globex (left Acme in
April)" (FrameNet Activity_stop, Quitting, Abandonment). Only a short value and at most a time
point after it: a spell ("for the summer", "until May") or more commentary says no ending."""
_KEY_PREPOSITIONS = frozenset({"in", "at", "for", "with", "on", "to", "from", "by"})
"""Prepositions after a verb that labels a profile line ("Lives in:", "Works at:")."""
_CODE_PIECE = re.compile(r"[A-Za-z0-9]+(?:[-_.:/][A-Za-z0-9]+)+")
"""A value written as one code: "us-east-1", "9.9.9.9", "db_main"."""
_BULLET = re.compile(r"\s*(?:[-*+\u2022\u2023\u25e6\u2043]|\d{1,2}[.)])\s+")
"""A list item's marker at the start of a line: "- ", "* ", "• ", "1. ", "2) "."""
_NAME_KEYS = frozenset({"name", "full name", "client", "patient", "contact", "person"})
_PERSON_NAME = re.compile(
    r"[^\W\d_][\w'\u2019.-]*(?: (?:(?:de|da|do|dos|das|del|della|di|du|van|von|der|den|le|la"
    r"|bin|ibn|al|el|y) )?[^\W\d_][\w'\u2019.-]*){0,3}")
"""A name label's value that names a person: one to four words ("Bram Visser", "Álvaro Pérez",
"Ana de Souza")."""
_HEADING = re.compile(r"\s*(?P<heading>[^:\n]{1,60}):\s*(?:\n|$)")
"""A first line that only announces what the lines under it describe ("Trip plan:")."""
_PROFILE_HEADINGS = re.compile(
    r"(?:(?:my|the user'?s?|user|personal)\s+)?(?:profile|details|info|information|bio|facts)"
    r"|about (?:me|the user)|me|user", re.IGNORECASE)
"""Headings of the user's own profile ("Profile:", "About me:", "User details:")."""


def _singular(word: str) -> str:
    """A plural common noun's singular by the lemmatizer's noun rules and index ("replies"
    -> "reply", "jobs" -> "job"), as the copula's subject is lemmatised; other words as
    they are."""
    if not NOUN_INDEX or word in NOUN_INDEX or not word.endswith("s"):
        return word
    for suffix, replacement in (("ies", "y"), ("ses", "s"), ("xes", "x"), ("ches", "ch"),
                                ("shes", "sh"), ("s", "")):
        if word.endswith(suffix) and word[:-len(suffix)] + replacement in NOUN_INDEX:
            return word[:-len(suffix)] + replacement
    return word


def labelled_segments(text: str) -> list[tuple[int, str]]:
    """``(offset, segment)`` for each line of ``text``, a profile block's line cut where its
    next label starts (:data:`_NEXT_LABEL`): "Occupation: engineer. Employer: Stripe." gives
    "Occupation: engineer." and "Employer: Stripe.". A list item's marker is left out ("- City:
    Leeds" is "City: Leeds", :data:`_BULLET`). A line that opens with no label stays whole ("We
    met at 10. Later: lunch")."""
    out: list[tuple[int, str]] = []
    offset = 0
    for whole in text.split("\n"):
        bullet = _BULLET.match(whole)
        skip = bullet.end() if bullet and _KEY_VALUE.match(whole[bullet.end():]) else 0
        line = whole[skip:]
        # (a block written in lower case cuts at lower-case labels: "name: ana lima. city:
        # porto.")
        labels = _NEXT_LOWER_LABEL if line[:1].islower() else _NEXT_LABEL
        cuts = [m.end() for m in labels.finditer(line)] if _OPENING_LABEL.match(line) else []
        for a, b in zip([0, *cuts], [*cuts, len(line)]):
            # (the separator before the next label is no part of the value: "Porto | Job: …")
            out.append((offset + skip + a, line[a:b].rstrip().rstrip("|,\u00b7\u2022").rstrip()
                        if b < len(line) else line[a:b].rstrip()))
        offset += len(whole) + 1
    return out


def block_person(segments: list[tuple[int, str]]) -> str | None:
    """The person a profile block describes when it names one among other labels ("Name: Mira
    Holt. City: Porto."), lower-cased with its spelling kept; None for a block without a name
    label or with the name alone ("Name: Chad" states the user's name). Two blocks naming two
    people describe two people: their cities and jobs are never compared."""
    labelled = [m for m in (_KEY_VALUE.match(line) for _, line in segments) if m]
    names = [_COMMENT.split(m["value"], maxsplit=1)[0].strip().rstrip(".,;|\u00b7 ")
             for m in labelled if m["key"].strip().lower() in _NAME_KEYS]
    if len(names) != 1 or len(labelled) < 2 or not _PERSON_NAME.fullmatch(names[0]):
        return None
    return " ".join(names[0].lower().split())


_ATTRIBUTE_ITEM = re.compile(
    r"(?P<attribute>[A-Za-z][a-z]+(?: [a-z]+){0,2}) (?P<value>[$€£]?\d[\d,.]*(?: ?%| ?[a-zA-Z]{1,5})?)")
"""One item of a labelled list that names an attribute and its amount: "volume discount 10%",
"seats 12", "storage 50 GB" (an attribute noun phrase of up to three words, then the amount)."""


class KeyValueRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for this construction (a mixin:
    it reads the extractor's ``nlp``, ``table``, ``state_changes`` and induced relations)."""

    # -- key: value lines --------------------------------------------------------------------
    def _key_values(self, doc: Doc) -> list[Triple]:
        """Triples of ``key: value`` lines. A profile line's value may carry a comment in
        parentheses or after a dash ("Employer: Globex (left Acme in April)"), a list
        ("Languages: English, Dutch") or a denial ("Diet: no longer vegan, eats fish"): each
        listed value is a triple, a piece with a verb is commentary and skipped, and a plural
        key ("Languages", "Pets") holds a set (rule ``attribute_set``), unless it is a verb's
        key ("Likes: hiking" -> like)."""
        out: list[Triple] = []
        heading = _HEADING.match(doc_text(doc))
        if heading is not None and not _PROFILE_HEADINGS.fullmatch(heading["heading"].strip()):
            # "Trip plan:\n- City: Porto": the lines describe what the heading names (a trip,
            # an order, a ticket, a partner), not the user
            return []
        segments = labelled_segments(doc_text(doc))
        person = block_person(segments)
        for start, line in segments:
            m = _KEY_VALUE.match(line)
            if not m:
                continue
            if _CLAUSE_OPENING.match(m["value"]):
                continue  # "The user corrected this: their birthday is …": no key, a clause
            key, value_text = m["key"], m["value"]
            # "Travel Policy updated: …": the policy's value now, one key with "Travel Policy: …"
            key = CHANGED_LABEL.sub("", key) or key
            if DEICTIC_WORDS.search(key):
                # "Dinner tonight: lasagne": that evening's episode, and another evening's line
                # another episode, never a new value of one attribute (Quirk et al. 1985 §8.55)
                continue
            restricted = _RESTRICTED_VALUE.match(_COMMENT.split(value_text, maxsplit=1)[0])
            if restricted and _IDENTIFIER_KEY.fullmatch(key.strip()):
                # "retry_limit: 3 for the ingest job", "LOG_LEVEL=DEBUG in production": what
                # the setting is for or where it holds names whose setting it is, as "Timeout
                # for service A: 30s" does; the value is the first word
                key = f"{key.strip()} for {restricted['owner']}"
                value_text = restricted["value"] + value_text[restricted.end():]
            situation: list[tuple[str, str]] = []
            situated = _SITUATED_NAME.match(_COMMENT.split(value_text, maxsplit=1)[0])
            if situated and not _IDENTIFIER_KEY.fullmatch(key.strip()) and not (
                    situated["where"][:1].isupper() and situated["prep"] in ("in", "at")):
                # "OS: Ubuntu 22.04 on my laptop", "Database: MySQL 8 for the analytics
                # service": a name or version restricted to a situation, qualified as the
                # copula's is (SettingRules._value_restriction)
                situation.append(("place", f"{situated['prep']} {situated['where'].lower()}"))
                value_text = situated["value"] + value_text[situated.end():]
            subject, relation = self._split_key(key)
            if not relation:
                continue
            if person is not None:
                if m["key"].strip().lower() in _NAME_KEYS:
                    continue  # it names the block's subject
                if subject == USER:
                    subject = person
            last = relation.split()[-1]
            # an identifier names one setting, whatever its last word ("timeout_seconds")
            # (nor is an acronym in "S" a plural: "Primary DNS")
            plural = last.endswith("s") and not last.endswith(("ss", "us", "is")) \
                and not _IDENTIFIER_KEY.fullmatch(m["key"].strip()) \
                and not next((w for w in reversed(key.replace("_", " ").split())
                              if w.lower() == last), "").isupper()
            relation, flips = self.table.canonical(relation)
            plural_key = plural
            if plural and not self._known(relation):
                # "Likes: hiking", "Pets: cat": a many-valued relation's key, (user, like, …)
                singular, singular_flips = self.table.canonical(relation[:-1])
                if self.table.cardinality(singular) is Cardinality.multi_valued:
                    relation, flips, plural = singular, singular_flips, False
            body = _COMMENT.split(value_text, maxsplit=1)[0]
            comment = value_text[len(body):]
            if _NOT_NOW.search(body) or (_NOT_NOW_COMMENT.search(comment)
                                         and not _FORMER_VALUE.match(comment)):
                # "Employer: Zalando until 2019", "City: Lisbon after … next year" ("Thai
                # (used to be Thai)" names the value it replaced: the body is current)
                continue
            if _OTHER_OWNER.match(comment):
                continue  # "Bike: Brompton (my son's)": someone else's, not the subject's
            restriction = _RESTRICTING_COMMENT.search(comment)
            if restriction and not situation:
                # "Shell: zsh # personal machine", "Primary DNS: 10.0.0.1 (office only)": the
                # comment says where the value holds
                where = restriction["where"].lower()
                situation.append(("place", where if where.startswith(
                    ("for ", "on ", "at ", "in ")) else f"for {where}"))
            pieces = [(piece, m.start("value") + body.find(piece))
                      for piece in (_ADJUNCT.sub("", p.strip()) for p in body.split(","))
                      if piece]
            if _MEASURED.match(body.strip()):  # "3,300 ops/s": one amount, no list
                pieces = [(body.strip(), m.start("value") + body.find(body.strip()))]
            if not plural_key and len(pieces) > 1 and pieces[0][0][:1].isupper() and all(
                    _STATE_CODE.fullmatch(piece) or (relation in _PLACE_KEYS and piece[:1].isupper())
                    for piece, _ in pieces[1:]):
                pieces = pieces[:1]  # "Home: Oakland, CA": a place and its region, one value
            items = [_ATTRIBUTE_ITEM.fullmatch(p) for p, _ in pieces]
            amounts = [item if item and is_quantity(item["value"]) else None for item in items]
            if len(pieces) > 1 and any(amounts[1:]):
                # "Deal terms: net-60, volume discount 10%": each item names an attribute of
                # the labelled thing and its value ("volume discount" of the deal terms)
                for item in filter(None, amounts):
                    out.append(Triple(
                        subject=subject, relation=f"{relation} {item['attribute'].lower()}",
                        object=normalize_value(item["value"]), start=start,
                        end=start + len(line), object_text=item["value"], rule="key_value"))
                pieces = [p for item, p in zip(items, pieces) if not item][:1]
            if not plural_key and len(pieces) > 1 and all(p[:1].islower() for p, _ in pieces[1:]):
                # "Home: terraced house in Sheffield, two bedrooms, small garden": details of
                # one value after it, not more values
                pieces = pieces[:1]
            if len(body) > 80 or not pieces:
                continue
            for piece, at in pieces:
                scope = situation
                if len(pieces) > 1 and not situation:
                    # "Editor: Vim on my server, VS Code on my laptop": each value holds in
                    # its own situation, so a second scoped value adds to the first
                    piece, scope = self._situated_piece(piece, key)
                measured = _MEASURED.match(piece)
                if measured and not scope and _measure_value(measured["amount"]):
                    # "3.3k ops/s at 128 agents": an amount in a unit the unit registry lacks,
                    # under the circumstance it was measured in
                    out.append(Triple(subject=subject, relation=relation,
                                      object=_measure_value(measured["amount"]),
                                      start=start, end=start + len(line),
                                      object_text=measured["amount"], rule="key_value",
                                      qualifiers=(("place", measured["where"].lower()),)
                                      if measured["where"] else ()))
                    continue
                span = doc.char_span(start + at, start + at + len(piece), alignment_mode="expand")
                if span is None or len(span) > 6:
                    continue
                content = [t for t in span if t.lower_ not in _NEGATORS | _STILL]
                lone_state = len(pieces) == 1 and content and content[0].tag_ == "VBN"
                if len(content) > 1 and not lone_state and (
                        content[0].tag_ in ("VBD", "VBZ", "VBG", "VBN", "MD")
                        or content[0].pos_ == "AUX"):
                    continue  # commentary: "sold the Tesla", "eats fish", "quit in 2023"
                if relation in RELATIONSHIP_NOUNS and (len(content) == 1 and describes_person(
                        content[0].lower_) or all(t.text[:1].isupper() for t in content)
                        and common_description([t.lower_ for t in content])) and not (
                        {t.lower_ for t in content} & (_NONE | _EMPTY)):
                    continue  # "Partner: Vegan", "Spouse: Quaker": a description, no name
                # (a participle that is the whole value is a state: "married to Daniel")
                if len(span) == 1 and len(pieces) == 1 and (
                        span[0].lower_ in _EMPTY if plural_key else span[0].lower_ in _NONE):
                    # "Pets: none": the set is empty, every value of it denied (a bare
                    # denial, as "doesn't smoke anymore" is: scanner.core.detect.denies)
                    out.append(Triple(subject=subject, relation=relation, object="",
                                      negated=not flips, start=start, end=start + len(line),
                                      object_text="", rule="state"))
                    continue
                if (len(span) == 1 and span[0].lower_ in _ANSWERS) or not content:
                    # "Smoker: no" answers the key; so does "Student: no longer"
                    words, neg = (list(span) if content else [span[0]]), False
                else:
                    neg = any(t.dep_ == "neg" or t.lower_ in _NEGATORS for t in span)
                    words = [t for t in content if t.lower_ not in ("longer",)]
                if not words:
                    continue
                surface = _surface(words)
                if is_quantity(surface):
                    value = normalize_value(surface)
                elif _CODE_PIECE.fullmatch(piece) and len(span) > 1:
                    # "us-east-1" after "=", which the tokenizer split: the code as written
                    value = piece.lower()
                else:
                    # (the parser's relations inside a profile line mean nothing: a word it
                    # hung on another as "punct" is still the value's, "Software Developer")
                    value = normalize_value(" ".join(
                        w for w in (_word(t) for t in words if not t.is_punct
                                    and t.lower_ not in ("a", "an", "the")) if w)) \
                        or surface.lower()
                out.append(Triple(subject=subject, relation=relation, object=value,
                                  negated=neg != flips, start=start, end=start + len(line),
                                  object_text=surface,
                                  rule="attribute_set" if plural else "key_value",
                                  qualifiers=tuple(scope)))
            ended = _ENDED_VALUE.match(comment)
            if ended is not None:
                at = start + m.start("value") + len(body) + ended.start("value")
                span = doc.char_span(at, at + len(ended["value"]), alignment_mode="expand")
                words = [t for t in span or () if not t.is_punct
                         and t.lower_ not in ("a", "an", "the")]
                value = ended["value"].lower() if _CODE_PIECE.fullmatch(ended["value"]) \
                    else normalize_value(" ".join(w for w in map(_word, words) if w))
                if value and span is not None:
                    # "(stopped birdwatching)": the ended value is denied, the rest stands
                    out.append(Triple(subject=subject, relation=relation, object=value,
                                      negated=not flips, start=start, end=start + len(line),
                                      object_text=span.text,
                                      rule="attribute_set" if plural else "key_value"))
        return out

    @staticmethod
    def _situated_piece(piece: str, key: str) -> tuple[str, list[tuple[str, str]]]:
        """One listed value and the situation it alone holds in ("macOS 14 on my laptop" ->
        "macOS 14", ``[("place", "on laptop")]``, as :data:`_SITUATED_NAME` reads a whole
        value); the piece unchanged and no situation when it names none."""
        situated = _SITUATED_NAME.match(piece)
        if situated is None or _IDENTIFIER_KEY.fullmatch(key.strip()) or (
                situated["where"][:1].isupper() and situated["prep"] in ("in", "at")):
            return piece, []
        return situated["value"], [("place", f"{situated['prep']} {situated['where'].lower()}")]

    def _split_key(self, key: str) -> tuple[str, str]:
        """"Timeout for service A" -> ("service a", "timeout"); "retry_timeout" -> (user, ..)."""
        if _IDENTIFIER_KEY.fullmatch(key.strip()):
            key = key.replace(".", " ")  # "http_client.max_retries", as the copula reads it
        key = " ".join(key.replace("_", " ").replace("-", " ").split()).lower()
        for pattern in (r"^(?P<rel>.+?) (?:for|of) (?P<subj>.+)$", r"^(?P<subj>.+?)'s (?P<rel>.+)$"):
            m = re.match(pattern, key)
            if m:
                subject = re.sub(r"^(?:the|a|an) ", "", m["subj"])
                subject = " ".join(_singular(w) for w in subject.split())
                return (USER if subject in _FIRST_PERSON or subject == "user" else subject,
                        m["rel"])
        words = [SPELLING.get(w, w) for w in re.sub(r"^(?:the|my|our) ", "", key).split()]
        if len(words) == 2 and words[1] in _KEY_PREPOSITIONS and words[0].endswith("s"):
            # "Lives in: Denver", "Works at: Acme": a verb's third person as its key, the
            # relation its base form ("live in"), as the clause "lives in Denver" reads
            base = _base_form(words[0], self._is_verb)
            if base is not None:
                words[0] = base
        return USER, " ".join(words)
