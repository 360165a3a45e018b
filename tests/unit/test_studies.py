"""Studies (extractors.constructions.studies): student states said with a degree pursued, a
year of studies or a degree candidacy, and their end said with a degree finished, received or
defended, or with being done at the school; an institution named with one of its schools."""

from __future__ import annotations

import pytest

from extractors.referents import same_institution, same_referent
from tests.unit.test_state_changes import LATER_WINS, outcome

U = "user"


@pytest.mark.parametrize(("sentence", "fact"), [
    # a degree pursued in the present, a year of studies, a degree candidacy
    ("Doing a master's in geology at Marlow University.", (U, "study at", "marlow university")),
    ("I'm pursuing a doctorate at Ravel University.", (U, "study at", "ravel university")),
    ("Nadia is doing her MSc at Halden.", ("nadia", "study at", "halden")),
    ("Amara is in her third year of dental school at Brookfield.",
     ("amara", "study at", "brookfield")),
    ("Tomas is in his final year at Dunmore University.", ("tomas", "study at",
                                                           "dunmore university")),
    ("The user is a doctoral candidate at Vance University.", (U, "study at",
                                                               "vance university")),
    ("Oskar is a PhD candidate in botany at Lund.", ("oskar", "study at", "lund")),
    ("Sven is in his final year of law school at Lund.", ("sven", "study at", "lund")),
    # the kind of school a year is of, when no name says where; a school's own period
    ("Ines is in her final year of nursing school.", ("ines", "study at", "nursing school")),
    ("I'm in my last semester at Corvin.", (U, "study at", "corvin")),
    ("I'm in veterinary school.", (U, "study at", "veterinary school")),
    # work toward a degree, a degree being finished: study, never a workplace
    ("Lena is working towards a law degree at Carrow University.",
     ("lena", "study at", "carrow university")),
    ("Lena is working on her PhD at Carrow University.", ("lena", "study at", "carrow university")),
    ("I'm finishing my degree at Carrow.", (U, "study at", "carrow")),
    # a present "-s" verb before a school's capitalised name; the class one leaves with
    ("Attends Pinecrest Academy, class of 2028.", (U, "attend", "pinecrest academy")),
    # an acronym the tagger reads as a common noun is still a named school
    ("Studying pharmacy at UCSD", (U, "study at", "ucsd")),
])
def test_student_states(extractor, sentence, fact):
    facts = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if not t.negated}
    assert fact in facts


@pytest.mark.parametrize(("sentence", "unwanted"), [
    # a past degree, a plan, a year of a job, a class of a year
    ("I did my master's at Warwick.", (U, "study at", "warwick")),
    ("I hope to do a PhD at Ravel University.", (U, "study at", "ravel university")),
    ("Tomas is in his second year at Google.", ("tomas", "study at", "google")),
    ("I'm in the final year of my mortgage.", (U, "study at", "mortgage")),
    ("I was in veterinary school in 2015.", (U, "study at", "veterinary school")),
    ("She's in the school choir.", ("she", "study at", "school choir")),
    ("I'm in the final year of my PhD.", (U, "study at", "phd")),
    ("Sven is in his second year at Lund University Hospital.",
     ("sven", "study at", "lund university hospital")),
    ("Tomas was in his final year of law school at Dunmore.", ("tomas", "study at", "dunmore")),
    ("Attends Pinecrest Academy, class of 2028.", (U, "attend", "class")),
    ("Oskar is a candidate for mayor of Lund.", ("oskar", "study at", "lund")),
    ("Lena is working towards a law degree at Carrow University.",
     ("lena", "work at", "carrow university")),
    ("Lena worked on her PhD at Carrow University.", ("lena", "study at", "carrow university")),
])
def test_no_student_state(extractor, sentence, unwanted):
    facts = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if not t.negated}
    assert unwanted not in facts


@pytest.mark.parametrize(("sentence", "ended"), [
    ("Rosa finished her architecture degree at Delft in 2024.", ("rosa", "study at", "delft")),
    ("I wrapped up my geology master's at Exeter in July.", (U, "study at", "exeter")),
    ("Got my BSc from Halden University last spring.", (U, "study at", "halden university")),
    ("Ines earned her doctorate from Lund in 2021.", ("ines", "study at", "lund")),
    ("I defended my dissertation at Leuven last week.", (U, "study at", "leuven")),
    ("The user defended their thesis at Vance and has started a job in Oslo.",
     (U, "study at", "vance")),
    ("Finished the Grantham nursing programme; working as a nurse now.",
     (U, "study at", "grantham")),
    ("I completed my Exeter MSc.", (U, "study at", "exeter")),
    ("Finished uni at Carrow last year.", (U, "study at", "carrow")),
    ("I completed my schooling at Pinecrest Academy.", (U, "study at", "pinecrest academy")),
    ("Finally done at Marlow as of last week.", (U, "study at", "marlow")),
    ("I passed my viva in May, so I'm finally done at Leuven.", (U, "study at", "leuven")),
    ("Completed my PhD in geology; now a lecturer.", (U, "pursue", "phd")),
])
def test_end_of_studies(extractor, sentence, ended):
    facts = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if t.negated}
    assert ended in facts


