"""An employer named with the head noun of one of its sites ("works at the Harbour Mills
depot"), then quit by its name alone ("quit Harbour Mills"): the quitting ends the work there
(:func:`scanner.core.named_referents.workplace_of`, qualifier ``quit`` of
:mod:`extractors.constructions.changes`). Pairs are two memories of one user."""

import pytest

from scanner.core.named_referents import workplace_of
from tests.unit.test_state_changes import pair_tables

U = "user"

QUIT = [
    ("I work at the Harbour Mills depot.", "I quit Harbour Mills."),
    ("I work at the Harbour Mills depot.", "I quit Harbour Mills last month."),
    ("Works at the Corvid Logistics warehouse.", "Has quit Corvid Logistics."),
    ("Dana works at the Bellwether Paints factory.", "Dana resigned from Bellwether Paints."),
    ("I work at the Larkspur Books store.", "I resigned from Larkspur Books in June."),
]
"""The later quitting ends the work at the firm's site."""

NOT_QUIT = [
    # another firm's site of the same kind
    ("I work at the Harbour Mills depot.", "I quit Corvid Logistics."),
    ("I work at the Aldi warehouse.", "I quit Harbour Mills."),
    # the name followed by no workplace noun, or by more of a name
    ("I work at the Harbour Mills choir.", "I quit Harbour Mills."),
    ("I work at Harbour Mills Bank.", "I quit Harbour Mills."),
    # "leave" is also leaving a place ("left Leeds"): no quitting of a firm
    ("I work at the Harbour Mills depot.", "I left Harbour Mills last week."),
    # a plan, a question, someone else
    ("I work at the Harbour Mills depot.", "I might quit Harbour Mills."),
    ("I work at the Harbour Mills depot.", "Should I quit Harbour Mills?"),
    ("I work at the Harbour Mills depot.", "My brother quit Harbour Mills."),
    # a common noun is no firm's name: quitting a habit
    ("I work at the bagel shop.", "I quit bagels."),
]
"""Look-alikes: nothing decided."""

test_quitting_ends_site, test_look_alike_decides_nothing = pair_tables(QUIT, NOT_QUIT)


@pytest.mark.parametrize(("sentence", "fact", "quit"), [
    ("I quit Harbour Mills.", (U, "work at", "harbour mills", True), "quit"),
    ("Dana resigned from Bellwether Paints.", ("dana", "work at", "bellwether paints", True),
     "resign"),
    ("I left Harbour Mills.", (U, "work at", "harbour mills", True), None),
    ("I work at the Harbour Mills depot.", (U, "work at", "harbour mills depot", False), None),
])
def test_quitting_is_marked(extractor, sentence, fact, quit):
    found = [t for t in extractor.extract(sentence)
             if (t.subject, t.relation, t.object, t.negated) == fact]
    assert found and found[0].qualifier("quit") == quit


@pytest.mark.parametrize(("name", "stated", "same"), [
    ("harbour mills", "harbour mills depot", True),
    ("brightline", "brightline call center", True),
    ("harbour mills", "aldi depot", False),
    ("harbour mills", "harbour mills", False),  # (equal objects meet without it)
    ("harbour mills", "harbour mills bank", False),
    ("harbour mills", "harbour mills north london depot", False),
])
def test_workplace_of(name, stated, same):
    assert workplace_of(name, stated) is same
