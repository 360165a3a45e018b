"""The focus of a clause's negation: what a denial denies.

A clause negation normally has in its scope everything from the negative word to the end of the
clause, and its focus is often the last adjunct or modifier in that scope rather than the
predicate (Quirk et al. 1985, *A Comprehensive Grammar of the English Language*, §§10.64–10.66):
"I don't eat meat on Fridays" denies eating meat on Fridays, and says nothing of the other days;
"I'm not a teacher at that school" leaves "I am a teacher" standing. Such a denial is a
restricted one: its triples are compared only with statements under the same restriction
(time qualifier ``"when <restriction>"``, as a ``when`` clause gives:
:func:`extractors.clause_frames.conditioned`).

Two negations deny less still and give no denial at all:

* a restrictive focusing subjunct in the scope ("not just vegetarian", "not only a runner":
  Quirk et al. §8.116) denies that the value is all there is, and presupposes it;
* a corrective negation ("I don't like coffee, I love it!"), whose next clause restates the
  same thing with a stronger word, objects to the word, not to the fact (Horn 1985,
  "Metalinguistic negation and pragmatic ambiguity", *Language* 61).

Adverbials that leave the denial whole stay out of the restriction: aspect and time-of-change
words ("anymore", "no longer", "these days", "since March", "for three years"), emphasis
("at all", "really", "honestly"), and reasons ("because I'm vegan").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.clause_frames import CONDITIONED, misread_adverbial, with_time
from extractors.constructions.verb_words import _extent, raised_objects
from extractors.corrective_negation import _negator, corrective
from extractors.polarity import _is_negator, _no_longer
from extractors.syntax import time_words
from extractors.times import _CLOCK, _TIME_WORDS, RECURRENCE, _is_time
from extractors.types import Triple

FOCUS_PARTICLES = frozenset({"just", "only", "merely", "simply", "solely", "purely",
                             "exclusively"})
"""Restrictive focusing subjuncts (Quirk et al. 1985 §8.116): after a negation they deny
exclusiveness, not the value ("not just vegetarian")."""

NEUTRAL_ADVERBS = frozenset("""
    anymore more longer any now still yet ever even really actually currently nowadays
    honestly definitely certainly seriously truly literally absolutely again either also too
    though then there here together anyway lately recently personally obviously whatsoever
    so already no
    """.split())
"""Adverbs in a negation's scope that leave the denial whole: aspect (Quirk et al. §8.88:
"anymore", "still", "yet", "no longer"), time of the change ("now", "lately"), emphasis and
stance (§8.99–8.103: "really", "honestly", "actually"), additive subjuncts ("either", "also",
§8.116), and the deictic place that is itself the value ("there", "here")."""

HEDGES = frozenset("""
    usually normally generally typically mostly mainly largely often sometimes occasionally
    partly partially nearly almost practically virtually
    """.split())
"""Frequency adjuncts (Quirk et al. 1985 §8.64) and approximators (§8.111) on a denial or an
ending: it holds mostly or nearly, not always ("I usually don't eat meat anymore", "mostly
gave up coffee")."""
_NEUTRAL_PREPS = frozenset({"since"})
"""Prepositions of the time a denial holds from ("since March"; "as of today" too, but "as
an engineer" restricts)."""
_REASON_PREPS = frozenset({"because", "due", "owing", "thanks"})
"""Heads of complex prepositions of reason ("because of", "due to"; Quirk et al. §9.10)."""
REASON_NOUNS = frozenset({"reason", "record", "sake", "advice", "insistence", "request",
                          "suggestion", "recommendation", "order", "orders", "behalf"})
"""Nouns of a reason or a source of the decision ("for health reasons", "on my doctor's
advice", "at her insistence", "for the record"): a reason does not restrict a denial."""
DISJUNCTS = frozenset("""
    sadly unfortunately fortunately luckily thankfully frankly obviously clearly surely
    apparently basically admittedly oddly strangely funnily interestingly hopefully ironically
    naturally understandably enough
    """.split())
"""Style and content disjuncts, which comment on the whole clause and stand outside the
negation's scope (Quirk et al. 1985 §§8.121–8.127)."""
_DURATION_PREPS = frozenset({"for", "in"})
"""Prepositions of a duration that measures the denial ("for three years", "in ages")."""
_DURATION_NOUNS = frozenset("""
    second minute hour day week month year decade century age while ever long time
    """.split())
_PERMANENCE = frozenset({"good", "keeps", "ever", "life"})
"""Objects of "for" in idioms of unlimited duration ("for good", "for keeps", "for ever",
"for life"; Quirk et al. 1985 §8.57 on duration adjuncts): they measure an ending, never
restrict it."""

_NOW_NOUNS = frozenset({"day", "nowadays", "moment", "point"})
"""Heads of phrases that place a denial at the present ("these days", "at the moment")."""
_SINCE_PREPS = frozenset({"after", "since", "following", "once"})
"""Words that date a change of state by the event it followed."""
_OCCASION_DETERMINERS = frozenset({"this", "that", "last", "next"})
"""Determiners by which a time phrase names one occasion (Quirk et al. 1985 ch. 8 on time
position adjuncts): "didn't swim this week"."""
_SPAN_PREPS = frozenset({"during", "throughout", "within"})
"""Prepositions of a span the denial holds in ("no longer drinks during the week"), never the
time it changed (Quirk et al. 1985 §9.37 on "during" and "throughout")."""
_CYCLIC_TIMES = frozenset("""
    morning afternoon evening night day week weekend weekday spring summer autumn fall winter
    """.split())
"""Parts of a recurring cycle (day, week, year): with "the" in a habitual clause they name
every such part, not one ("in the evening", "during the week"; Quirk et al. 1985 §5.52 on the
generic definite article of time nouns)."""
EXCEPTION_WORDS = frozenset({"except", "excepting", "excluding", "save", "bar", "barring",
                             "besides"})
EXCEPTION_PAIRS = frozenset({("except", "for"), ("apart", "from"), ("aside", "from"),
                             ("other", "than"), ("but", "for")})
"""Prepositions of exception, simple and complex (Quirk et al. 1985 §9.58–9.59: "except
(for)", "excepting", "excluding", "save", "bar", "barring", "apart from", "aside from",
"other than", "but for"; "besides" after a negation, and the complex "with the exception
of"): the phrase they open subtracts from the denial, also when a comma sets it off ("I
don't eat fish, except on holidays")."""
_RESTRICTING_MARKS = frozenset({"when", "whenever", "while", "if", "unless"})
_REASON_MARKS = frozenset({"because", "since", "as", "cause", "'cause", "cos", "though",
                           "although", "so", "given", "now"})
"""Subordinators of a reason or concession: the clause they open does not restrict."""
_SKIP_DEPS = frozenset("""
    nsubj nsubjpass csubj aux auxpass neg punct cc det predet case mark expl conj parataxis
    ccomp intj discourse dep poss amod compound nummod quantmod nmod prt appos meta
    """.split())
"""Dependents that are no adjunct of the clause: its arguments' own parts, the clause's
auxiliaries and negation, other clauses (a coordinated or paratactic clause has its own
negation), and the value's own premodifiers (which :func:`scanner.core.detect.denies`
compares)."""
_ARGUMENT_DEPS = frozenset({"dobj", "attr", "acomp", "oprd", "pobj", "agent", "dative", "pcomp"})
"""Arguments of the clause: never a restriction themselves, but their modifiers may be. A
purpose infinitive ("doesn't drive a Tesla to work", ``xcomp``) is one unless the value is in
it ("doesn't like to swim")."""


def _text(token: Token) -> str:
    return " ".join(t.lower_ for t in token.subtree)


def present_phrase(prep: Token) -> bool:
    """A prepositional phrase that places a statement at the present or only stresses it:
    "at all", "after all", "at the moment", "in these days" (no time of its own)."""
    pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    if pobj is None or prep.lower_ not in ("at", "after", "in", "these"):
        return False
    if prep.lower_ in ("at", "after") and (pobj.lower_ == "all" or any(
            c.lower_ == "all" for c in pobj.children)):
        return True
    return pobj.lemma_.lower() in _NOW_NOUNS and (prep.lower_ == "at" or any(
        c.lower_ == "these" for c in pobj.children))


def _neutral(token: Token, changed: bool) -> bool:
    """True for an adverbial in the negation's scope that leaves the denial whole; after a
    change of state ("no longer", "anymore": ``changed``) also the event it followed
    ("no longer likes cats after being scratched")."""
    low, lemma = token.lower_, token.lemma_.lower()
    words = [t.lower_ for t in token.subtree if any(ch.isalpha() for ch in t.text)]
    if all(w in NEUTRAL_ADVERBS or w in DISJUNCTS for w in words):
        return True  # an emoji or a sign, or "anymore" whatever the parser hangs on it
    if any(t.lower_ == "even" for t in token.subtree) and any(
            _is_negator(t) for t in token.subtree):
        return True  # "not even on holidays": a stronger denial, not a narrower one
    if daily_time(token):
        return False  # "after 3pm", "after dinner": a time of every day, not of the change
    if changed and (token.dep_ == "prep" and low in _SINCE_PREPS or token.dep_ == "advcl" and any(
            c.dep_ == "mark" and c.lower_ in _SINCE_PREPS for c in token.children)):
        return True
    when = _time_phrase(token)
    if changed and when is not None and not _recurring(token, when):
        return True  # "no longer … after the fall last spring": when it changed (a plural,
        # "every", a span or a generic part of a cycle recurs, and restricts: "no longer runs
        # on Sundays", "… during the week")
    if token.dep_ in ("advmod", "npadvmod"):
        if low == "all" and any(c.lower_ in ("at", "after") for c in token.children):
            return True  # ("after all" read as two adverbs)
        if low in NEUTRAL_ADVERBS or low in DISJUNCTS:
            # a degree or frequency adverb the parser hangs on it restricts: "much anymore"
            return all(c.dep_ in ("punct", "neg") or _neutral(c, changed)
                       for c in token.children)
        return lemma in _NOW_NOUNS and any(c.lower_ in ("these", "those", "this")
                                           for c in token.children)  # "these days"
    if token.dep_ == "prep":
        pobj = next((c for c in token.children if c.dep_ == "pobj"), None)
        if low in _REASON_PREPS or low == "as" and any(c.lower_ in ("of", "for")
                                                       for c in token.children):
            return True  # "because of my asthma", "due to", "as of today"
        if low in _NEUTRAL_PREPS:
            return True
        if pobj is not None and pobj.lemma_.lower() in REASON_NOUNS:
            return True  # "for health reasons", "on my doctor's advice", "for the record"
        if pobj is not None and any(c.lower_ == "any" for c in pobj.children):
            return True  # "in any form", "in any way": the denial stressed
        if pobj is None:
            return low in NEUTRAL_ADVERBS
        noun = pobj.lemma_.lower()
        if present_phrase(token):
            return True  # "at all", "after all", "at the moment"
        if low == "for" and noun in _PERMANENCE and not any(
                c.dep_ in ("det", "poss") for c in pobj.children):
            return True  # "for good", "for life"
        if low in _DURATION_PREPS and noun in _DURATION_NOUNS and (
                pobj.tag_ == "NNS" or any(c.dep_ in ("nummod", "amod", "det")
                                          for c in pobj.children)):
            return True  # "for three years", "in ages", "in a while"
        return False
    if token.dep_ == "advcl":
        return any(c.dep_ == "mark" and c.lower_ in _REASON_MARKS for c in token.children)
    return False


def _restrictions(head: Token, negator: Token, values: list[str], implicit: bool = False
                  ) -> list[Token] | None:
    """The adjuncts and modifiers in the scope of ``negator`` that are no part of a denied
    value (``values``: the denied objects' surfaces, lower case); None when a focusing
    subjunct takes the focus ("not just vegetarian"). ``implicit``: the clause's verb denies
    by its meaning (an ending or a switch, ``negator`` is the verb itself), whose time of
    change leaves the denial whole as after "no longer"."""
    found: list[Token] = []
    changed = implicit or _no_longer(head) or any(c.lower_ in ("anymore", "longer")
                                                  for c in head.children)

    def visit(token: Token, on_value: bool) -> bool:
        if token.i > negator.i and token.dep_ == "dep" and exception(token):
            found.append(token)  # "…, save for Christmas": "save" read as a verb
            return True
        if token.i < negator.i or token.dep_ in _SKIP_DEPS and not (
                _misread_relative(token) or misread_adverbial(token)):
            return True
        if token.dep_ == "advmod" and token.lower_ in FOCUS_PARTICLES and (
                on_value or token.head == head):
            return False  # (a particle on another argument is not this denial's focus)
        if implicit and token.dep_ not in _ARGUMENT_DEPS and marked_restriction(token):
            found.append(token)  # (also when the parser read it as a value: "switched to
            return True  # Obsidian for journaling only")
        text = _text(token)
        if any(text in value for value in values):
            return True  # part of the value: "of the chess club" in "member of the chess club"
        holds = any(value and value in text for value in values)
        if not holds and token.dep_ in _ARGUMENT_DEPS and any(
                value and s.dep_ == token.dep_ and value in _text(s)
                for s in token.head.children for value in values):
            return True  # another object ("coffee anymore, green tea only"): not this value
        if holds or token.dep_ in _ARGUMENT_DEPS or (token.dep_ == "xcomp" and not any(values)):
            # the value or another argument ("is not my manager": the value is the subject),
            # whose own modifiers may restrict it ("a teacher at that school")
            return all(visit(child, holds or not any(values)) for child in token.children)
        if implicit:
            if token.dep_ == "xcomp":  # "switched from vim to vscode for one project",
                # the new value read as a verb: its adjuncts are the switch's
                return all(visit(child, False) for child in token.children)
        elif not _neutral(token, changed) and (exception(token) or _focused(token)
                                               or not _set_off(negator, token)):
            found.append(token)
        return True

    if not implicit and any(c.lower_ in FOCUS_PARTICLES for c in negator.children):
        return None  # "not only a teacher": the parser hangs the particle on the negator
    for child in list(head.children) + raised_objects(head):
        if child is not negator and not visit(child, False):
            return None
    found += [t for t in _extents(head, negator) if not any(t in f.subtree for f in found)]
    # a frequency or approximating adverb before the negator or the ending verb ("I usually
    # don't", "I've mostly given up"): the denial holds mostly, not always
    found += [c for c in head.children if c.dep_ == "advmod" and c.lower_ in HEDGES
              and c.i < negator.i]
    if head.dep_ in ("ccomp", "conj", "parataxis") and head.head.i > head.i:
        # a restricting clause between this clause and the next, which the parser hung on
        # the next ("i don't ride my bike when it's icy, i take the tram")
        found += [c for c in head.head.children if c.dep_ == "advcl"
                  and head.i < c.i < head.head.i and any(
                      m.dep_ in ("mark", "advmod") and m.lower_ in _RESTRICTING_MARKS
                      for m in c.children)]
    return found


_OWN_CLAUSES = frozenset({"conj", "parataxis", "ccomp", "advcl", "relcl", "acl", "xcomp"})


def _extents(head: Token, negator: Token) -> list[Token]:
    """Extents of the clause ``head`` after ``negator`` wherever the parser hangs them:
    "full-time", "part-time" read as an object or inside the value's phrase ("don't work at
    the library full-time"): an adjunct of extent (Quirk et al. 1985 §8.104 on degree and
    extent), which denies the habit only in part."""
    out = []
    for token in head.subtree:
        if token.i > negator.i and _extent(token):
            up = token
            while up != head and up.dep_ not in _OWN_CLAUSES:
                up = up.head
            if up == head:
                out.append(token)
    return out


_SETTING_NOUNS = frozenset({"work", "school", "home", "church", "college", "university",
                            "uni", "class", "bed"})
"""Nouns of an institution or setting used with the zero article ("at work", "at home", "in
class"; Quirk et al. 1985 §5.44): a habit's domain, not a place of one event."""
_PART_QUANTIFIERS = frozenset({"one", "some", "certain", "few", "several", "most",
                               "particular", "specific"})
"""Quantifiers by which a "for" phrase picks out some of a kind ("for one project", "for
certain clients"): the change holds for those only."""
_DAILY_BOUNDARIES = frozenset({"after", "before", "past", "at"})
_DAILY_EVENTS = frozenset({"breakfast", "brunch", "lunch", "dinner", "supper", "work",
                           "school", "dark", "noon", "midnight", "bedtime", "lunchtime"})
"""Meals and daily events with the zero article ("after dinner", "before work", "at lunch";
Quirk et al. 1985 §5.44–5.45): after "after", "before" or "at" they name or bound a time of
every day, not date a change."""


def daily_time(token: Token) -> bool:
    """True for "after 3pm", "before work", "after dinner": a boundary of a recurring time
    of day (:data:`_DAILY_EVENTS` or a clock time), which restricts a habit's denial where a
    dated event ("after the fall", "since March") only times its change."""
    if token.dep_ != "prep" or token.lower_ not in _DAILY_BOUNDARIES:
        return False
    pobj = next((c for c in token.children if c.dep_ == "pobj"), None)
    if pobj is None or any(c.dep_ in ("det", "poss") for c in pobj.children):
        return False
    return bool(_CLOCK.match(pobj.lower_)) or pobj.lemma_.lower() in _DAILY_EVENTS or (
        pobj.lower_ in ("pm", "am", "o'clock") and any(c.like_num for c in pobj.children))


def marked_restriction(token: Token) -> bool:
    """True for an adjunct that surely restricts an ending or a switch ("stopped drinking
    coffee at night", "switched to Teams at work"): an exception, a phrase with a focusing
    "only" (Quirk et al. 1985 §8.116), a recurring time (:func:`_recurring`) or a daily one
    (:func:`daily_time`), a setting with the zero article, a "for" phrase of some of a kind
    ("for one project"), or a frequency or approximating adverb. Other adjuncts of a change
    mostly tell its time, place or manner ("in the spring", "to a sanctuary") and leave it
    whole."""
    if exception(token) or daily_time(token):
        return True
    if any(t.lower_ in FOCUS_PARTICLES and t.dep_ == "advmod" for t in token.subtree):
        return True
    if token.dep_ == "advmod" and token.lower_ in HEDGES:
        return True
    when = _time_phrase(token)
    if when is not None and not any(c.dep_ == "nummod" or c.lower_ == "past"
                                    for c in when.children) and not (
            token.lower_ in _DURATION_PREPS and when.lemma_.lower() in _DURATION_NOUNS) and (
            _recurring(token, when, dated_the=True)):
        return True  # (not a measure: "after three weeks", "for the past six weeks")
    pobj = next((c for c in token.children if c.dep_ == "pobj"), None)
    if token.dep_ != "prep" or pobj is None:
        return False
    if token.lower_ in ("at", "in") and pobj.lemma_.lower() in _SETTING_NOUNS and not any(
            c.dep_ in ("det", "poss", "amod", "compound") for c in pobj.children):
        return True
    return token.lower_ == "for" and any(c.lower_ in _PART_QUANTIFIERS and c.dep_ in (
        "det", "nummod", "amod") for c in pobj.children)


def exception(token: Token) -> bool:
    """True when ``token``'s phrase opens with a preposition of exception (:data:`EXCEPTION_WORDS`,
    :data:`EXCEPTION_PAIRS`): "except on holidays", "apart from weddings"."""
    words = [t.lower_ for t in token.subtree if t.pos_ != "PUNCT"][:3]
    return bool(words) and (words[0] in EXCEPTION_WORDS or tuple(words[:2]) in EXCEPTION_PAIRS
                            or words[:3] == ["with", "the", "exception"])


def _focused(token: Token) -> bool:
    """A phrase with its own restrictive focusing subjunct ("…, only on Sundays"; Quirk et
    al. 1985 §8.116): after a denial it names where the thing still holds, an exception."""
    return token.dep_ in ("prep", "npadvmod", "advcl") and any(
        c.dep_ == "advmod" and c.lower_ in FOCUS_PARTICLES and c.i < token.i
        for c in token.children)


def _excepted(head: Token, negator: Token) -> list[str]:
    """Exceptions to the denial of ``head`` stated outside its clause: a next sentence that
    is a fragment opening with an exception ("I don't eat fish anymore. Except at
    Christmas."), or a contrasting coordinate clause that affirms the same thing with a
    pro-form "do" or the same verb under its own adjunct ("…, but I do on Sundays"; Quirk et
    al. 1985 §§12.22–12.25 on the pro-form "do", §13.33 on "but" of contrast). The words
    of each, with ``except``."""
    out = []
    sent = head.sent
    if head == sent.root and sent.end < len(head.doc):
        rest = [t for t in head.doc[sent.end:] if t.sent.start == sent.end]
        words = [t for t in rest if t.pos_ != "PUNCT"]
        if words and not any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in words) and (
                exception(words[0].sent.root) or words[0].lower_ in EXCEPTION_WORDS
                or words[0].lower_ in FOCUS_PARTICLES):
            out.append(" ".join(["except"] + [t.lemma_.lower() for t in words[1:]]))
    subject = next((c.lower_ for c in head.children if c.dep_ == "nsubj"), None)
    for conj in head.children:
        if conj.dep_ not in ("conj", "parataxis") or conj.i < negator.i or _negator(conj):
            continue
        if not any(c.dep_ == "cc" and c.lower_ == "but" for c in head.children) and not any(
                c.dep_ == "cc" and c.lower_ == "but" for c in conj.children):
            continue
        if conj.lemma_.lower() not in ("do", head.lemma_.lower()) or subject is None or next(
                (c.lower_ for c in conj.children if c.dep_ == "nsubj"), None) != subject:
            continue
        adjuncts = [c for c in conj.children if c.dep_ in ("prep", "advmod", "npadvmod",
                                                           "advcl")]
        out.append(" ".join(["except"] + [t.lemma_.lower() for a in adjuncts
                                          for t in a.subtree if t.pos_ != "PUNCT"]))
    return out


