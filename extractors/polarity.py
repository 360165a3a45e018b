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
    """True when ``head`` carries a negation: "not", "n't", "never", "no longer"."""
    for child in head.children:
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
