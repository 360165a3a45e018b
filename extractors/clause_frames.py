"""Clauses that assert less than they say: a possibility, plan or condition (no fact), and
a rule stated with an exception (the exception is part of the rule)."""

from __future__ import annotations

from spacy.tokens import Doc, Token

from extractors.syntax import _word
from extractors.types import Triple
from extractors.doc_cache import doc_text
from extractors.wishes import polite_volition

_EXCEPT = {"except", "excluding", "unless", "save"}
_MODALS = {"might", "may", "could", "would", "should", "will", "shall", "'ll", "'d", "must",
           "wo"}  # "wo" is spaCy's token for the "wo" of "won't"
_CONDITIONAL_MARKS = {"if", "unless", "whether"}
"""Marks of a condition; "though" and "although" concede a fact, which stays asserted."""


def _hypothetical(head: Token) -> bool:
    """A clause that states a possibility, plan or condition rather than a fact: a modal
    auxiliary other than "can" ("I might move to Lisbon", "I will work at Globex next
    month"), or a conditional clause ("if I move to Lisbon"). "can"/"can't" stay: "I can't
    eat gluten" is a standing fact, and so is the wish of "would like to"
    (:func:`extractors.wishes.polite_volition`)."""
    for child in head.children:
        if child.dep_ in ("aux", "auxpass") and child.tag_ == "MD" and child.lower_ in _MODALS \
                and not polite_volition(head):
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


_FUTURE_MODALS = {"will", "wo", "'ll", "shall"}
FUTURE = "future"
"""The time qualifier of a plain future ("Tim will be staying in Galway"); with a time phrase of
its own it is prefixed to it ("future next month")."""


def _plain_future(head: Token) -> bool:
    """A clause whose only hedge is the future: a modal "will"/"shall" ("won't"), or "going to"
    ("I am going to move to Porto"), with no condition and no other modal. What it says is a
    plan, not a fact of now: it is compared only with other statements of the same future
    (:func:`in_future`), never with the present ("will work at Globex" leaves "works at Acme"
    standing), but a later "won't be living in Galway" does withdraw "will be staying in
    Galway"."""
    modals = [c for c in head.children if c.dep_ in ("aux", "auxpass") and c.tag_ == "MD"
              and c.lower_ in _MODALS]
    if any(m.lower_ not in _FUTURE_MODALS for m in modals):
        return False
    for child in head.children:
        if child.dep_ == "mark" and child.lower_ in _CONDITIONAL_MARKS:
            return False
        if child.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in _CONDITIONAL_MARKS
                                         for m in child.children):
            return False
    if modals:
        return True
    return head.dep_ == "xcomp" and head.head.lower_ == "going" and head.tag_ == "VB" and not any(
        c.dep_ == "mark" and c.lower_ in _CONDITIONAL_MARKS for c in head.head.children)


def in_future(triple: Triple) -> Triple:
    """``triple`` as a statement of the future: its time qualifier becomes :data:`FUTURE`
    (or ``"future <time>"`` when the clause names one)."""
    times = [v for k, v in triple.qualifiers if k == "time"]
    return with_time(triple, FUTURE if not times else f"{FUTURE} {times[0]}")


def with_time(triple: Triple, when: str) -> Triple:
    """``triple`` with ``when`` as its only time qualifier."""
    quals = tuple(sorted({q for q in triple.qualifiers if q[0] != "time"} | {("time", when)}))
    return Triple(**{**triple.to_dict(), "qualifiers": quals})


_CONDITION_MARKS = {"when", "whenever"}
"""Marks of a restricting clause ("while" mostly spans a period: "works there while she
studies")."""
_ASPECT_ADVERBS = {"anymore", "now", "still", "again", "currently", "nowadays"}
"""Adverbs of the main clause's aspect that the parser may hang in the "when" clause."""
CONDITIONED = "when"
"""The time qualifier's prefix of a habitual statement restricted by a "when" clause ("prefers
larger fonts when reading on mobile" -> ``"when read on mobile"``)."""