def _recurring(token: Token, when: Token, dated_the: bool = False) -> bool:
    """Whether the time phrase ``token`` (its time ``when``) names a recurring time or a span
    rather than one point: "every", a plural ("on Sundays"), a span ("during the week"), or a
    generic part of a cycle ("in the evening"; after an ending, ``dated_the``, "split up in
    the spring" dates the change, and only the zero article is generic: "quit at night")."""
    if any(t.lower_ in RECURRENCE for t in token.subtree):
        return True
    if when.lower_.endswith("s") and when.lower_[:-1] in _TIME_WORDS and not (
            dated_the and when.lemma_.lower() not in _CYCLIC_TIMES and any(
                c.dep_ == "det" and c.lower_ == "the" for c in when.children)):
        return True  # (after an ending, "over the holidays" is one season)
    if token.dep_ == "prep" and token.lower_ in _SPAN_PREPS:
        return True
    # "in the evening", or with the zero article "at night", "in winter" (Quirk et al. 1985
    # §5.44 on times of day and seasons without an article)
    return when.lemma_.lower() in _CYCLIC_TIMES and (not dated_the and any(
        c.dep_ == "det" and c.lower_ == "the" for c in when.children) or not any(
        c.dep_ in ("det", "poss", "nummod", "amod", "compound") for c in when.children))


