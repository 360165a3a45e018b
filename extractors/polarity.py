"""Polarity of a clause: its negator, whether it is negated or says "no longer", and the truth
frame around it ("It is not true that …"). Token-level, shared by the extraction rules
(re-exported by :mod:`extractors.syntax`)."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.doc_cache import per_token


def _is_negator(token: Token) -> bool:
    return token.dep_ == "neg" or token.lower_ in ("never", "no longer")


@per_token
def _negated(head: Token) -> bool:
    """True when ``head`` carries a negation: "not", "n't", "never", "no longer", or is a
    later disjunct of a negated verb (:func:`negated_disjunct`: "I don't smoke or drink")."""
    return _carries_negation(head) or negated_disjunct(head)


def _carries_negation(head: Token) -> bool:
    """True when ``head`` itself carries a negation: "not", "n't", "never", "no longer", or
    the "neither" of "neither … nor" on it or on its subject ("Kenji neither eats pork nor
    beef", "Neither Ana nor Ben eats meat"; Quirk et al. 1985 §13.40 on correlative
    "neither … nor")."""
    for child in head.children:
        if _neither(child):
            return True
        if _is_negator(child):
            return True
        if child.dep_ == "advmod" and any(c.dep_ == "neg" for c in child.children):
            return True  # "no longer", "not anymore"
        if child.dep_ == "advmod" and child.lower_ in ("more", "longer") and any(
                c.lower_ == "no" for c in child.children):
            return True  # "I smoke no more": the parser makes "no" a determiner of "more"
        if child.dep_ in ("nsubj", "nsubjpass") and child.i < head.i and any(
                c.lower_ in ("never", "not") and child.i < c.i < head.i
                for c in child.children):
            # "I never, ever eat meat": the comma makes the parser hang "never" on the
            # subject, but a negator between subject and verb negates the verb (Quirk et
            # al. 1985, §10.54: clause negation by a negative adverb in mid position)
            return True
    return False


def _neither(child: Token) -> bool:
    """Whether a child of a clause's head is the "neither" of the head ("neither eats pork nor
    beef") or a subject "neither X nor Y" ("Neither Ana nor Ben eats meat")."""
    if child.dep_ == "preconj":
        return child.lower_ == "neither"
    return child.dep_ in ("nsubj", "nsubjpass") and any(
        g.dep_ in ("preconj", "det") and g.lower_ == "neither" for g in child.children) and any(
        g.dep_ == "cc" and g.lower_ == "nor" for g in child.children)


_DISJUNCTIONS = frozenset({"or", "nor"})


def negated_disjunct(verb: Token) -> bool:
    """Whether ``verb`` is a later disjunct of a negated verb and shares its subject: "I don't
    smoke or drink", "I have never deployed an app or used Fargate" deny both verbs, as "not
    (A or B)" is "not A and not B" (Huddleston & Pullum 2002, The Cambridge Grammar of the
    English Language, ch. 15 on coordination under negation); "nor" denies its verb whatever
    precedes it ("neither smokes nor drinks"). A disjunct with its own subject ("I don't
    smoke or I would …") or joined by "and" keeps its own polarity."""
    if verb.dep_ != "conj" or any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        return False
    chain = [verb]
    while chain[-1].dep_ == "conj" and chain[-1].head != chain[-1]:
        chain.append(chain[-1].head)  # up to the first conjunct ("smoke, drink or gamble")
    first = chain[-1]
    marks = sorted((c for t in chain for c in t.children if c.dep_ == "cc"), key=lambda c: c.i)
    if not marks or marks[-1].lower_ not in _DISJUNCTIONS:
        return False
    return marks[-1].lower_ == "nor" or _carries_negation(first)


def _no_longer(token: Token) -> bool:
    """True when ``token`` carries "no longer" / "no more" / "not anymore" itself."""
    return any(c.dep_ == "advmod" and c.lower_ in ("longer", "more", "anymore")
               and any(g.dep_ == "neg" or g.lower_ == "no" for g in c.children)
               for c in token.children)


_TRUE_WORDS = frozenset({"true", "correct", "right", "so", "case"})
_FALSE_WORDS = frozenset({"false", "untrue", "wrong", "incorrect"})


def _truth_frame(head: Token) -> bool | None:
    """Whether the truth frame around clause ``head`` affirms it (True: "It is true that I
    smoke", "It is the case that …") or denies it (False: "It's not true that I smoke", "It
    is false that …", "It is not the case that …"); None when ``head`` is in no such frame.
    The parser attaches the clause to "be" (ccomp) or, after "the case", to "case" (relcl)."""
    word = head.head
    if head.dep_ == "ccomp":
        frame = word
        word = next((c for c in frame.children if c.dep_ == "acomp"
                     and c.lower_ in _TRUE_WORDS | _FALSE_WORDS), None)
    elif head.dep_ == "relcl" and word.lower_ == "case" and word.dep_ == "attr":
        frame = word.head
    else:
        return None
    if word is None or frame.lemma_ != "be" or frame == head or not any(
            c.dep_ in ("nsubj", "expl") and c.lower_ == "it" for c in frame.children):
        return None
    return _negated(frame) == (word.lower_ in _FALSE_WORDS)