_PREFERENCE_VERBS = {"prefer", "want"}
_DOMAIN_PREPS = {"in", "on", "for", "with", "during"}


_ANY_DOMAIN = frozenset({"app", "application", "program", "device", "platform", "place",
                         "context", "site", "website", "screen", "interface", "situation"})
"""General nouns of where a preference holds: "all apps", "every device" quantify over all
of them, which is no restriction."""


def _preference_domain(head: Token) -> str | None:
    """The circumstance a preference is stated for: "prefers light mode on their e-reader",
    "prefers dark mode in all of their code editors", "prefers window seats on long flights"
    -> "on e-reader", … (a prepositional phrase of the verb or its object naming where or with
    what the choice holds); None when the preference is unrestricted or the phrase is a name
    (a place name is the value's own place: "prefers the cafe in Leith")."""
    if head.lemma_.lower() not in _PREFERENCE_VERBS:
        return None
    holders = [head] + [c for c in head.children if c.dep_ in ("dobj", "obj")]
    for prep in (c for h in holders for c in h.children
                 if c.dep_ == "prep" and c.lower_ in _DOMAIN_PREPS):
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if pobj is not None and pobj.pos_ == "PROPN" and prep.head == head and any(
                c.dep_ == "poss" for c in pobj.children):
            # "prefers Safari on her iPhone": a device of one's own is a circumstance (a
            # place name after the object is the value's own: "the cafe in Leith")
            return f"{prep.lower_} {pobj.lower_}"
        if pobj is not None and pobj.lower_ in ("all", "each", "every", "most", "some"):
            # "in all of their code editors": the "of" phrase names the domain
            pobj = next((g for c in pobj.children if c.dep_ == "prep" and c.lower_ == "of"
                         for g in c.children if g.dep_ == "pobj"), None)
        elif pobj is not None and pobj.lemma_.lower() in _ANY_DOMAIN and any(
                c.lower_ in ("all", "every", "each", "any") for c in pobj.children):
            continue  # "in all apps", "on every device": everywhere, no circumstance
        if pobj is None or pobj.pos_ != "NOUN":
            continue
        # the domain's noun and its compounds; an adjective narrows it within the same
        # domain ("on long flights" is about flights)
        words = [t.lemma_.lower() for t in pobj.subtree if t == pobj or (
            t.dep_ == "compound" and t.head == pobj)]
        return f"{prep.lower_} {' '.join(words)}"
    return None


def misread_adverbial(clause: Token) -> bool:
    """A "when" or "whenever" clause the parser hung on a verb as its complement (``ccomp``)
    that takes none: "I don't cycle when it's snowing". Only a framing predicate, a verb of
    knowing, saying or asking (``extractors/data/reporting_frames.toml``), has a "when"
    question as its complement ("I don't know when it opens"); on any other verb the clause
    is an adverbial of time (Quirk et al. 1985 §15.17 on subordinate interrogative clauses,
    §15.25 on "when" clauses of time)."""
    from extractors.constructions.reports import frame_assertion  # (reports imports this)

    if clause.dep_ != "ccomp" or clause.i < clause.head.i:
        return False
    opener = clause.left_edge  # (the parser may hang it on the clause's auxiliary)
    return (opener.dep_ in ("advmod", "mark") and opener.lower_ in _CONDITION_MARKS
            and frame_assertion(clause.head) is None)


