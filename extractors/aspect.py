"""Tense and aspect of a clause: a past habit, a completed past, a change undone or never
completed. Pure functions over a parsed clause (:mod:`extractors.syntax` re-exports them)."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import replace

from spacy.tokens import Token

from extractors.types import Triple

from extractors.doc_cache import doc_lemmas
from extractors.places import place_names
from extractors.reversals import undone_later
from extractors.times import AGE_DECADES, _is_time, calendar_date


def _habitual_past(verb: Token, xcomp: Token) -> bool:
    """"used to X": the past habit of ``verb`` "used" over the infinitive ``xcomp``."""
    return verb.lower_ == "used" and verb.tag_ == "VBD" and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in xcomp.children)


_LIFE_PERIODS = frozenset("""
    child kid teen teenager boy girl baby toddler youth childhood adolescence college university
    school undergrad twenties thirties forties fifties teens student
    """.split()) | AGE_DECADES
"""Periods of a life that are over for an adult ("as a child", "in college", "in her
twenties"): a simple past within one is a completed past."""


_DATING_PREPS = frozenset({"in", "on", "during", "from", "between", "through", "throughout"})
"""Prepositions that place a situation at a date ("in 2015", "from 2015 to 2018"): a simple
past of a state so placed is over (Quirk et al. 1985, §4.20: the simple past with a definite
time adverbial)."""


def _past_auxiliary(head: Token) -> bool:
    """A predicate whose past tense is on its auxiliary "was"/"were" ("was married to Alex",
    "was working at Acme")."""
    return any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" and c.lemma_ == "be"
               for c in head.children)


_DATED_STATE_RULES = frozenset({"copula", "attribute", "prep_object", "state"})
"""Rules of a copular or passive clause's own triples (not what an event it states implies)."""


def dated_state_past(head: Token, triples: list[Triple], change_verbs: frozenset[str],
                     endings: Container[str]) -> list[Triple]:
    """``triples`` of a copular or passive clause in a completed past ("I was married to Alex
    from 2005 to 2011", "My husband was Rob until 2009") with the time ``past …``, as
    :meth:`VerbRules._time_qualifiers` gives an active verb's: a state that held then is no
    current value. Not a change whose result holds (``change_verbs``), nor an ending stated
    as a passive ("was laid off in 2019": ``endings``, read as ``"be lay"``)."""
    passive = any(c.dep_ == "auxpass" for c in head.children)
    if not triples or not (head.lemma_ == "be" or passive):
        return triples
    # (the parser hangs a copula's dates on its complement: "was married to Alex from 2005")
    complements = [c for c in head.children if c.dep_ in ("attr", "acomp")]
    if not _completed_past(head) and not (head.tag_ == "VBD" and any(
            p.dep_ == "prep" and (p.lower_ in ("before", "until", "till") or p.lower_ in
                                  _DATING_PREPS and any(o.dep_ == "pobj" and calendar_date(o)
                                                        for o in p.children))
            or p.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("before", "until")
                                         for m in p.children)
            for c in complements for p in c.children)):
        return triples
    lemma = head.lemma_.lower()
    if lemma in change_verbs or f"be {lemma}" in endings:
        return triples
    out = []
    for t in triples:
        times = [v for k, v in t.qualifiers if k == "time"]
        if t.rule not in _DATED_STATE_RULES or any(v.split()[0] == "past" for v in times):
            out.append(t)
            continue
        quals = tuple(q for q in t.qualifiers if q[0] != "time") + (
            ("time", " ".join(["past", *times, *_dates(head, *complements)])),)
        out.append(replace(t, qualifiers=quals))
    return out


def _dates(*heads: Token) -> list[str]:
    """The calendar dates of the heads' prepositional phrases, lower-cased ("2005 to 2011")."""
    return [" ".join(t.lower_ for t in o.subtree) for h in heads for c in h.children
            if c.dep_ == "prep" for o in c.children if o.dep_ == "pobj" and calendar_date(o)]


def _simple_past(head: Token) -> bool:
    """A predicate in the past tense: a past form ("liked"), a past "was"/"were" auxiliary,
    or the past "did" of do-support ("didn't like", "did live"; Quirk et al. 1985, §3.37)."""
    return head.tag_ == "VBD" or _past_auxiliary(head) or any(
        c.dep_ == "aux" and c.tag_ == "VBD" and c.lemma_ == "do" for c in head.children)


_PAST_FRAME_NOUNS = frozenset({"time", "day", "past", "point", "stage", "era"})
"""Heads of a past frame named by a phrase that points back ("at the time", "in those days",
"in the past", "at that point", "in the old days")."""
_FRAME_CONJUNCTIONS = frozenset({"when", "while", "whenever"})
"""Marks of a time clause that places its main clause within its own time."""


