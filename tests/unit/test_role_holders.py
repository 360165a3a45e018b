"""Role and setting copulas written every way a memory writer writes them: "The ROLE for X is
Y" (the tagger's verb "lead" after a singular noun repaired), "X's ROLE is now Y" (a genitive
hung on the compound modifier), "Y is the ROLE" (the equative read backwards), "the new ROLE"
(a change, the same role), and a role taken over for a spell (no holding from now on). Pairs
are scanned as two memories of one user, the later a day after the earlier."""

import pytest

from tests.unit.test_state_changes import pair_tables

U = "user"

REPLACED = [
    ("The squad lead for Project Osprey is Maelle.",
     "Project Osprey's squad lead is now Tiberius; Maelle joined the data team."),
    ("The design lead for the kiosk app is Ferdi.", "The kiosk app's design lead is now Ines."),
    ("The tech lead on Bramble is Yusuf.", "Bramble's tech lead is now Oona."),
    ("The duty nurse tonight is Keziah.",
     "Keziah swapped her shift; Bartek is the duty nurse tonight now."),
    ("The support engineer on rotation is Halvard.", "Svea is the support engineer on rotation."),
    ("The release manager for v4 is Amara.", "Jun is the release manager for v4 now."),
    ("The user's product owner is Mirela Costa.",
     "Mirela Costa moved on; the user's new product owner is Idris Bello."),
]
"""The later memory names another holder of the same role: resolved for the later."""

KEPT = [
    # another owner's role, or another time's holder
    ("The squad lead for Project Osprey is Maelle.", "Project Wren's squad lead is now Tiberius."),
    ("The duty nurse tonight is Keziah.", "Bartek is the duty nurse tomorrow."),
    # a description, no role: an indefinite, an adjective, a superlative, a clause
    ("The release manager for v4 is Amara.", "Jun is a release manager."),
    ("The support engineer is Halvard.", "Svea is the best support engineer."),
    ("The support engineer is Halvard.", "Svea is the support engineer who knows Rust."),
    ("The support engineer is Halvard.", "She is the support engineer."),
    # a role taken over for a spell, or later
    ("The duty manager is Pilar.", "Anselm has taken over as duty manager this week."),
    ("The duty manager is Pilar.", "Anselm is taking over as duty manager next month."),
    ("The duty manager is Pilar.", "Anselm has taken over as duty manager while Pilar is away."),
]
"""Look-alikes: nothing decided."""

test_role_holder_resolves, test_look_alike_decides_nothing = pair_tables(REPLACED, KEPT)


@pytest.mark.parametrize(("sentence", "fact"), [
    ("The squad lead for Project Osprey is Maelle.",
     ("project osprey", "squad lead", "maelle")),
    ("The tech lead for the kiosk app is Ferdi.", ("kiosk app", "tech lead", "ferdi")),
    ("The design lead on Bramble is Yusuf.", ("bramble", "design lead", "yusuf")),
    ("Project Osprey's squad lead is now Tiberius.", ("project osprey", "squad lead", "tiberius")),
    ("Svea is the support engineer this week.", (U, "support engineer", "svea")),
    ("Svea is the support engineer on rotation.", ("rotation", "support engineer", "svea")),
    ("Jun is the release manager for v4.", ("v4", "release manager", "jun")),
    ("The user's new product owner is Idris Bello.", (U, "product owner", "idris bello")),
])
def test_role_triples(extractor, sentence, fact):
    found = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if not t.negated}
    assert fact in found, sorted(found)


@pytest.mark.parametrize("sentence", [
    "Svea is the best engineer.",
    "Svea is a support engineer.",
    "Svea is the new support engineer.",
    "Svea is the support engineer who knows Rust.",
    "The kids play in the park and it is fun.",
    "The dogs run for an hour, which is great.",
])
def test_no_role_holder(extractor, sentence):
    found = [t for t in extractor.extract(sentence) if t.rule == "attribute"]
    assert found == [], found


@pytest.mark.parametrize(("sentence", "time"), [
    ("Anselm has taken over as duty manager this week.", "when this week"),
    ("Anselm is taking over as duty manager next month.", "future next month"),
    ("Anselm took over as duty manager.", None),
    ("Anselm took over as duty manager yesterday.", None),
])
def test_role_taken_for_a_spell(extractor, sentence, time):
    found = [t for t in extractor.extract(sentence) if t.relation == "duty manager"]
    assert found and all((t.qualifier("time") if t.qualifiers else None) == time
                         for t in found), found