_SETTING_OFF = frozenset({",", "—", "–", "-", ";", ":", "...", "…"})


def _set_off(negator: Token, token: Token) -> bool:
    """True when punctuation separates ``token`` from the negated clause before it: a
    constituent set off by a comma or a dash is outside the negation's focus ("I don't eat
    meat anymore, not even on holidays", "…, in case you were wondering"; Quirk et al. 1985
    §10.65 on the tone unit). A bracket does not: what it encloses may be the restriction
    itself ("I don't eat meat (on Fridays)"), and marks never make a reading surer than the
    plain words give."""
    start = next((t for t in token.subtree if t.pos_ != "PUNCT"), token)
    return any(t.pos_ == "PUNCT" and t.text in _SETTING_OFF
               for t in negator.doc[negator.i + 1:start.i])


def _misread_relative(token: Token) -> bool:
    """An appositive noun whose determiner is a relative pronoun: a relative clause the
    tagger read as a noun phrase ("dogs that bark" as "dogs, that bark")."""
    return token.dep_ == "appos" and any(c.dep_ == "det" and c.lower_ in ("that", "which")
                                         and c.i < token.i for c in token.children)


def restricted_denials(head: Token, triples: list[Triple], implicit: bool = True
                       ) -> list[Triple]:
    """``triples`` of clause ``head`` with its denials read for their focus: a restricted
    denial gets time qualifier ``"when <restriction>"``; a denial whose focus is a focusing
    subjunct, or that a corrective clause takes back, is dropped. Triples with a past, future
    or conditioned time are left as they are (they never meet the plain present).

    A clause without a negative word whose verb denies by its meaning (``implicit``: an
    ending, "stopped drinking coffee at night", "quit meat on Mondays", or a switch,
    "switched from Slack to Teams at work"; Quirk et al. 1985 §10.63 on words negative in
    meaning, FrameNet Activity_stop and Replacing) has the same focus: an adjunct after the
    verb that is no argument of the clause (no triple's value: "to Teams") and no time of
    the change ("in March", "last month") restricts what ends."""
    if not any(t.negated for t in triples):
        return triples
    negator = _negator(head) or _shared_negator(head)
    values_of = None
    if negator is None:
        if not implicit:
            return triples
        negator = head
        values_of = [t.object_text.lower() for t in triples if t.object_text]
    denied = [t for t in triples if t.negated and not _framed(t)]
    if not denied:
        return triples
    if values_of is None and corrective(head, [t.object for t in denied if t.object]):
        return [t for t in triples if t not in denied]
    out = []
    for t in triples:
        if t not in denied:
            out.append(t)
            continue
        restrictions = _restrictions(
            head, negator, values_of or [t.object_text.lower()], values_of is not None)
        if restrictions is None:
            continue  # "not just vegetarian": no denial
        words = " ".join(w for w in [_words(restrictions) if restrictions else ""]
                         + _excepted(head, negator) if w)
        if words:
            t = with_time(t, f"{CONDITIONED} {words}")
        out.append(t)
    return out