def _past_frame(head: Token, child: Token) -> bool:
    """Whether ``child`` of a past-tense ``head`` places it in a past time that is not a
    calendar date (Quirk et al. 1985, §4.20: the simple past with a definite past time
    adverbial, which may be a phrase or a clause): a time clause in the past ("when I lived
    in Leeds", "while I was at school"), growing up ("didn't eat fish growing up"), "back
    then", "once", a phrase that points back ("in those days", "at the time", "in the
    past")."""
    if child.dep_ == "advcl" and any(m.dep_ in ("mark", "advmod") and m.lower_ in
                                     _FRAME_CONJUNCTIONS for m in child.children):
        return _simple_past(child) or child.tag_ == "VBG" and _past_auxiliary(child)
    if child.tag_ == "VBG" and child.lemma_.lower() == "grow" and any(
            c.dep_ == "prt" and c.lower_ == "up" for c in child.children):
        return True  # "drank milk growing up" (the parser may hang it on the object)
    if child.dep_ == "advmod" and (child.lower_ == "once" and child.i < head.i or (
            child.lower_ == "then" and any(c.lower_ == "back" for c in child.children))
            or child.lower_ == "back" and any(c.lower_ == "then" for c in child.children)):
        return True  # "I once lived in Leeds", "back then"
    if child.dep_ == "advmod" and child.lower_ == "then" and child.i > 0 and \
            child.nbor(-1).lower_ == "back":
        return True
    return child.dep_ == "prep" and child.lower_ in ("at", "in", "during") and any(
        o.dep_ == "pobj" and _points_back(o) for o in child.children)


def _points_back(noun: Token) -> bool:
    """A noun phrase that names a time before now by pointing back: "those days", "that
    time", "the old days", "the past", "the time" (as in "at the time")."""
    lemma = noun.lemma_.lower()
    dets = {d.lower_ for d in noun.children if d.dep_ in ("det", "amod")}
    if lemma == "past" or lemma == "time" and "the" in dets:
        return True
    return lemma in _PAST_FRAME_NOUNS and bool(dets & {"that", "those", "old"})


def _completed_past(head: Token) -> bool:
    """A past-tense predicate bounded before now: "worked at Amazon for three years before
    joining Shopify", "lived in Madrid until 2020", "ran a charity race last Saturday",
    "moved there two years ago", "ate meat as a child", "didn't like olives as a kid",
    "worked at Amazon in 2015", "lived in Leeds back then", "didn't eat fish growing up",
    "hated tea when I was young" (a duration, a calendar date, a "before"/"until" bound, a
    dated past time, a period of life, a past frame (:func:`_past_frame`) or "back in" a
    place or time on a simple past; the perfect "has worked for three years" still holds,
    and what such an event leaves behind is kept apart by :mod:`extractors.state_changes`)."""
    if not _simple_past(head):
        return False
    for child in head.children:
        if child.dep_ == "npadvmod" and _is_time(child) and any(
                c.lower_ in ("last", "ago") for c in [*child.children, *child.rights]):
            return True  # "last Saturday", "two weeks ago"
        if child.dep_ == "advmod" and child.lower_ == "ago":
            return True
        if child.dep_ == "prep" and child.lower_ in ("before", "until", "till"):
            return True
        if child.dep_ in ("dobj", "advmod") and any(
                t.lower_ == "back" and t.i + 1 < len(t.doc) and t.nbor(1).lower_ == "in"
                for t in child.subtree):
            return True  # "had a dog named Tilly back in Michigan", "lived there back in 2019"
        if any(p.dep_ == "prep" and p.lower_ in ("as", "in", "during") and any(
                o.dep_ == "pobj" and (o.lemma_.lower() in _LIFE_PERIODS
                                      or o.lower_ in _LIFE_PERIODS) for o in p.children)
               for p in (child, *(child.children if child.dep_ in ("dobj", "attr", "acomp")
                                  else ()))):
            return True  # "ate chicken as a child", "drank a lot of wine in college", "wasn't
            # a vegetarian as a kid" (the parser hangs the phrase on the complement)
        if child.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("before", "until")
                                         for m in child.children):
            return True
        if child.dep_ == "prep" and child.lower_ in _DATING_PREPS and any(
                o.dep_ == "pobj" and calendar_date(o) for o in child.children):
            return True  # "worked at Amazon in 2015", "from 2015 to 2018", "between 2015 and 2018"
        if child.dep_ == "prep" and child.lower_ == "for" and any(
                p.dep_ == "pobj" and _is_time(p) and any(n.dep_ == "nummod" for n in p.children)
                for p in child.children):
            return True
        if any(_past_frame(head, c) for c in (
                child, *(child.children if child.dep_ in ("dobj", "attr", "acomp") else ()))):
            return True
    return _fronted_frame(head)


