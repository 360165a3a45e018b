"""Memory-writer forms read before parsing: facts stored without a subject.

Memory writers often store a fact about the user with the subject left out: "Is no longer
vegetarian", "Now works at Brightpath", "Dislikes pizza" (the fact format of Mem0's extraction
prompt, for one). Such a fact is about the scope's own user. The small parser cannot read a
sentence that starts with a finite verb (it tags "Dislikes" a proper noun), nor one with "the
user" put in front of it ("The user dislikes pizza" is read as a noun phrase), so the fact is
read in the first person, as chat states it: "I dislike pizza", "I am no longer vegetarian"
(:func:`in_first_person`); offsets are moved back afterwards.

A text is subject-less when its first word, after any of a few sentence adverbs ("now",
"still", "no longer"), is a finite verb form: a listed auxiliary, or a word in "-s" / "-ed"
whose stem the lemmatizer's verb index knows; and the second word is no auxiliary or
possessive, which would make the first word a plural subject ("Dogs are loyal", "Cats'
bowls").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources

from extractors.offsets import Edits
from extractors.relations import RELATIONSHIP_NOUNS, SETTING_VERBS

with resources.files("extractors.data").joinpath("irregular_past.toml").open("rb") as _f:
    IRREGULAR_PAST: tuple[str, ...] = tuple(tomllib.load(_f)["words"])
"""Simple-past forms of irregular verbs that are no base form ("sold", "went"), with their
sources in ``extractors/data/irregular_past.toml``: a past tense no "-ed" marks."""

_FIRST_PERSON_FORMS = {
    "is": "am", "isn't": "am not", "was": "was", "wasn't": "wasn't", "has": "have",
    "hasn't": "haven't", "had": "had", "hadn't": "hadn't", "does": "do", "doesn't": "don't",
    "did": "did", "didn't": "didn't", "used": "used",
}
"""Third-person auxiliaries and their first-person forms; modals stay as they are."""

_ADVERBS = ("now", "currently", "still", "also", "recently", "no longer", "never", "often",
            "usually", "actually", "just", "really", "always", "sometimes", "rarely", "once",
            "finally", "already", "newly", "officially", "these days", "nowadays", "lately",
            "at the moment", "right now", "as of now")
"""Sentence adverbs that may open a subject-less fact ("Now works at X", "These days prefers
tea"; time adjuncts in initial position, Quirk et al. 1985 §8.55)."""
_FINITE = frozenset("""
    is isn't was wasn't has hasn't had hadn't does doesn't did didn't can can't cannot could
    couldn't will won't would wouldn't should shouldn't must may might used
    """.split())
_AUX = frozenset("""
    are is was were am be been have has had do does did can could will would shall should may
    might must 's ' aren't isn't weren't wasn't don't doesn't didn't
    """.split())
_LEAD = re.compile(r"^(?P<adverbs>(?:(?:" + "|".join(a.replace(" ", r"\s+") for a in _ADVERBS)
                   + r")\s+)*)(?P<verb>[A-Za-z][A-Za-z']*)(?P<rest>.*)$", re.DOTALL | re.IGNORECASE)


def in_first_person(text: str, is_verb: Callable[[str], bool],
                    irregular: Mapping[str, str] | None = None) -> tuple[str, Edits] | None:
    """A subject-less fact read in the first person, or None when ``text`` has a subject.

    Args:
        text: one memory text.
        is_verb: whether a lower-case base form is a known verb (the lemmatizer's index).
        irregular: irregular past forms -> base form ("broke" -> "break"; the lemmatizer's
            verb exceptions), which open a subject-less fact as the "-ed" forms do.

    Returns:
        ``(text in the first person, its edits)``: the subject put in place of any leading
        blanks and the verb's form replaced, in characters of ``text``: "Now works at X" ->
        ("I now work at X", ``Edits(((0, 0, 2), (4, 9, 4)))``).
    """
    stripped = text.lstrip()
    lead = len(text) - len(stripped)
    negated = _NOT_ANY_LONGER.match(stripped)
    if negated is not None and negated["word"].lower() not in _FINITE | _AUX:
        # "Not vegan anymore" -> "I am not vegan anymore" (as "No longer vegan")
        return "I am " + stripped[:1].lower() + stripped[1:], Edits(((0, lead, len("I am ")),))
    m = _LEAD.match(stripped)
    if not m or not subjectless(text, is_verb, irregular):
        return None
    word = m["verb"]
    low = word.lower()
    if _verbless_predicate(m, is_verb, irregular):
        # "No longer vegan" -> "I am no longer vegan"
        body = stripped[:1].lower() + stripped[1:]
        return "I am " + body, Edits(((0, lead, len("I am ")),))
    base = _FIRST_PERSON_FORMS.get(low) or (low if low in _FINITE else None)
    if base is None and low.endswith("ing"):
        base = "am " + low  # "Building a side project" -> "I am building a side project"
    if base is None:
        base = low if low.endswith("ed") or low in (irregular or {}) else \
            _base_form(low, is_verb) or low
    adverbs = m["adverbs"]
    adverbs = adverbs[:1].lower() + adverbs[1:]
    # the verb's form may change length ("works" -> "work", "has" -> "have", "Building" ->
    # "am building"): an edit of its own, so offsets after it map back exactly
    verb = (lead + m.start("verb"), lead + m.end("verb"), len(base))
    rest, later = _later_subjects(m["rest"], lead + m.start("rest"), is_verb)
    return "I " + adverbs + base + rest, Edits(
        ((0, lead, len("I ")),) + ((verb,) if len(base) != len(word) else ()) + later)


_NOT_ANY_LONGER = re.compile(r"not\s+(?P<word>[A-Za-z][\w'-]*)[^.;!?]*?\s+(?:anymore|any\s+more|any\s+"
                             r"longer)\s*[.!]?\s*$", re.IGNORECASE)
"""A verbless predicate denied with "not … anymore" ("Not vegan anymore", "Not a smoker any
more"): the non-assertive form of "no longer" (Quirk et al. 1985 §8.95), read as it is."""

_LATER_CLAUSE = re.compile(r",\s+(?P<adverbs>(?:(?:now|currently|still|also|recently|these days|"
                           r"nowadays)\s+)+)(?P<verb>[a-z]+s)\b")
"""A later subject-less clause after a comma, opened by a time or additive adverb and a
third-person verb ("Left Acme, now works at Globex")."""


def _later_subjects(rest: str, at: int, is_verb: Callable[[str], bool]
                    ) -> tuple[str, tuple[tuple[int, int, int], ...]]:
    """``rest`` with each later subject-less clause (:data:`_LATER_CLAUSE`) given its own
    subject ("…, now I work at Globex"; the parser otherwise takes the noun before the comma
    for the verb's subject), and the edits in characters of the text ``rest`` starts at
    ``at`` in."""
    out, edits, done = [], [], 0
    for m in _LATER_CLAUSE.finditer(rest):
        word = m["verb"]
        base = _FIRST_PERSON_FORMS.get(word) or _base_form(word, is_verb)
        if base is None or word.endswith("ss"):
            continue
        out.append(rest[done:m.start("verb")] + "I " + base)
        edits.append((at + m.start("verb"), at + m.end("verb"), len("I ") + len(base)))
        done = m.end("verb")
    return "".join(out) + rest[done:], tuple(edits)


_LABELLED = re.compile(r"\s*[A-Za-z][\w'/-]*(?: [\w'/.-]+){0,4}:\s")
"""A line opening with a label of up to five words and a colon."""
_NOT_NOMINAL = frozenset("""
    a an the this that these those my your his her its our their me him us them it i you he
    she we they to for with in on at from by of up out off back down over into about as
    """.split())
"""Words that cannot open the noun phrase a participle modifies."""


_ADVERBIAL_TIMES = frozenset("""
    weekends weekdays mornings afternoons evenings nights mondays tuesdays wednesdays
    thursdays fridays saturdays sundays
    """.split())
"""Plural time nouns that open a sentence as an adverbial, never as a verb ("Weekends my
alarm is 9am"; Quirk et al. 1985 §8.55: bare plural nouns of time as adjuncts)."""


_PARTICIPLE_PREPOSITIONS = frozenset({"according", "regarding", "concerning"})
"""Participle forms that open a sentence only as (part of) a preposition ("According to my
dentist, …", "Regarding the move, …"; Quirk et al. 1985 §§9.10-9.11, marginal and complex
prepositions), never a subject-less progressive ("Considering a move", "Following a vegan diet" can be
either and are left out)."""


_STATE_ADVERBS = ("no longer", "still", "currently", "now")
"""Adverbs that open a memory writer's verbless predicate ("No longer vegan", "Still single",
"Currently married to Jo"), the copula and its subject left out."""


_STATE_PARTICIPLES = frozenset("""
    married engaged divorced separated widowed retired employed unemployed self-employed
    enrolled registered subscribed involved interested based located qualified certified
    vaccinated allergic licensed
    """.split())
"""Participles a memory writer uses as adjectives of state after "no longer", "still"
("No longer married to Jo", "Still enrolled at UCL"; Quirk et al. 1985 §7.15)."""


_STATAL_PASSIVES = {
    "married": ("to",), "engaged": ("to",),
    "employed": ("at", "by", "as", "with"), "interested": ("in",), "involved": ("in", "with"),
    "located": ("in", "at"), "stationed": ("in", "at"), "allergic": ("to",),
}
"""Participles (and "allergic") that open a memory writer's fact as a state with the
preposition their active verb never takes ("Married to Lars", "Employed as
a nurse", "Interested in pottery"): the statal passive with its copula and subject left out
(Quirk et al. 1985 §3.77), so the fact is read "I am married to Lars"."""


def _verbless_predicate(m: re.Match, is_verb: Callable[[str], bool],
                        irregular: Mapping[str, str] | None) -> bool:
    """Whether the text ``m`` (:data:`_LEAD`) matched opens with a state adverb and goes on
    with no verb: an adjective or noun phrase ("No longer vegan"), or a participle used as
    one ("No longer married to Jo", "Still engaged")."""
    adverbs = " ".join(m["adverbs"].lower().split())
    word = m["verb"].lower()
    if word == "done" and re.match(r"\s+at\s", m["rest"]):
        # "Finally done at Tellis": the adjective of having finished (WordNet done.s.01)
        return True
    after = m["rest"].lstrip().split(" ", 1)[0].lower().strip(".,;:!") if m["rest"][:1].isspace() \
        else m["rest"][:1]
    if after in _STATAL_PASSIVES.get(word, ()):
        return True  # "Married to Lars": "I am married to Lars", never "I married to Lars"
    if not adverbs or not any(adverbs.startswith(a) for a in _STATE_ADVERBS):
        return False
    if word in _FINITE or word in _AUX or word in (irregular or {}) or word.endswith("ing"):
        return False
    if word.endswith("ed"):
        # (a participle used as an adjective of state; "Now moved to Berlin" is a move)
        return word in _STATE_PARTICIPLES and after in ("", ",", ";", ".", "to", "with", "at",
                                                      "in", "by")
    return not _finite_form(word, is_verb) and not is_verb(word)


def _changed_later(words: list[str], is_verb: Callable[[str], bool],
                   irregular: Mapping[str, str] | None) -> bool:
    """Whether ``words`` (what follows an opening participle) hold the verb of a clause whose
    subject the participle modifies: a change verb in the past ("changed", "switched") with
    "to" or "from" before any "and" or comma, or a copula right after a one- or two-word
    noun ("Preferred language is Spanish"). A determiner, pronoun or preposition after the
    participle makes it the verb ("Said the trip is off")."""
    if not words or words[0].lower() in _NOT_NOMINAL:
        return False
    for i, w in enumerate(words[1:6], start=1):
        if words[i - 1].endswith((",", ";")) or words[i - 1].lower() in ("and", "then", "but"):
            return False
        low = w.lower()
        if i <= 2 and low in ("is", "was", "are", "were"):
            return True
        base = (irregular or {}).get(low) or next(
            (b for b in (low[:-1], low[:-2], low[:-3]) if low.endswith("ed") and is_verb(b)
             and b in SETTING_VERBS), None) or (low if low == "set" else None)
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        if base in SETTING_VERBS and nxt in ("to", "from"):
            return True
    return False


def subjectless(text: str, is_verb: Callable[[str], bool],
                irregular: Mapping[str, str] | None = None) -> bool:
    """Whether ``text`` states a fact with its subject left out.

    Args:
        text: one memory text.
        is_verb: whether a lower-case base form is a known verb (the lemmatizer's index).
        irregular: irregular past forms -> base form (see :func:`in_first_person`).
    """
    m = _LEAD.match(text.lstrip())
    if not m:
        return False
    word = m["verb"].lower()
    if word in ("are", "were", "aren't", "weren't"):
        return False  # a plural subject before it: "These days are busy"
    if _verbless_predicate(m, is_verb, irregular):
        return True
    if m["rest"][:1] in (":", "=") or _LABELLED.match(text):
        # a labelled line ("Likes: hiking", "Timeout for service A: 30s") is read as
        # key: value
        return False
    second = (m["rest"].lstrip().split(" ", 1)[0] if m["rest"][:1].isspace() else "")
    second = second.lower().strip(".,;:!")
    if word in ("has", "hasn't", "had", "hadn't") and second == "been":
        return True  # "Has been sober since March": a perfect opens the line, no subject
    if word in _PARTICIPLE_PREPOSITIONS and not m["adverbs"]:
        return False  # "According to my dentist, I grind my teeth": a preposition
    if (second in _AUX and not _month_day(m["rest"])) or second.startswith("'"):
        return False  # (but "Missed May 6 deadline": "May" of a date is no modal)
    if word in _ADVERBIAL_TIMES and second in _NOT_NOMINAL:
        return False  # "Weekends my alarm is 9am", "Mondays the gym opens at 6"
    words = text.split()
    run = next((i for i, w in enumerate(words) if not w[:1].isupper()), len(words))
    after = words[run].lower().strip(".,;:!") if run < len(words) else ""
    if _POSSESSIVE.search(words[run - 1]) and run > 1:
        after = ""  # "Met Brittney's parents": the word after a possessive is what it owns
    if word not in _FINITE and run > 1 and \
            not _verb_before_name(word, words[run:], is_verb, irregular) and (
                run >= 3 or after and (after in _AUX or after in (irregular or {})
                                       or _finite_form(after, is_verb))):
        # a capitalised name before its verb: "Sports Unlimited was created", "James
        # Witherell lost …", "United Continental Holdings …" (but "Plays World of Warcraft")
        return False
    if word.endswith(("ed", "ing")) and _changed_later(words[1:], is_verb, irregular):
        # "Preferred language for replies changed to English", "Billing plan downgraded to
        # Free": the participle modifies the subject of a later change verb with its goal
        return False
    if word in _FINITE:
        return True
    if _finite_form(second, is_verb) or second in (irregular or {}):
        return False  # "James likes tea": the first word is the subject
    if word in (irregular or {}):
        return True  # "Broke up with Tess", "Lost the Kindle on a train"
    if word.endswith("ing") and (len(word) > 5 or word in _SHORT_GERUNDS) and (
            is_verb(word[:-3]) or is_verb(word[:-3] + "e") or is_verb(word[:-4])):
        # "Building a side project", "Planning a trip to Iceland"; a gerund before a finite
        # verb is a subject ("Deploying on Fridays is allowed")
        return not any(w.lower().strip(".,;:!") in _AUX for w in words[1:])
    return _finite_form(word, is_verb)


_SHORT_GERUNDS = frozenset({"doing", "using"})
"""Five-letter gerunds that open a memory writer's fact ("Doing a PhD at …", "Using Vim"); the
others are idioms or other words ("dying to", "going to" of a plan, "thing")."""


def _verb_before_name(word: str, rest: list[str], is_verb: Callable[[str], bool],
                      irregular: Mapping[str, str] | None) -> bool:
    """Whether a finite verb opens a run of capitalised words with no verb after the run:
    "Attends Ridgeway High School, class of 2027" and "Rotated Twitter API keys on April 15,
    updated …" are subject-less facts about named things, where "United Continental Holdings
    that was founded …" is a name before its verb. After a past opener ("-ed" or irregular)
    only an auxiliary or another past, up to the clause's first comma or semicolon, is the
    name's verb: an "-s" word there is a plural noun ("keys"); after a present "-s" opener
    any finite form is."""
    past = word in (irregular or {}) or (word.endswith("ed") and _finite_form(word, is_verb))
    if not past and not (word.endswith("s") and _finite_form(word, is_verb)):
        return False
    later = []
    for w in rest:
        later.append(w.lower().strip(".,;:!()"))
        if past and w.endswith((",", ";")):
            break  # "…, updated environment variables": a second subject-less clause
    if past:
        return not any(w in _AUX or w in (irregular or {})
                       or (w.endswith("ed") and _finite_form(w, is_verb)) for w in later)
    return not any(w in _AUX or w in _FINITE or w in (irregular or {})
                   or _finite_form(w, is_verb) for w in later)


_POSSESSIVE = re.compile(r"['\u2019]s?$")
"""A possessive word ("Brittney's", "Jones'"): a name's, not a subject's verb, follows."""
_MONTH_DAY = re.compile(r"\s+May\s+\d{1,2}(?!\d)")


def _month_day(rest: str) -> bool:
    """Whether ``rest`` opens with "May" and a day: the month, not the modal."""
    return _MONTH_DAY.match(rest) is not None


def _finite_form(word: str, is_verb: Callable[[str], bool]) -> bool:
    """A third-person or past form ("-s", "-es", "-ies", "-ed") of a known verb."""
    stems = []
    if word.endswith("ies"):
        stems.append(word[:-3] + "y")
    if word.endswith("es"):
        stems.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        stems.append(word[:-1])
    if word.endswith("ed"):
        stems += [word[:-2], word[:-1], word[:-3] if len(word) > 4 and word[-3] == word[-4]
                  else word[:-2]]
        if word.endswith("ied"):
            stems.append(word[:-3] + "y")
    return any(stem and (is_verb(stem) or _prefixed_verb(stem, is_verb)) for stem in stems)


_PREFIXES = ("re", "un")


def _prefixed_verb(stem: str, is_verb: Callable[[str], bool]) -> bool:
    """A known verb with a prefix of repetition or reversal the lemmatizer's index lacks
    ("rehome", "unfollow"; Quirk et al. 1985, App. I.21-22 on "re-" and "un-")."""
    return len(stem) > 5 and stem[:2] in _PREFIXES and is_verb(stem[2:])


def _base_form(word: str, is_verb: Callable[[str], bool]) -> str | None:
    """The base form of a third-person "-s" form ("dislikes" -> "dislike")."""
    for stem in (word[:-3] + "y" if word.endswith("ies") else "", word[:-1], word[:-2]):
        if stem and is_verb(stem):
            return stem
    return None


_SEGMENT_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z])|(?<=;)\s+(?=[A-Za-z])|"
                            r",\s+(?=(?:now|currently)\s)")