def _shared_negator(head: Token) -> Token | None:
    """The negator a coordinated verb shares with the verb before it ("I have never
    reviewed or shared any photos with Jenna": "never" denies both; Quirk et al. 1985
    §13.89 on ellipsis in coordinated predicates). Only a verb with no subject of its own
    shares it; "I never drink coffee but I tea" is two clauses."""
    if head.dep_ != "conj" or head.pos_ != "VERB" or any(
            c.dep_ in ("nsubj", "nsubjpass", "expl") for c in head.children):
        return None
    negator = _negator(head.head)
    return negator if negator is not None and negator.i < head.i else None


def _words(restrictions: list[Token]) -> str:
    """The restriction as words: each adjunct's lemmas, a time phrase's as the time
    qualifier of a statement names it ("on Saturdays", "every Saturday" -> ``saturday``), so
    that it meets the same time stated with an affirmation
    (:func:`scanner.core.detect._one_circumstance`)."""
    words = []
    for r in sorted(restrictions, key=lambda r: r.i):
        if _focused(r):
            words.append("except")  # "only on Sundays" is no denial on Sundays
        when = _time_phrase(r)
        if _extent(r):
            words += [c.lower_ for c in r.children if c.dep_ == "amod"] + ["time"]
        elif when is not None:
            # a deictic determiner names one occasion ("this week"), kept apart from a
            # recurring time ("every week")
            words += [d.lower_ for d in when.children
                      if d.dep_ == "det" and d.lower_ in _OCCASION_DETERMINERS]
            words += time_words(t for t in when.subtree if t.lower_ not in RECURRENCE)
        else:
            words += [w.lemma_.lower() for w in r.subtree if w.pos_ not in ("DET", "PUNCT")
                      and w.tag_ not in ("WDT", "WP") and w.lower_ != "that"
                      and not (w.lower_ in _RESTRICTING_MARKS and w.head == r)]
    return " ".join(words)


def _time_phrase(token: Token) -> Token | None:
    """The time of a time adjunct ("on Saturdays", "every Saturday morning"), else None."""
    if token.dep_ == "npadvmod":
        return token if _is_time(token) else None
    if token.dep_ == "prep":
        return next((c for c in token.children if c.dep_ == "pobj" and _is_time(c)), None)
    return None


def _framed(triple: Triple) -> bool:
    time = triple.qualifier("time") if triple.qualifiers else None
    return time is not None and time.split(" ", 1)[0] in ("past", "future", CONDITIONED)
