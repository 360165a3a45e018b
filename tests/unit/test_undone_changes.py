"""A change undone in the same sentence ends nothing (extractors.reversals): a restoring verb
("but was renewed") or a "back" of return ("and back again", "back since 2021") after the
ending leaves the earlier state standing; an ending with no reversal, a negated one, or a
"back" of the remote past is still decided."""

import pytest

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Priya is a member of the Larchmont Chess Club.",
     "Priya's Larchmont Chess Club membership lapsed last spring."),
    ("I sing in the Elmfield choir.", "I left the Elmfield choir in 2019."),
    ("Uses Evernote for recipes", "Moved all my recipes from Evernote to Bear"),
]
"""Endings not undone: the later memory wins."""

SAME = [
    ("Priya is a member of the Larchmont Chess Club.",
     "Priya's Larchmont Chess Club membership briefly lapsed but was renewed in May."),
    ("Priya is a member of the Larchmont Chess Club.",
     "Priya's Larchmont Chess Club membership lapsed but she renewed it in May."),
    ("I sing in the Elmfield choir.",
     "I left the Elmfield choir in 2019 but have been back since 2021."),
    ("Uses Evernote for recipes", "Moved all my recipes from Evernote to Bear and back again"),
]
"""Endings undone later in the same sentence: nothing is decided."""

test_later_memory_resolves, test_look_alike_decides_nothing = pair_tables(RESOLVED, SAME)


@pytest.mark.parametrize(("sentence", "undone"), [
    ("I quit the book club in March but rejoined in June.", True),
    ("I cancelled my newspaper subscription and then reactivated it.", True),
    ("I moved out of Bristol in 2018 and back in 2020.", False),   # "back in": a time
    ("I quit the book club in March and never rejoined.", False),
    ("I quit the book club in March and went back to reading alone.", False),
    ("I quit the book club in March.", False),
])
def test_reversal_in_the_sentence(extractor, sentence, undone):
    from extractors.reversals import undone_later
    doc = extractor.nlp(sentence)
    verb = next(t for t in doc if t.dep_ == "ROOT")
    assert undone_later(verb) is undone
