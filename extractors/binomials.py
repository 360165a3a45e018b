"""Dishes named by a coordination: "fish and chips" is one dish, not fish and chips.

A fixed (irreversible) binomial names one thing (Malkiel 1959, "Studies in irreversible
binomials"; Quirk et al. 1985 §13.98 on coordinated noun phrases read as a unit): eating,
ordering or giving up "fish and chips" says nothing of fish. The table lists dishes that
WordNet 3.1 enters as one noun lemma with "and" (fish_and_chips, macaroni_and_cheese,
bread_and_butter, pork_and_beans, ham_and_eggs, bubble_and_squeak) with their usual short
forms ("mac and cheese") and the same pattern's British dishes (bangers and mash, pie and
mash). Each entry is the two nouns' lemmas in their fixed order.
"""

from __future__ import annotations

from spacy.tokens import Token

DISHES: frozenset[tuple[str, str]] = frozenset({
    ("fish", "chip"), ("fish", "chips"), ("macaroni", "cheese"), ("mac", "cheese"),
    ("bread", "butter"), ("pork", "bean"), ("pork", "beans"), ("ham", "egg"),
    ("ham", "eggs"), ("bubble", "squeak"), ("banger", "mash"), ("bangers", "mash"),
    ("pie", "mash")})
"""(first noun, second noun) lemmas of dishes named by a coordination (module sources)."""

_AND = frozenset({"and", "&", "n", "'n'", "n'"})


def one_dish(conj: Token) -> bool:
    """Whether the conjunct ``conj`` and its head make one dish ("fish and chips"): the two
    nouns' lemmas, in order, are a :data:`DISHES` entry, joined by "and" right between them."""
    head = conj.head
    if conj.dep_ != "conj" or conj.i != head.i + 2 or \
            conj.doc[head.i + 1].lower_ not in _AND:
        return False
    first = head.lemma_.lower(), head.lower_
    second = conj.lemma_.lower(), conj.lower_
    return any((a, b) in DISHES for a in first for b in second)
