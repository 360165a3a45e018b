"""The ``subject_unconfirmed`` rule: one name a short form of the other, never string
similarity (issue 14, kind 5)."""

import random

import pytest

from scanner.core.keys import near_subject_pairs
from scanner.short_forms import (given_names, is_short_form, short_form_candidates,
                                 short_form_pairs, short_forms)


@pytest.mark.parametrize(("a", "b"), [
    ("obama", "barack obama"),  # a person's last name alone
    ("barack", "barack obama"),  # ... or first name alone
    ("sam", "sam lee"),
    ("obama", "barack hussein obama"),
    ("ibm", "international business machines"),  # an acronym
    ("boa", "bank of america"), ("ba", "bank of america"),
    ("hasbro", "hasbro, inc."),  # an organisation's name without its legal form
    ("acme corp", "acme corp."),  # one name, spelt with and without a full stop
])
def test_short_forms_are_unconfirmed(a, b):
    assert is_short_form(a, b) and is_short_form(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("basketball", "baseball"),  # edit distance is not identity
    ("ipad", "ipad pro"),  # a product's line is not the product
    ("rugby", "rugby union"),  # a compound's modifier alone
    ("football", "gaelic football"),  # ... or its head alone
    ("university of michigan", "university of cambridge"),
    ("sam", "sam"), ("bob", "robert"), ("user", "lyon"), ("", "sam"),
    ("ibm", "ibm"), ("im", "international business machines"),
    ("lee", "sam lee jones smith brown"),  # longer than a person's name
])
def test_other_pairs_are_not(a, b):
    assert not is_short_form(a, b) and not is_short_form(b, a)


def test_short_forms_of_a_person_and_an_organisation():
    assert short_forms("barack obama") == {"barack", "obama", "bo"}
    assert short_forms("hasbro, inc.") == {"hasbro"}
    assert short_forms("rugby union") == {"ru"}
    assert "barack" in given_names() and "rugby" not in given_names()


def test_candidates_equal_every_pair_compared():
    rng = random.Random(14)
    words = ["sam", "lee", "obama", "barack", "rugby", "union", "acme", "corp", "inc",
             "bank", "of", "america", "ipad", "pro", "ibm", "boa", "su", "slo"]
    names = sorted({" ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
                    for _ in range(400)} | {"hasbro, inc.", "hasbro", "acme corp."})
    brute = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))
             if is_short_form(names[i], names[j])]
    assert short_form_candidates(names) == brute and len(brute) > 50
    assert short_form_pairs(["sam lee", "sam", "rugby", "rugby union"]) == [("sam", "sam lee")]


def test_near_subject_pairs_keep_groups_apart():
    pairs = near_subject_pairs({"live in": ["sam lee", "sam", "basketball", "baseball"],
                                "work at": ["sam"]})
    assert pairs == [("live in", "sam", "sam lee")]
