"""Clauses that say what someone means to do, or when a rule applies, not what they did.

A to-infinitive adverbial clause states a purpose ("I went to the shelter to adopt a dog",
"Deferred unused components to keep the bundle small"): it is non-factual, and says nothing of
whether the act took place (Quirk et al. 1985 §15.48 on clauses of purpose, §14.8 on the
non-factual infinitive). An infinitive complement of such a clause, or of a verb of wanting or
planning, is as unrealised as its governor ("I want to review the notes to solve the set":
neither the review nor the solving is reported). Their triples would otherwise meet a denial
of the act ("I have never solved any of those problems") as a report of doing it.

A "when" clause of an instruction ("Always include code samples when I ask about Flask
routes") is the condition of a standing rule for the assistant, not a report that the act
took place (Quirk et al. 1985 §15.25 on the contingent "when", close to "if").
"""

from __future__ import annotations

from spacy.tokens import Token

from extractors.syntax import _DESIRE_VERBS, _imperative

_IMPLICATIVE = frozenset({"manage", "remember", "get", "happen", "bother", "dare", "begin",
                          "start", "continue", "stop", "used", "use", "fail", "neglect",
                          "forget", "decline", "refuse"})
"""Verbs whose infinitive complement's truth follows from the main clause ("managed to fix",
"remembered to lock": Karttunen 1971, "Implicative verbs", *Language* 47; the negative
implicatives "failed to", "forgot to" deny it, which the rules read elsewhere)."""


def _to_infinitive(head: Token) -> bool:
    return head.tag_ == "VB" and any(c.dep_ == "aux" and c.lower_ == "to" for c in head.children)


def unrealised_infinitive(head: Token) -> bool:
    """Whether clause ``head`` is a to-infinitive that reports no deed: a clause of purpose
    (``advcl``), or a complement (``xcomp``) of a verb of wanting or planning
    (:data:`extractors.syntax._DESIRE_VERBS`) or of another unrealised infinitive. A
    complement of an implicative verb (:data:`_IMPLICATIVE`) and a finite clause are
    reports."""
    if not _to_infinitive(head):
        return False
    if head.dep_ == "advcl":
        return not any(c.dep_ == "mark" and c.lower_ not in ("in", "so") for c in head.children)
    if head.dep_ != "xcomp":
        return False
    governor = head.head
    lemma = governor.lemma_.lower()
    if lemma in _IMPLICATIVE:
        return False
    return lemma in _DESIRE_VERBS or unrealised_infinitive(governor) or (
        _to_infinitive(governor) and governor.dep_ == "xcomp"
        and governor.head.lemma_.lower() in _DESIRE_VERBS)


_CONTINGENT = frozenset({"when", "whenever", "if", "once"})


def condition_of_instruction(head: Token) -> bool:
    """Whether clause ``head`` is a "when"/"whenever"/"if" clause of an instruction
    (:func:`extractors.syntax._imperative`: "Always specify the duration when I ask about
    family gatherings")."""
    return head.dep_ == "advcl" and _imperative(head.head) and any(
        c.dep_ in ("advmod", "mark") and c.lower_ in _CONTINGENT for c in head.children)


def unrealised_clause(head: Token) -> bool:
    """Whether clause ``head`` reports no deed: :func:`unrealised_infinitive` or
    :func:`condition_of_instruction`."""
    return unrealised_infinitive(head) or condition_of_instruction(head)