"""Where a memory writer's next fact starts: the space after a sentence's end or a semicolon,
before the next word ("No longer at Globex. Now at Initech."), or a comma before "now" or
"currently" ("No longer at Globex, now at Initech"). A full stop after an initial or an
abbreviation of :data:`_ABBREVIATIONS` ends no sentence."""
_ABBREVIATIONS = frozenset("""
    mr mrs ms dr st jr sr prof mt ft vs etc no inc ltd co corp dept approx
    """.split())
"""Abbreviations written with a full stop before a name or a number ("St. Mary's", "Dr.
Okafor"; The Chicago Manual of Style, 17th ed., §10.4-10.17)."""
_FIRST_PERSON_OPENING = re.compile(r"\s*(?:I\b(?!['\u2019]s)|I['\u2019](?:m|ve|d|ll)\b|"
                                   r"the user\b(?!['\u2019]s))", re.IGNORECASE)
"""A text whose first clause is the user's own: "I …", "I'm …", "The user …"."""


def segments_in_first_person(text: str, is_verb: Callable[[str], bool],
                             irregular: Mapping[str, str] | None = None
                             ) -> tuple[str, Edits] | None:
    """A fact about the user whose later sentences leave the subject out, each read in the
    first person (:func:`in_first_person`), or None when the text is no such fact.

    The text is the user's when its first sentence is subject-less or says "I" or "the
    user" (not "the user's"); a later sentence that goes on with "now" from a change the
    text said leaves out the same subject ("Left Globex in May. Now at Initech.": "… I am now
    at Initech."), as a memory writer's run of facts does, and so does such a clause after a
    comma ("No longer at Globex, now at Initech"), unless the text names another person
    before it (:func:`_continues_change`). After a
    semicolon only a verbless state predicate is read so ("No longer at Globex; now at
    Initech"); a subject-less verb there is the first subject's second verb
    (:func:`extractors.reading._joined_clauses`). A text whose first sentence has another
    subject ("Dana quit pottery. Now does yoga.") is None: its later sentences are Dana's.

    Returns:
        ``(text read, its edits)`` in characters of ``text``, as :func:`in_first_person`;
        the text unchanged with no edits when no later sentence needed a subject but the
        first did not either.
    """
    breaks = [b for b in _SEGMENT_BREAK.finditer(text) if not _after_abbreviation(text, b)]
    starts = [0] + [b.end() for b in breaks]
    ends = [b.start() for b in breaks] + [len(text)]
    whole = in_first_person(text, is_verb, irregular)
    if whole is not None or _NOT_ANY_LONGER.match(text[:ends[0]].lstrip()):
        # (whether the text is subject-less is decided on all of it, as before: "James E.
        # Ferguson, who works …" has a name before its verb; "Not at X anymore" is one
        # sentence's frame)
        first = whole if not breaks else in_first_person(text[:ends[0]], is_verb, irregular)
    elif _FIRST_PERSON_OPENING.match(text):
        first = None
    else:
        return None
    if not breaks:
        return first if first is not None else (text, Edits())
    out = [first[0] if first is not None else text[:ends[0]]]
    spans = list(first[1].spans) if first is not None else []
    for start, end, prev_end in zip(starts[1:], ends[1:], ends):
        out.append(text[prev_end:start])
        segment = text[start:end]
        read = in_first_person(segment, is_verb, irregular)
        mark = text[prev_end] if text[prev_end] == "," else text[prev_end - 1]
        # (a third-person verb after ", now" was the user's before sentences were read:
        # "Left Acme, now works at Globex", :func:`_later_subjects`)
        verb_after_comma = mark == "," and _LATER_CLAUSE.match(text, prev_end) is not None
        if read is not None and (mark != ";" or read[0].startswith("I am ")) and (
                verb_after_comma or _continues_change(text[:prev_end], segment)):
            out.append(read[0])
            spans += [(s + start, e + start, n) for s, e, n in read[1].spans]
        else:
            out.append(segment)
    return "".join(out), Edits(tuple(spans))


