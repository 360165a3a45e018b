"""Reported clauses: whether a memory asserts a clause it reports.

A complement clause under a verb of saying or thinking ("My cousin believes I moved to Oslo",
"Ada said she sold her bike") holds someone's words or opinion. The table
``extractors/data/reporting_frames.toml`` says, per framing predicate, when the memory
asserts what it frames: a factive predicate presupposes it (also negated); a verb of
communication asserts it when it is affirmed, not passive, not hedged by a modal, and its
subject is the user or the one person the clause is about (a self-report: "The user mentioned
they walk to work"); a verb of belief, hearsay, doubt or proposal never does. A clause placed
"according to" someone other than the user or the one it is about is such a report too.

A clause the memory does not assert yields no triple, so it never decides a verdict. This is
the attribution side of the frames around a complement clause; the truth frame ("It is not
true that I smoke", :func:`extractors.syntax._truth_frame`) affirms or denies the clause it
frames, and a modal or condition (:func:`extractors.clause_frames._hypothetical`) hedges it.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from spacy.tokens import Token

from extractors.aspect import _clause_tokens
from extractors.clause_frames import _hypothetical, _plain_future
from extractors.constructions.subjects import ANIMATE_NOUNS
from extractors.syntax import _lemma, _negated, USER

DATA_FILE = "reporting_frames.toml"
PRESUPPOSED, OWN_REPORT, NEVER = "presupposed", "own report", "never"
"""What a frame asserts of its clause (the table's ``asserts`` values)."""
_VERB, _ADJECTIVE, _SUBJECT = "verb", "adjective", "subject"
_LIGHT_FRAME_VERBS = frozenset({"have", "be", "go"})
"""Verbs that frame a clause through their subject in a hearsay idiom ("rumor has it I …",
"word is I …", "the story goes I …"; the table's ``subjects``)."""


@cache
def reporting_frames() -> dict[tuple[str, str], str]:
    """``(kind, word) -> asserts`` from the shipped table: kind ``"verb"`` (a lemma, a
    particle verb with its particle), ``"adjective"`` or ``"subject"`` (a noun that makes a
    light verb with it as its subject a frame: "rumor has it"); asserts one of :data:`PRESUPPOSED`,
    :data:`OWN_REPORT`, :data:`NEVER`."""
    text = resources.files("extractors.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    frames: dict[tuple[str, str], str] = {}
    for row in tomllib.loads(text)["frames"]:
        if row["asserts"] not in (PRESUPPOSED, OWN_REPORT, NEVER):
            raise ValueError(f"{DATA_FILE}: unknown asserts value {row['asserts']!r}")
        for word in row.get("verbs", ()):
            frames[(_VERB, word)] = row["asserts"]
        for word in row.get("adjectives", ()):
            frames[(_ADJECTIVE, word)] = row["asserts"]
        for word in row.get("subjects", ()):
            frames[(_SUBJECT, word)] = row["asserts"]
    return frames


def frame_assertion(frame: Token) -> str | None:
    """What the predicate ``frame`` asserts of a clause it frames (see :func:`reporting_frames`),
    or None when the table does not know it: a predicative adjective ("is convinced that …",
    looked up by form and lemma) or a verb (a particle verb by lemma and particle only: "find
    out" is factive, "point out" a report, an unknown "work out" none), or a light verb whose
    subject makes it a hearsay idiom ("Rumor has it I …", "Word is I …")."""
    frames = reporting_frames()
    if frame.lemma_.lower() in _LIGHT_FRAME_VERBS:
        idiom = next((frames.get((_SUBJECT, c.lemma_.lower())) for c in frame.children
                      if c.dep_ == "nsubj" and c.i < frame.i), None)
        if idiom is not None:
            return idiom
    if frame.dep_ == "acomp" or frame.pos_ == "ADJ":
        return frames.get((_ADJECTIVE, frame.lower_)) or frames.get(
            (_ADJECTIVE, frame.lemma_.lower()))
    misread = frame.tag_ == "NNS" and any(c.dep_ == "nsubj" for c in frame.children)
    if frame.pos_ not in ("VERB", "AUX") and not misread or any(
            c.dep_ in _LINKING_COMPLEMENTS for c in frame.children):
        # (a plural noun with a subject is a verb in "-s" the tagger misread: "My
        # nutritionist claims I …")
        return None
    lemma = _lemma(frame)
    particle = next((c.lower_ for c in frame.children if c.dep_ == "prt"), None)
    return frames.get((_VERB, f"{lemma} {particle}" if particle else lemma))


_INNER_CLAUSES = frozenset({"ccomp", "xcomp", "advcl", "relcl", "acl", "parataxis", "csubj"})
_LOGOPHORIC = frozenset({"his", "her", "their"})
"""Third-person possessive pronouns, which in reported words may stand for the reporter."""
_LINKING_COMPLEMENTS = frozenset({"acomp", "attr", "oprd"})
"""A verb with such a complement of its own links it to its subject ("the house feels
empty"); it frames no clause (the parser may still hang one on it)."""


_ANIMALS = frozenset({"dog", "cat", "pet", "horse", "puppy", "kitten", "bird", "rabbit",
                      "parrot", "hamster"})
"""Animals among the animate nouns: what befalls one's pet ("Ada said her dog died") is
reported by its owner as about the owner's own household, and read as before."""


def _person(noun: Token) -> bool:
    """A noun naming a person of their own ("her brother", "my boss")."""
    return noun.pos_ == "NOUN" and noun.lemma_.lower() in ANIMATE_NOUNS - _ANIMALS


def _passive(verb: Token) -> bool:
    return any(c.dep_ in ("auxpass", "nsubjpass") for c in verb.children)


class ReportRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for reported clauses (a mixin: it
    reads the extractor's ``_entity`` and ``_subject_token``)."""

    def _asserted(self, head: Token) -> bool:
        """Whether the memory asserts the clause headed by ``head``: False when a frame above
        it (a complement clause's verb or adjective, a trailing "…, my cousin thinks", an
        "according to" phrase, up through nested reports) attributes it to someone else's
        words, opinion or hearsay, or denies the saying ("I never said I …"); True for a
        clause in no such frame, in a factive one, or in the user's or its own subject's
        affirmed report ("Ada said she sold her bike")."""
        token, below = head, None
        while True:
            # every clause on the way up may be reported in turn: a clause inside a reported
            # one ("thinks I moved to Oslo when I got the job"), a coordinated one ("thinks I
            # live in Oslo and work at Equinor"), the frame's own ("I never said Ada thinks …")
            if not self._own_source(token):
                return False
            trailing = _trailing_frame(token)
            if trailing is not None and trailing != below and \
                    not self._frame_asserts(trailing, token):
                return False
            if token.head == token or _juxtaposed(token):
                return True
            if token.dep_ == "ccomp" and frame_assertion(token.head) is not None and \
                    not self._frame_asserts(token.head, token):
                return False  # (a frame the table does not know reads as before)
            if token.dep_ == "relcl" and token.head.lower_ == "it" and \
                    token.head.dep_ == "dobj" and frame_assertion(token.head.head) == NEVER:
                return False  # "Legend has it I …": the parser may make the clause a relative
            token, below = token.head, token

    def _frame_asserts(self, frame: Token, clause: Token) -> bool:
        """Whether the known frame ``frame`` asserts ``clause`` (see :meth:`_asserted`)."""
        asserts = frame_assertion(frame)
        if asserts == PRESUPPOSED:
            return True
        if asserts != OWN_REPORT:
            return False
        if _negated(frame) or _passive(frame) or (
                _hypothetical(frame) and not _plain_future(frame)):
            return False  # "never said", "was told", "would say"
        reporter = self._subject_token(frame)
        if reporter is None:
            return True  # (no subject: a misparse more often than a report; as before)
        return self._speaks_for(reporter, clause)

    def _speaks_for(self, source: Token | None, clause: Token) -> bool:
        """Whether ``source`` (who reports ``clause``) is the user or the one person the
        clause is about (:meth:`_referents`: "Ada said her bike was stolen")."""
        who = self._entity(source) if source is not None else None
        if who is None:
            return False
        if who == USER:
            return True
        if source.pos_ == "PROPN" and any(t.dep_ == "poss" and t.lower_ in _LOGOPHORIC
                                          for t in self._own_words(clause)):
            # "Ada says Ursula has replaced Jane as her favourite author": a possessive
            # pronoun in reported words may stand for the one who reports them (logophoric
            # reference, Sells 1987), whoever else the resolver picked
            return True
        return who in self._referents(clause)

    def _referents(self, clause: Token) -> set[str]:
        """Whom ``clause`` is about: its subject's referent and the possessors in its own
        words (not in a clause inside it): "Ada says Ursula has replaced Jane as her
        favourite author" is about Ada; "Ada says I owe her money" names her, but is about
        the user."""
        subject = self._subject_token(clause)
        if subject is None and clause.dep_ == "ccomp":
            # "Ada says her favourite band is X": the parser may make the reported clause's
            # subject the reporting verb's object
            subject = next((c for c in clause.head.children if c.dep_ == "dobj"
                            and c.i < clause.i and c.pos_ == "NOUN"), None)
        nouns = [t for t in self._own_words(clause, subject) if t.dep_ == "poss"]
        if subject is not None:
            nouns.append(subject)
            if not _person(subject):
                nouns += [c for c in subject.children if c.dep_ == "poss"]
        return {self._entity(noun) for noun in nouns} - {None}

    def _own_words(self, clause: Token, subject: Token | None = None) -> list[Token]:
        """The words of ``clause`` (:func:`_clause_tokens`) that may name whom it is about:
        not those of a subject that is a person of their own ("Ada said her brother moved"
        is about the brother, not Ada: the possessor only says whose brother)."""
        subject = subject if subject is not None else self._subject_token(clause)
        words = _clause_tokens(clause, _INNER_CLAUSES)
        if subject is None or not _person(subject):
            return words
        return [t for t in words if t not in subject.subtree]

    def _own_source(self, clause: Token) -> bool:
        """False when ``clause`` is placed "according to" someone other than the user or
        the one it is about ("According to my dentist, I grind my teeth")."""
        for prep in clause.children:
            if prep.dep_ != "prep" or prep.lower_ != "according":
                continue
            sources = [o for to in prep.children if to.dep_ == "prep" and to.lower_ == "to"
                       for o in to.children if o.dep_ == "pobj"]
            if not sources or not all(self._speaks_for(s, clause) for s in sources):
                return False
        return True


def _juxtaposed(clause: Token) -> bool:
    """Whether ``clause`` is a sentence of its own that the parser hung under the next one: a
    complement or parataxis before its head with a semicolon between them ("I met Bryan at
    the festival; he advised me": "met" is no content of "advised"). A semicolon joins
    independent clauses, never a clause to its complement (Quirk et al. 1985, App. III on
    the semicolon)."""
    if clause.dep_ not in ("ccomp", "parataxis") or clause.i > clause.head.i:
        return False
    return any(t.text == ";" for t in clause.doc[clause.right_edge.i + 1:clause.head.i])


def _trailing_frame(clause: Token) -> Token | None:
    """A reporting verb the parser hung after the clause it reports ("I moved to Oslo, my
    cousin thinks."): a parataxis or complement of ``clause`` after a comma that closes the
    sentence, with a subject and no complement of its own, that the table knows; None
    otherwise ("mentioned the support he feels there" has no comma: a relative clause)."""
    for child in clause.children:
        if child.dep_ not in ("parataxis", "ccomp") or child.i < clause.i:
            continue
        start, end = child.left_edge.i, child.right_edge.i
        doc = child.doc
        if start == 0 or doc[start - 1].text != "," or any(
                not t.is_punct for t in doc[end + 1:child.sent.end]):
            continue
        if frame_assertion(child) is None or not any(
                c.dep_ in ("nsubj", "nsubjpass") for c in child.children):
            continue
        if any(c.dep_ in ("ccomp", "dobj", "xcomp", "attr", "acomp") for c in child.children):
            continue
        return child
    return None
