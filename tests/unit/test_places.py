"""Named places written in lower case (extractors.places): a move there is where one lives."""

from __future__ import annotations

import pytest

from extractors.places import lower_case_place


@pytest.mark.parametrize(("surface", "place"), [
    ("denver", True), ("new york", True), ("leeds", True), ("canada", True), ("texas", True),
    ("Denver", False),            # a capital letter is judged by the parse, not here
    ("nice", False),              # an English adjective
    ("reading", False),           # an English verb
    ("bath", False),              # a noun naming a small place
    ("linux", False), ("vscode", False), ("management", False), ("the city", False),
])
def test_lower_case_place(extractor, surface, place):
    assert lower_case_place(surface) is place


@pytest.mark.parametrize(("sentence", "fact"), [
    ("ok so moved to denver last week", ("user", "live in", "denver", False)),
    ("i moved to new york in may", ("user", "live in", "new york", False)),
    ("moved to linux on my laptop", ("user", "move to", "linux", False)),
    ("moved to nice", ("user", "move to", "nice", False)),
    ("ok so moved to denver in march", ("user", "live in", "denver", False)),
    # (the reviewer's: a purpose, a source, a game or a device after the place, or another
    # clause before the move, makes it no home)
    ("moved to phoenix for the build pipeline", ("user", "move to", "phoenix", False)),
    ("moved to mesa from the nvidia blob", ("user", "move to", "mesa", False)),
    ("moved to madrid in fifa career mode", ("user", "move to", "madrid", False)),
    ("moved to amsterdam on my vpn", ("user", "move to", "amsterdam", False)),
    ("changed the blog font, moved to georgia", ("user", "move to", "georgia", False)),
    ("moved to denver (our new slack bot)", ("user", "move to", "denver", False)),
])
def test_a_move_to_a_lower_case_place(extractor, sentence, fact):
    assert fact in {t.fact for t in extractor.extract(sentence)}
