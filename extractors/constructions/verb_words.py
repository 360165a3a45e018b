"""Word tables and token tests of the verb rules (:mod:`extractors.constructions.verbs`):
roles a passive's agent holds, aspectual verbs that presuppose their complement, durations,
objects the parser misreads (extents, participle clauses), whole-of-it objects and where a
phrasal verb's particle may stand."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.times import _is_time

_AGENT_ROLES = {"found": "founder", "co-found": "founder", "develop": "developer",
                "manufacture": "manufacturer", "make": "manufacturer", "create": "creator",
                "perform": "performer", "write": "author", "direct": "director",
                "compose": "composer", "design": "designer", "invent": "inventor"}
"""Passive verbs whose agent is a role of the patient (Wikidata's founded by P112, developer
P178, manufacturer P176, creator P170, performer P175, author P50, director P57, composer P86,
designer P287, discoverer or inventor P61): "X was founded by Y" -> (x, founder, y). The
relation table decides which roles hold one value."""


_CONTINUATION = frozenset({"continue", "keep"})
"""Aspectual verbs whose complement holds when they are used ("keep running")."""


_DURATION_PREPS = frozenset({"for", "during", "throughout"})
"""Prepositions of a time phrase that says how long a state held, not when."""


def _participle_clause(obj: Token, verb: Token) -> bool:
    """"volunteers at the food bank every Saturday sorting donations": an object after the
    verb's prepositional phrase that opens with an "-ing" form is a participle clause the
    parser read as an object ("sorting" as a modifier of "donations")."""
    first = obj.doc[obj.left_edge.i]
    return (first.tag_ == "VBG" and first.dep_ == "amod" and first.head == obj
            and any(c.dep_ == "prep" and c.i < first.i for c in verb.children))


def _extent(token: Token) -> bool:
    """"full-time", "part-time", "overtime": how much a verb holds, an adverbial the parser
    reads as an object ("works full-time for the fire department")."""
    return token.lemma_.lower() == "time" and any(
        c.lower_ in ("full", "part", "over") for c in token.children)


_WHOLE_OBJECTS = frozenset({"everything", "all", "stuff"})
"""Objects that say "the whole of it" and carry no value of their own."""


_WORK_PERIOD_NOUNS = frozenset({"shift"})
"""Nouns of a period of work (WordNet shift.n.03 "the time period during which you are at
work"): "works the night shift" says when one works, as "works nights" does."""
_WORKING_VERBS = frozenset({"work", "do"})
"""Verbs whose object a period of work is only as its time ("works the night shift", "does
the late shift"; FrameNet Being_employed, work.v); for other verbs it is the thing acted on
("dropped her Saturday shifts at the shelter", "covered a shift")."""


def time_span_object(obj: Token) -> bool:
    """An object that says when the verb holds rather than what it is about: a bare time noun
    ("works nights", "works weekends": a noun phrase as time adjunct, Quirk et al. 1985,
    §8.55) or a period of work as the object of working ("works the night shift":
    :data:`_WORK_PERIOD_NOUNS`, :data:`_WORKING_VERBS`). A
    prepositional phrase the parser hangs on it ("works nights at the bakery") is the verb's
    own."""
    return (_is_time(obj) and not any(d.dep_ == "det" for d in obj.children)
            or obj.lemma_.lower() in _WORK_PERIOD_NOUNS and obj.head.lemma_.lower() in
            _WORKING_VERBS)


_CAUSED_MOTION = {"move to": "transfer to", "move into": "transfer to",
                  "relocate to": "transfer to", "move back to": "transfer to",
                  "move from": "transfer from", "move out of": "transfer from"}
"""A move with an object moves the object (FrameNet Cause_motion): its goal and source are
where the thing went and came from, never where the subject lives."""
_TRANSFER_VERBS = frozenset({"move", "migrate", "transfer", "port", "copy", "export", "import",
                             "shift", "switch", "sync"})
"""Verbs whose "all" object is the whole of one's things moving between places or tools."""


def _whole_object(obj: Token) -> bool:
    """An object that says "the whole of it": "everything", "all", or a plural noun under
    "all" after a verb of transfer ("moved all my notes from Notion to Obsidian"; Quirk et
    al. 1985, §5.15 on the universal "all"): where it went from and to is what the verb is
    about."""
    return obj.lower_ in _WHOLE_OBJECTS or obj.tag_ in ("NNS", "NNPS") and any(
        c.dep_ in ("det", "predet") and c.lower_ == "all" for c in obj.children) and (
        obj.head.lemma_.lower() in _TRANSFER_VERBS) and not any(
        c.dep_ in ("amod", "compound", "nmod") and c.i < obj.i for c in obj.children)
    # (a modifier restricts "all" to a subset: "all my personal notes" is the whole of the
    # personal ones only, so a move of them leaves the tool in use for the rest)
_ATTENDING = frozenset({"go", "attend"})
"""Verbs of attending whose stopping is quitting what is attended ("stopped going to the
gym" / "has a gym membership")."""


_SHIFTED_PARTICLES = frozenset({"away", "off", "out", "back", "up", "down", "over", "in"})
"""Particles that may follow the object of a phrasal verb ("gave the sofa away", "called
the wedding off"; Quirk et al. 1985, §16.4), where the tagger often reads an adverb."""


def _adjacent(verb: Token, particle: Token) -> bool:
    """Whether a particle the parser hung on ``verb`` stands where a particle can: right
    after the verb or after its object ("sold the car off"; Quirk et al. 1985, §16.4). One
    after a comma or another clause belongs elsewhere ("sold the car, gonna bike from now
    on": the "on" of "from now on")."""
    if particle.i < verb.i:
        return True
    objects = {t.i for c in verb.children if c.dep_ in ("dobj", "obj", "dative")
               for t in c.subtree}
    return all(i in objects for i in range(verb.i + 1, particle.i))


_BOUNDARY_PREPS = frozenset({"until", "till", "after", "before", "since"})
"""Prepositions that bound a time rather than name it; they stay in the time qualifier."""


REPLACING_VERBS = frozenset({"replace", "overtake", "supplant", "displace", "succeed",
                             "dethrone", "usurp"})
"""Verbs whose subject takes its object's place ("Y has overtaken X as her favourite band";
FrameNet Replacing and Take_place_of)."""


def raised_objects(verb: Token) -> list[Token]:
    """The objects a verb without its own shares with the verb coordinated right after it:
    "never reviewed or shared any photos", "developed and tested the matcher" (right node
    raising: the shared object is said once, after the last verb; Postal 1974 ch. 4;
    Quirk et al. 1985 §13.89). Only the pattern "V1 and/or V2 object" counts: V1 has no
    complement of its own and V2 is the word after the conjunction."""
    if any(c.dep_ in ("dobj", "obj", "prep", "ccomp", "xcomp", "dative") for c in verb.children):
        return []
    doc = verb.doc
    if verb.i + 2 >= len(doc) or doc[verb.i + 1].dep_ != "cc":
        return []
    second = doc[verb.i + 2]
    if second.dep_ != "conj" or second.head != verb or second.pos_ != "VERB":
        return []
    return [c for c in second.children if c.dep_ in ("dobj", "obj")]


def unread_complement(verb: Token) -> bool:
    """Whether a verb has a complement after it that no object reading took: a clause the
    parser made of the object ("never written any unit tests" with "tests" a verb), or a
    coordinated verb's complement it shares ("never met or interacted with Karen"). Its bare
    reading ("user never writes") would deny every act of the verb, whatever the sentence
    says it is about (issue 37, kind 1)."""
    if any(c.dep_ in ("dobj", "obj", "ccomp", "dative", "oprd", "attr") and c.i > verb.i
           and not _is_time(c) for c in verb.children):  # ("broke over the holidays")
        return True
    return any(c.dep_ == "conj" and c.pos_ == "VERB" and any(
        g.dep_ in ("dobj", "obj", "prep", "ccomp", "dative") for g in c.children)
        for c in verb.children)


_QUANTIFIERS = frozenset({"any", "no", "some", "every", "each", "several", "many", "few"})
"""Determiners of a noun phrase that stands as an object ("never wrote any unit tests"), not
as the subject of a clause complement, in the memory forms read here."""


def misread_object(verb: Token) -> str | None:
    """The words of a verb's object that the parser read as the subject and verb of a clause,
    as written, its last word lemmatised: "never written any unit tests" ("tests" a verb,
    "unit" its subject) -> ``"unit test"``; "never logged any cache miss errors" -> ``"cache
    miss error"``; "completed the translation microservice supporting 12 languages" ->
    ``"translation microservice"``. A plural noun after a modifier noun is tagged as a
    present-tense verb (VBZ) often enough in spaCy's small English pipeline to be read back:
    the "clause" has no auxiliary or subordinator, its subject is a common noun whose phrase
    starts right after the verb, where the object stands, and either a quantifier opens that
    phrase or the "verb" is a bare or -ing form, which no finite clause has. None = no such
    clause."""
    for clause in verb.children:
        if clause.dep_ not in ("ccomp", "advcl") or clause.i < verb.i or any(
                c.dep_ in ("aux", "auxpass", "mark", "neg") for c in clause.children):
            continue
        subject = next((c for c in clause.children if c.dep_ == "nsubj"
                        and c.pos_ == "NOUN" and c.left_edge.i == verb.i + 1), None)
        if subject is None or not (
                clause.tag_ in ("VB", "VBG")  # "cache miss": no finite verb agrees with it
                or verb.doc[subject.left_edge.i].lower_ in _QUANTIFIERS):  # "any unit tests"
            continue  # "I think the team likes tea": a clause
        if clause.tag_ == "VBG":  # "the microservice supporting 12 languages"
            last = subject
        else:
            last = next((c for c in clause.children if c.dep_ == "dobj"
                         and c.i == clause.i + 1), clause)
        words = [t for t in verb.doc[subject.left_edge.i:last.i + 1] if t.dep_ != "det"]
        return " ".join([t.lower_ for t in words[:-1]] + [words[-1].lemma_.lower()])
    return None
