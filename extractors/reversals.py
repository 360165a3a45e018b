"""A change undone in the same sentence ends nothing: "the membership briefly lapsed but was
renewed", "stepped down in 2015, back since 2020", "moved my notes from Notion to Obsidian
and back again".

An ending whose result a later part of its own sentence reverses leaves the earlier state
holding (Dowty 1979 §2.3 on reversed achievements; the restitutive reading of "back" and
"again", von Stechow 1996): the reversal is a verb of resuming or restoring the state
(FrameNet 1.7 Process_resume and Cause_to_resume: resume, renew, restart, reopen; with
WordNet 3.1 reinstate.v.01, rejoin.v.01, reactivate.v.01, reconcile.v.01) or the adverb
"back" of a return to the earlier state ("and back again", "back since 2020", "have been
back"). "Back" as a remote past ("back in 2009", "back then"), a return to something else
("went back to paper books"), a particle of a transfer ("bought it back") and a negated
reversal ("never renewed", "not back") undo nothing. :func:`extractors.aspect._temporary`
calls :func:`undone_later` for every ending it checks.
"""

from __future__ import annotations

from spacy.tokens import Token

RESTORING_VERBS = frozenset({
    "renew", "resume", "restart", "reopen", "revive", "reinstate", "restore", "reactivate",
    "rejoin", "re-join", "reenroll", "re-enroll", "re-enrol", "reenrol", "resubscribe",
    "re-subscribe", "readmit", "re-admit", "reappoint", "re-appoint", "reelect", "re-elect",
    "reconcile", "reunite", "rehire", "re-hire", "reconnect", "reactivate", "unpause"})
"""Verbs that restore or resume a state an ending ended (module sources)."""

_REMOTE_PAST = frozenset({"in", "then", "when", "during", "before", "around", "home"})
"""Words after "back" that make it a remote past or a place ("back in 2009", "back then",
"back home"), not a return to the earlier state."""


def _negated(token: Token) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in ("never", "not", "n't") for c in token.children)


def _within(token: Token, verb: Token) -> bool:
    """Whether ``token`` hangs from ``verb`` through coordination or modification only (not
    through a clause of its own that reports or relates: a relative or complement clause)."""
    node = token
    while node.i != node.head.i:
        if node.dep_ in ("relcl", "acl", "ccomp", "xcomp", "csubj"):
            return False
        node = node.head
        if node.i == verb.i:
            return True
    return False


def undone_later(verb: Token) -> bool:
    """Whether a later part of ``verb``'s sentence reverses the change ``verb`` reports: an
    affirmed restoring verb (:data:`RESTORING_VERBS`) in the verb's sentence after it, or
    "back" of a return hanging from it ("and back again", "back since 2020", "but have been
    back"), neither negated nor a return to something else."""
    for t in verb.sent:
        if t.i <= verb.i:
            continue
        if t.pos_ in ("VERB", "AUX") and t.lemma_.lower() in RESTORING_VERBS and \
                t.tag_ != "VB" and not _negated(t) and _within(t, verb):
            return True
        if t.lower_ == "back" and t.dep_ == "advmod" and _within(t, verb) \
                and not _negated(t.head) and (t.i + 1 >= len(t.doc)
                                              or t.nbor(1).lower_ not in _REMOTE_PAST) \
                and not (t.i > 0 and t.nbor(-1).lower_ == "way") \
                and not any(c.dep_ == "prep" and c.lower_ == "to"
                            for c in (*t.children, *t.head.children) if c.i > t.i):
            return True
    return False
