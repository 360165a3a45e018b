"""Ending lessons, classes or a course ends being taught and learning through them, never
doing what was taught (:data:`extractors.state_changes.INSTRUCTION_NOUNS`): the newcomer's
look-alikes, in other words. Pairs are scanned as two memories of one user, a day apart."""

from tests.unit.test_state_changes import pair_tables

RESOLVED = [
    ("Inge takes violin lessons on Thursdays.", "Inge quit her violin lessons."),
    ("I'm learning Portuguese.", "I dropped my Portuguese classes."),
    ("Bram is enrolled in a welding course.", "Bram dropped out of the welding course."),
    ("I go to a weekly yoga class.", "I gave up yoga."),
]
"""The lessons themselves, or learning through them, end: the later memory wins."""

LOOK_ALIKES = [
    ("I play the cello.", "I stopped my cello lessons, I practise on my own now."),
    ("Inge plays squash.", "Inge quit her squash lessons but still plays with her brother."),
    ("I swim.", "I quit swimming lessons."),
    ("Bram does judo.", "Bram cancelled his judo classes."),
]
"""Doing what was taught goes on: nothing decided."""

test_lessons_end, test_the_skill_stays = pair_tables(RESOLVED, LOOK_ALIKES)