@pytest.mark.parametrize(("sentence", "unwanted"), [
    # a course, a shift or a book finished at a school, a plan, a place of no degree
    ("I finished my Spanish course at Tellis University.", (U, "attend", "tellis university")),
    ("I finished my Spanish course at Tellis University.", (U, "study at", "tellis university")),
    ("I finished my shift at the Marlow hospital.", (U, "go to", "marlow hospital")),
    ("Nina finished reading a book at the Halden library.", ("nina", "go to", "halden library")),
    ("I will finish my PhD at Ravel next year.", (U, "study at", "ravel")),
    ("I hope to finish my PhD at Ravel next year.", (U, "study at", "ravel")),
    ("I'm done at the gym for today.", (U, "study at", "gym")),
    ("I'm almost done at Tellis.", (U, "study at", "tellis")),
    ("I'm finishing my degree at Carrow.", (U, "study at", "carrow")),
    ("Finished the Couch to 5K programme.", (U, "study at", "couch")),
    ("Finished a school project at Carrow.", (U, "study at", "carrow")),
    ("I finished school at 3pm.", (U, "study at", "15:00")),
])
def test_no_end_of_studies(extractor, sentence, unwanted):
    ended = {(t.subject, t.relation, t.object) for t in extractor.extract(sentence)
             if t.negated}
    assert unwanted not in ended


@pytest.mark.parametrize(("ended", "stated", "same"), [
    ("westbrook law", "westbrook", True),
    ("ucsd pharmacy", "ucsd", True),
    ("brookfield medical school", "brookfield university", True),
    ("ridgeway high", "ridgeway high school", True),
    ("corvin", "corvin uni", True),
    ("ohio state", "ohio state university", True),
    # another school of the institution, another institution
    ("westbrook law", "westbrook medical school", False),
    ("harvard law school", "harvard college", False),
    ("boston college", "boston university", False),
    ("law", "law school", False),
    ("art", "art academy", False),
])
def test_an_institution_named_with_its_school(ended, stated, same):
    assert same_institution(ended, stated) is same
    assert same_referent(ended, stated) is same


@pytest.mark.parametrize(("old", "new"), [
    ("Amara is in her third year of dental school at Brookfield.",
     "Amara graduated from Brookfield Dental and opened a practice."),
    ("Studying pharmacy at UCSD", "Graduated from UCSD pharmacy; now at a clinic."),
    ("Goes to Ridgeway High School.", "Graduated from Ridgeway High last spring."),
    ("Sven is in his final year of law school at Lund", "Sven graduated from Lund Law in June."),
    ("Lena is working towards a law degree at Carrow University.",
     "Lena graduated from Carrow Law in May."),
    ("- Education: final-year dental student at Marlow",
     "- Education: finished my BDS at Marlow in 2024; now a dentist"),
    ("Doing a PhD in geology at Marlow University.", "Finished my PhD at Marlow in 2025."),
    ("Doing a PhD in geology at Marlow University.", "Completed my PhD in geology; now a lecturer."),
    ("currently doing my masters at Tellis Univ", "I'm all done at Tellis as of last week."),
    ("The user is a PhD candidate in history at Vance University.",
     "The user defended their dissertation at Vance in May."),
    ("I'm a doctoral student at EPFL Lausanne.", "I passed my viva in May and I'm done at EPFL."),
    ("Rosa is studying architecture at Delft.", "Rosa finished her architecture degree at Delft."),
    ("I'm pursuing a PhD in botany at Ravel University.",
     "I got my PhD from Ravel University in March."),
    ("Attends Pinecrest Academy, class of 2028.", "Graduated from Pinecrest in June."),
    ("Studying nursing at Ashgrove College.", "Finished the Ashgrove nursing programme."),
    ("I'm a first-year student at Corvin Uni.", "graduated from corvin in june, so happy"),
    ("Ines is in her final year of nursing school.", "Ines graduated from nursing school in June."),
    ("I'm in my last semester at Corvin.", "I graduated from Corvin last week."),
    ("I'm in veterinary school.", "I finished veterinary school last month."),
    ("The user is in their final year of veterinary school.",
     "The user has finished veterinary school."),
])
def test_an_end_of_studies_ends_the_student_state(engine, old, new):
    assert outcome(engine, old, new) == LATER_WINS