def conditioned(head: Token, triples: list[Triple]) -> list[Triple]:
    """``triples`` of a present-tense clause restricted by its own "when" or "whenever"
    clause, each with time qualifier ``"when <clause>"``: a habit or preference
    that holds in some circumstances only is compared only with one in the same circumstances
    ("prefers dark mode" and "prefers larger fonts when reading on mobile" both hold). A past
    clause ("moved to Porto when he got the job") is a dated event and keeps its reading."""
    present = head.tag_ in ("VBZ", "VBP") or (head.tag_ == "VB" and any(
        c.dep_ == "aux" and c.tag_ in ("VBZ", "VBP") for c in head.children))  # "doesn't"
    if not triples or not present:
        return triples
    # (the clause's own "when" clause: one inside a relative clause restricts that clause,
    # "owns a Yamaha that he rides whenever the weather is decent")
    clause = next((t for t in head.children if t.dep_ == "advcl" and any(
        m.lower_ in _CONDITION_MARKS and m.dep_ in ("advmod", "mark") for m in t.children)
        or misread_adverbial(t)), None)
    if clause is not None:
        words = " ".join(t.lemma_.lower() for t in clause.subtree
                         if t.pos_ not in ("PUNCT", "DET") and t.lower_ not in _CONDITION_MARKS
                         and t.lower_ not in _ASPECT_ADVERBS)
    else:
        words = _preference_domain(head)
        if not words:
            return triples
    return [with_time(t, f"{CONDITIONED} {words}") for t in triples]


_SPENDING_TIME = {"spend", "pass", "waste"}
"""Verbs of FrameNet's Spending_time frame: "spent two summers working as a lifeguard"."""


def spent_in_past(head: Token, triples: list[Triple]) -> list[Triple]:
    """``triples`` of a gerund clause that says how past time was spent ("she spent two
    summers working as a lifeguard at Salthill"), each marked as a completed past (time
    ``past``): what filled a time that is over is no current value. A present "spends her
    weekends volunteering at the shelter" is a habit of those times (a "when" circumstance,
    :func:`conditioned`)."""
    governor = head.head
    if (not triples or head.tag_ != "VBG" or head.dep_ not in ("xcomp", "advcl", "ccomp")
            or governor.lemma_.lower() not in _SPENDING_TIME):
        return triples
    if governor.tag_ in ("VBD", "VBN"):
        when = "past"
    else:
        # "spends his weekends working at the cafe": a habit of those times only
        spent = next((c for c in governor.children if c.dep_ in ("dobj", "npadvmod")), None)
        if spent is None:
            return triples
        when = f"{CONDITIONED} {spent.lemma_.lower()}"
    return [with_time(t, when) for t in triples]


def _with_exceptions(doc: Doc, triples: list[Triple]) -> list[Triple]:
    """Attach an ``except`` qualifier to the triples of a sentence that states an exception
    ("… within 30 days, except for enterprise plans"), so the rule with the exception stays
    distinct from the rule without it."""
    low = doc_text(doc).lower()
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


_MOVE_VERBS = frozenset({"move", "relocate"})
"""Verbs of moving home whose progressive is futurate ("I'm moving to Portland next month")."""


def futurate_move(head: Token) -> bool:
    """A move in the present progressive ("I'm moving to Portland next month", "The user is
    relocating to Leeds"): an arrangement for the future (the futurate progressive, Quirk et
    al. 1985 §4.28), not a move made: read as :data:`FUTURE`."""
    return head.tag_ == "VBG" and head.lemma_ in _MOVE_VERBS and any(
        c.dep_ == "aux" and c.lemma_ == "be" for c in head.children)


FICTION_NOUNS = frozenset("""
    game campaign novel story book film movie show series play simulation sim roleplay rp
    dream fanfic fiction script episode save playthrough
    """.split())
"""Nouns of a made-up world (WordNet 3.1 fiction.n.01, game.n.01, play.n.01, dream.n.01,
simulation.n.01 and kin): a clause set "in" one states nothing of the real one."""


def in_fiction(head: Token) -> bool:
    """Whether the clause of ``head`` is set in a made-up world by a fronted "in" phrase ("In
    the game I don't like coffee", "in my D&D campaign i live in Waterdeep", "In the user's
    novel, the user lives in Rome")."""
    for prep in head.children:
        if prep.dep_ == "prep" and prep.lower_ == "in" and prep.i < head.i:
            for obj in prep.children:
                if obj.dep_ == "pobj" and obj.lemma_.lower() in FICTION_NOUNS:
                    return True
    return False