def _fronted_frame(head: Token) -> bool:
    """A past frame in front of its clause that the parser made no modifier of it: "Once I
    lived in Rome" (the adverb read as the conjunction marking the sentence's own root) and
    "At the time I worked at Acme" (the phrase read as the root, the clause as a relative
    on its noun; Quirk et al. 1985 §8.15: adverbials in initial position)."""
    if head.dep_ == "ROOT" and any(c.dep_ == "mark" and c.lower_ == "once" and c.i == 0
                                   for c in head.children):
        return True
    phrase = head.head.head
    return head.dep_ == "relcl" and head.head.dep_ == "pobj" and phrase.dep_ == "ROOT" and \
        phrase.i < head.head.i < head.i and phrase.lower_ in ("at", "in", "during") and \
        _points_back(head.head)


_DIRECTED_MOTION = frozenset({"move", "relocate", "go", "come", "return", "emigrate",
                              "immigrate", "arrive"})
"""Verbs of inherently directed motion used intransitively (VerbNet escape-51.1, Levin 1993
§51.1): "she's moved to Leeds" is their perfect, not a passive."""


def _contracted_perfect(verb: Token) -> bool:
    """A perfect the parser read as a passive: a contracted "'s" (has or is, Quirk et al.
    1985 §3.23) before the participle of an intransitive verb of directed motion
    (:data:`_DIRECTED_MOTION`), with no "by" agent ("she's moved to Denver" = she has
    moved)."""
    return verb.tag_ == "VBN" and verb.lemma_.lower() in _DIRECTED_MOTION and any(
        c.dep_ == "auxpass" and c.lower_ in ("'s", "’s") for c in verb.children) and not any(
        c.dep_ == "agent" for c in verb.children)


_TEMPORARY_ADVERBS = frozenset({"temporarily", "briefly", "momentarily", "nearly", "almost",
                                "twice", "thrice", "previously"})
_OTHER_CLAUSES = frozenset({"advcl", "relcl", "ccomp", "conj", "acl", "parataxis"})
_RETURN_VERBS = frozenset({"start", "restart", "resume", "return", "come", "rejoin", "rehire",
                           "re-join", "re-hire", "go", "take"})
_SPELL_NOUNS = frozenset({"while", "bit", "moment", "match", "game", "spell", "stretch",
                          "season", "semester", "term", "lent", "ramadan", "advent",
                          "passover", "navratri", "recess", "break", "holiday", "holidays",
                          "vacation", "sabbatical", "leave", "duration", "hour", "minute",
                          "second"})
"""Nouns of a bounded spell after "for" ("for a while", "for one match", "for the summer
recess", "for a year's sabbatical": WordNet time_period.n.01's recess, vacation, leave; the
short units of time_unit.n.01, "for an hour", "for like five minutes", which the calendar
words of :func:`extractors.times._is_time` leave out), with the named observances one gives
something up for ("for Lent", "for Ramadan")."""
_OCCASION_ADVERBS = frozenset({"early", "halfway", "midway"})
"""Adverbs that place a leaving or stopping inside one occasion ("left the club early
tonight", "stopped playing halfway"): it ends that occasion, not the habit (except a
retirement: "retired early")."""


def _clause_tokens(verb: Token, inner: frozenset[str] = _OTHER_CLAUSES) -> list[Token]:
    """The words of ``verb``'s clause, not those of a clause inside it (the dependents
    labelled ``inner``, by default :data:`_OTHER_CLAUSES`)."""
    near, todo = [], [verb]
    while todo:
        token = todo.pop()
        near.append(token)
        todo += [c for c in token.children if c.dep_ not in inner]
    return near