@pytest.mark.parametrize(("old", "new"), [
    ("I'm a PhD student at Marlow University.", "I finished my shift at the Marlow hospital."),
    ("I'm a student at Tellis University.", "I finished my Spanish course at Tellis University."),
    ("I attend Tellis University.", "I finished my Spanish course at Tellis University."),
    ("I'm a PhD student at Ravel University.", "I completed my master's at Doran University."),
    ("I'm a PhD student at Ravel University.", "I will graduate from Ravel University in May."),
    ("I'm a PhD student at Ravel University.", "I hope to finish my PhD at Ravel next year."),
    ("I'm a student at Lenox College.", "I'm done at the gym for today."),
    ("Studying nursing at Ridgeway University.", "Graduated from Ridgeway High School in 2019."),
    ("I'm a student at Boston University.", "I finished my degree at Boston College."),
    ("Studying law at Westbrook Medical School.", "Graduated from Westbrook Law in 2020."),
    ("I'm a PhD student at Ravel University.", "My sister graduated from Ravel University."),
    ("Rosa is pursuing a PhD at Delft.", "Rosa did her master's at Delft."),
    ("I'm a student at Ravel University.", "I'm done at Ravel for the summer."),
    ("I'm a student at Ravel University.", "I didn't finish my degree at Ravel."),
    ("I teach at Ravel University.", "I got my PhD from Ravel University years ago."),
    ("Works at Halden Medical Center.", "Graduated from Halden Medical School in 2012."),
    ("Priya studies at Ravel University.", "Priya's brother finished his MBA at Ravel University."),
    ("Ines is in her final year of nursing school.", "Ines finished a nursing school placement."),
    ("I'm in my last semester at Corvin.", "My sister graduated from Corvin."),
])
def test_no_end_of_these_studies(engine, old, new):
    decided = [o for o in outcome(engine, old, new) if o[1] != "possible"]
    assert decided == []


@pytest.mark.parametrize(("line", "fact"), [
    # an education line's status says studies go on, or are over, at the school it names
    ("Education: 2nd-year dental student, University of Halden",
     (U, "study at", "university of halden", False)),
    ("Education: currently enrolled, BA History, University of Oslo",
     (U, "study at", "university of oslo", False)),
    ("Education: MA History (in progress, UCL)", (U, "study at", "ucl", False)),
    ("Education: PhD candidate, geology, EPFL Lausanne", (U, "study at", "epfl lausanne", False)),
    ("- Education: final-year dental student at Marlow", (U, "study at", "marlow", False)),
    ("Name: Ola Berg. Education: MSc Geology (in progress, Halden University)",
     ("ola berg", "study at", "halden university", False)),
    ("Education: BDS, Marlow (graduated 2024)", (U, "study at", "marlow", True)),
    ("Education: PhD in geology, EPFL Lausanne (defended 2024)",
     (U, "study at", "epfl lausanne", True)),
    ("Education: BSc Physics, Corvin University (completed 2025)",
     (U, "study at", "corvin university", True)),
    # an education label's value that is a subject-less clause is the user's
    ("- Education: finished my BDS at Marlow in 2024; now a dentist",
     (U, "study at", "marlow", True)),
    ("Education: studying law at Carrow", (U, "study at", "carrow", False)),
])
def test_education_lines(extractor, line, fact):
    facts = {(t.subject, t.relation, t.object, t.negated) for t in extractor.extract(line)}
    assert fact in facts


@pytest.mark.parametrize("line", [
    "Education: BSc Physics, Corvin University",                  # no status
    "Education: BSc Physics, Corvin University (expected 2026)",  # a plan
    "Education: PhD, Chemistry, Oxford (defended 2020)",          # two names: a field or a school
    "Education: BDS (graduated 2024)",                            # no school
])
def test_no_education_status(extractor, line):
    assert not any(t.relation == "study at" for t in extractor.extract(line))


@pytest.mark.parametrize(("old", "new", "ends"), [
    ("Education: MA History (in progress, UCL)", "Education: MA History, UCL (graduated 2026)",
     True),
    ("Education: currently enrolled, BA History, University of Oslo",
     "Education: BA History, University of Oslo (graduated Jan 2024)", True),
    ("- Education: final-year dental student at Marlow", "- Education: BDS, Marlow (graduated 2024)",
     True),
    ("Education: MA History (in progress, UCL)", "Education: MA History, UCL (expected 2026)",
     False),
    ("Education: MA History (in progress, UCL)", "I graduated from Leeds in 2019.", False),
])
def test_education_line_changes(engine, old, new, ends):
    decided = [o for o in outcome(engine, old, new) if o[1] != "possible"]
    assert decided == (LATER_WINS if ends else [])
