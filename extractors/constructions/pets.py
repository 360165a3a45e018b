"""Pets named beside their noun ("my dog Biscuit"): which name a possessed animal has."""

from __future__ import annotations

from spacy.tokens import Token

from extractors.relations import HYPERNYMS
from extractors.times import _is_time


BREED_NOUNS = frozenset(k for k, v in HYPERNYMS.items() if v in ("dog", "cat"))
"""Kinds of dog and cat (WordNet hyponyms of dog.n.01, cat.n.01): animals whatever else is
said, so "my beagle" presupposes an owner's pet as "my dog" does."""

PET_NOUNS = frozenset("""
    dog cat puppy pup kitten horse pony rabbit bunny hamster guinea-pig parrot budgie bird
    canary cockatiel fish goldfish turtle tortoise snake lizard gecko ferret rat mouse chicken
    hen goat
    """.split()) | BREED_NOUNS
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


_NOT_NAMES = frozenset("""
    oh ah aw ugh alas well yes no sadly unfortunately then so and but now also finally
    """.split())
"""Words that open a clause before "the <noun>" and name nothing ("Oh, the cat died")."""


_ELSEWHERE_PREPOSITIONS = frozenset({"from", "in", "on", "of"})
"""Prepositions of a postmodifier that places a named animal in another setting ("the dog from
the film", "the cat in the book", "the horse on the show")."""


def _placed_elsewhere(noun: Token, name: Token) -> bool:
    """Whether "<name> the <noun>" goes on with a prepositional postmodifier that identifies
    the animal by another setting ("Rex the dog from the cartoon", "Tom the cat in the
    comic"): a restrictive postmodifier picks the referent out there (Quirk et al. 1985,
    §17.8, §17.37), so it is that setting's animal, not the speaker's pet."""
    holders = (noun, name) if noun.head == name else (noun,)
    return any(c.dep_ == "prep" and c.lower_ in _ELSEWHERE_PREPOSITIONS and c.i > noun.i
               for h in holders for c in h.children)


def named_before(noun: Token | None) -> Token | None:
    """The name of a pet said before "the" and its noun ("Juniper the cat", "Sadly, Bo the
    beagle died"): a full appositive of a proper name and a definite noun phrase of the same
    referent (Quirk et al. 1985, §17.65 ff.), which the small parser attaches to the verb
    (npadvmod, advmod, intj, dep) rather than to the noun, or reads as a verb with the noun
    its object. None unless ``noun`` is a :data:`PET_NOUNS` noun right after "the" and right
    after a capitalised word that is no time word nor interjection."""
    if noun is None or noun.pos_ != "NOUN" or noun.lemma_.lower() not in PET_NOUNS:
        return None
    if noun.i < 2 or noun.nbor(-1).lower_ != "the" or noun.nbor(-1).head != noun:
        return None
    name = noun.nbor(-2)
    if not name.text[:1].isupper() or name.lower_ in _NOT_NAMES or _is_time(name):
        return None
    if _placed_elsewhere(noun, name):
        return None
    if noun.head == name and (noun.dep_ == "appos" or noun.dep_ == "dobj" and name.dep_ in (
            "nsubj", "nsubjpass")):
        # "Pebble the tortoise", parsed as written; "Noodle the corgi", the name read as a
        # verb whose object is the noun
        return name
    if name.pos_ not in ("PROPN", "NOUN", "INTJ", "X"):
        return None
    if any(name.children):
        return None
    if name.head not in (noun, noun.head) or name.dep_ not in (
            "npadvmod", "advmod", "intj", "dep", "nsubj", "compound", "appos", "nmod"):
        return None
    return name