def _temporary(verb: Token) -> bool:
    """Whether a change the verb reports is undone, never completed or bounded to one
    occasion, so it ends nothing: "temporarily", "nearly", "twice before", "early" or
    "halfway" ("left the club early tonight"; not in a long frame, "early this year", nor a
    retirement), a bounded spell ("for the summer", "for one match", "for a week", "for
    Lent"), or a later return in the same sentence ("then started again",
    "came back in 2020", "rehired in 2018"; an ending's reversal: Dowty 1979 on the
    imperfective paradox of incomplete and reversed achievements). A return to something
    else ("gone back to paper books") or as a purpose ("quit to go back to school") undoes
    nothing; nor does a reversal later in the sentence (:func:`extractors.reversals.
    undone_later`: "lapsed but was renewed", "and back again", "back since 2020")."""
    if undone_later(verb) or _trip(verb):
        return True
    for token in _clause_tokens(verb):
        if token.dep_ == "advmod" and token.lower_ in _TEMPORARY_ADVERBS:
            return True
        if token.lower_ in _OCCASION_ADVERBS and token.dep_ in ("advmod", "amod", "npadvmod") \
                and verb.lemma_.lower() != "retire" and not (
                    _is_time(token.head) and token.head.lower_ not in _SHORT_FRAMES):
            return True  # ("left early", "left early today"; not "left Google early this year")
        if token.dep_ == "prep" and token.lower_ == "for" and any(
                p.dep_ == "pobj" and (p.pos_ == "NOUN" and _is_time(p)
                                      or p.lemma_.lower() in _SPELL_NOUNS)
                and not _up_to_now(verb, p) for p in token.children):
            return True  # (a date is no spell: "shelved the cruise booked for June")
    return not _RETURN_VERBS.isdisjoint(doc_lemmas(verb.doc)) and any(t.i > verb.i and t.lemma_.lower() in _RETURN_VERBS and t.tag_ != "VB" and not any(
        c.dep_ == "neg" or c.lower_ == "never" for c in t.children) and not any(
        c.dep_ == "prep" and c.lower_ == "to" for c in t.subtree)
        and (t.lemma_.lower() == "rehire" or any(c.lower_ in ("again", "back")
                                                 for c in t.children)) for t in verb.sent)


_DEPARTING = frozenset({"leave", "depart"})


def _trip(verb: Token) -> bool:
    """Whether the verb reports leaving a named place for an errand, not moving away: a
    departure with a purpose ("left Leeds on Friday to visit Mum") or for a common noun's
    place or event ("left York for the conference", "left leeds at 7 for the airport") is a
    trip (FrameNet Departing, with Purpose or Goal), where "left Leeds for London" (a named
    destination) or "left Leeds in 2019" may be a move (FrameNet Quitting_a_place) and stays
    an ending. The place is a GeoNames city, country or US state
    (:func:`extractors.places.place_names`): "left Globex to join Initech" leaves a job."""
    if verb.lemma_.lower() not in _DEPARTING:
        return False
    places = [c for c in verb.children if c.dep_ == "dobj" and c.lower_ in place_names()]
    if not places:
        return False
    for token in [*verb.children, *places[0].children]:
        if token.dep_ in ("xcomp", "advcl") and token.tag_ == "VB" and any(
                a.dep_ == "aux" and a.lower_ == "to" for a in token.children):
            return True  # a purpose: "to visit Mum"
        if token.dep_ == "prep" and token.lower_ == "for" and any(
                p.dep_ == "pobj" and p.tag_ in ("NN", "NNS") for p in token.children):
            return True  # an errand or an event: "for the airport", "for the conference"
    return False


def _up_to_now(verb: Token, spell: Token) -> bool:
    """Whether a spell after "for" reaches now: "has cut out soda for the past six weeks",
    a present perfect with "the past"/"the last" and no "of" (a period leading up to the
    present, Quirk et al. 1985 §4.22; "for the last week of the trip" is bounded)."""
    return any(c.dep_ == "amod" and c.lower_ in ("past", "last") for c in spell.children) \
        and not any(c.dep_ == "prep" and c.lower_ == "of" for c in spell.children) \
        and any(c.dep_ == "aux" and c.lower_ in ("has", "have", "'ve", "'s")
                for c in verb.children)


_SHORT_FRAMES = frozenset({"today", "tonight", "week", "weekend", "morning", "afternoon",
                           "evening", "month"})
"""Heads of a time frame around now that bounds a situation ("this week", "today")."""


def _for_now_only(verb: Token) -> bool:
    """Whether a present progressive clause is bounded by a short frame around now ("is
    working from the office this week", "is skipping the gym today"): the progressive's
    temporary reading (Quirk et al. 1985, §4.27; Comrie 1976, ch. 2), an exception to the
    lasting state, which it neither states nor ends."""
    if verb.tag_ != "VBG" or not any(c.dep_ == "aux" and c.lemma_ == "be"
                                     and c.tag_ in ("VBZ", "VBP") for c in verb.children):
        return False
    for c in verb.children:
        if c.dep_ not in ("npadvmod", "advmod") or c.lower_ not in _SHORT_FRAMES:
            continue
        if c.lower_ in ("today", "tonight") or any(
                d.dep_ == "det" and d.lower_ == "this" for d in c.children):
            return True
    return False