_CHANGE_SAID = re.compile(
    r"\b(?:no longer|not\b[^.;!?]*\b(?:anymore|any more|any longer)|left|quit|resigned|"
    r"retired|moved|relocated|sold|stopped|gave up|dropped|broke up|split up|finished|"
    r"graduated|switched|changed|cancell?ed|divorced|separated|ended)\b", re.IGNORECASE)
"""Words of an ending or a change ("no longer", "left", "quit", …) that a later "now" sentence
continues ("Left Globex in May. Now at Initech.")."""
_NOW = re.compile(r"\s*(?:now|currently)\b", re.IGNORECASE)
_PERSON_WORDS = frozenset("""
    ex neighbour neighbor client customer guest patient friend boss colleague coworker
    """.split()) | RELATIONSHIP_NOUNS
"""Words naming another person or animal, who may be a later sentence's left-out subject
("Visited grandma. Now lives in Tucson.")."""


def _continues_change(before: str, segment: str) -> bool:
    """Whether the subject-less ``segment`` continues the user's change said in ``before``:
    it opens with "now" or "currently", ``before`` says an ending or a change
    (:data:`_CHANGE_SAID`), and ``before`` names no other person or animal (a word of
    :data:`_PERSON_WORDS`, a capitalised name's genitive, or a capitalised word after a verb
    of meeting or visiting), who may be the one the segment is about ("Met Dana. Now lives
    in Denver.")."""
    if not _NOW.match(segment) or not _CHANGE_SAID.search(before):
        return False
    words = re.findall(r"[A-Za-z]+(?:['\u2019]s)?", before)
    if any(w.lower() in _PERSON_WORDS or w.lower().rstrip("s") in _PERSON_WORDS
           or w[:1].isupper() and w.endswith(("'s", "\u2019s")) for w in words):
        return False
    return not re.search(r"\b(?:met|meet|visit(?:ed)?|call(?:ed)?|text(?:ed)?|introduced to|"
                         r"with|married|dating|date[sd]?)\s+[A-Z]", before)


def _after_abbreviation(text: str, brk: re.Match) -> bool:
    """Whether the full stop before the break ``brk`` of :data:`_SEGMENT_BREAK` closes an
    initial ("James E. Ferguson") or an abbreviation of :data:`_ABBREVIATIONS`."""
    before = text[:brk.start()]
    if not before.endswith("."):
        return False
    word = re.search(r"(?<![\w'\u2019.])([A-Za-z]+)\.$", before)
    return word is not None and (len(word[1]) == 1 or word[1].lower() in _ABBREVIATIONS)
