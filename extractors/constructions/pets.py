"""Pets named beside their noun ("my dog Biscuit"): which name a possessed animal has."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.relations import HYPERNYMS


PET_NOUNS = frozenset("""
    dog cat puppy pup kitten horse pony rabbit bunny hamster guinea-pig parrot budgie bird
    canary cockatiel fish goldfish turtle tortoise snake lizard gecko ferret rat mouse chicken
    hen goat
    """.split()) | frozenset(k for k, v in HYPERNYMS.items() if v in ("dog", "cat"))
"""Animals kept as pets, which their owners name ("my dog Biscuit"); a person named beside a
kinship or social noun ("my friend Sultan") is left out, as one name may be a pet's and a
person's."""


def _own_name(noun: Token | None) -> Token | None:
    """The proper name a possessed pet is given beside it ("my dog Biscuit", "Beatriz's cat
    Sultan": an appositive, or a name the parser made a second subject right after it);
    None for any other noun (:data:`PET_NOUNS`)."""
    if noun is None or noun.pos_ != "NOUN" or noun.lemma_.lower() not in PET_NOUNS or not any(
            c.dep_ == "poss" for c in noun.children):
        return None
    for c in noun.children:
        if c.dep_ == "appos" and c.pos_ == "PROPN" and c.i == noun.i + 1 and not any(
                c.children):
            return c
    nxt = noun.nbor(1) if noun.i + 1 < len(noun.doc) else None
    if nxt is not None and nxt.pos_ == "PROPN" and nxt.dep_ == "nsubj" and \
            nxt.head == noun.head and not any(nxt.children):
        return nxt
    return None
