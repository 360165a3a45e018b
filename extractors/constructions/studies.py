"""Studies: where a student studies, and the end of those studies.

A student state is said with a student noun (:data:`extractors.constructions.copula.
STUDENT_NOUNS`), and as often with a verb of pursuing a degree or a year of a school:
"doing a PhD in geology at Marlow University", "pursuing a master's at Tellis", "a doctoral
candidate at Vance", "in her third year of medical school at Brookfield" — each
(subject, study at, institution). Studies end with graduation (the ``studies completed`` row of
``extractors/data/state_changes.toml``), and as often with a degree completed, received or
defended there: "finished my LLB at Dunmore", "wrapped up my geography master's at Exeter",
"got my PhD from Ravel University", "defended my thesis at Leuven" — each read as "graduate
from" the institution (:func:`degree_idiom`), so the table's row ends studying there. What is
finished is a degree, never a course, a shift or a book ("finished my Spanish course at
Tellis" ends no studies), and a plan ("hopes to finish", "will graduate") ends nothing (the
clause frames of :mod:`extractors.clause_frames`).

Sources: FrameNet 1.7 Education_teaching (student, study, graduate), Activity_finish (finish,
complete, wrap up), Getting / Receiving (get, receive, earn, obtain a degree); WordNet 3.1
academic_degree.n.01 and its hyponyms (bachelor's, master's, doctorate and their
abbreviations), diploma.n.01 ("a document certifying the successful completion of a course
of study"), dissertation.n.01 ("usually a requirement for an advanced academic degree").
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Token

from extractors.clause_frames import _hypothetical
from extractors.syntax import _is_time, _negated
from extractors.types import Triple

STUDENT_NOUNS = frozenset({"student", "pupil", "undergraduate", "postgraduate", "freshman",
                           "sophomore", "fresher", "trainee", "apprentice"})
"""Nouns of a person who studies where their "at"/"of" object names (:func:`_school_of`)."""


CLASS_YEAR_NOUNS = frozenset({"junior", "senior"})
"""Student nouns only before a school's name ("a junior at Ohio State"; "a senior at Google"
is no student): :data:`SCHOOL_WORDS`."""
SCHOOL_WORDS = frozenset({"university", "college", "school", "state", "institute", "academy",
                          "polytechnic", "conservatory", "seminary"})
"""Words of a school's name ("Ohio State", "Dalton College")."""

DEGREE_NOUNS = frozenset("""
    degree diploma doctorate phd dphil md jd edd mbbs mbchb bmbs llb llm lld bachelor bachelors
    master masters ba bs bsc beng bed bfa bba bcom bsn bds dds dmd dvm bvsc pharmd bpharm bsw
    ma ms msc meng mfa mba mph mphil mres mst msn msw mcom
    studies study
    """.split())
"""Academic degrees (WordNet academic_degree.n.01: bachelor's, master's, doctor's degree and
their usual abbreviations), a diploma (diploma.n.01) and one's "studies": the things one
finishes or receives when studies end, and pursues while they last. A course, a programme,
a module or a shift is none: finishing one is not leaving a school."""

THESIS_NOUNS = frozenset({"thesis", "dissertation", "viva"})
"""What a candidate defends to complete a research degree (WordNet dissertation.n.01)."""

COMPLETION_VERBS = frozenset({"finish", "complete", "wrap up", "finish up", "get", "receive",
                              "earn", "obtain"})
"""Verbs whose degree object, with "at"/"from" an institution, says one graduated there
(FrameNet Activity_finish: finish, complete, wrap up; Getting, Receiving: get, receive, earn,
obtain)."""

_FINISHING_VERBS = COMPLETION_VERBS - {"get", "receive", "earn", "obtain"}
SCHOOLING_NOUNS = frozenset({"school", "uni", "university", "college", "schooling",
                             "education", "studies", "study"})
"""What one finishes "at" a school when studies end ("finished uni at Carrow", "completed my
education at Pinecrest"; WordNet schooling.n.01, education.n.02)."""

DEFENDING_VERBS = frozenset({"defend", "pass"})
"""Verbs of the final examination of a research degree ("defended my dissertation at X")."""

PURSUIT_VERBS = frozenset({"do", "pursue", "take"})
"""Verbs of a degree in progress ("doing a PhD at X", "pursuing a master's at X"): in the
present they state studying at the institution (FrameNet Education_teaching, the Student
studying toward a Qualification at an Institution)."""

_INSTITUTION_PREPS = frozenset({"at", "from"})
_PURSUIT_PREPS = frozenset({"toward", "towards", "on", "for"})
"""Prepositions of a degree worked toward ("working towards a law degree")."""

GRADUATION = "graduate from"
"""The predicate a completed degree at an institution is read as (the ``studies completed``
row of the state-change table ends studying there)."""
STUDYING = "study at"
"""The relation of a student state."""


def degree_idiom(base: str, obj: Token, prep: str, verb: Token) -> str | None:
    """The predicate a verb, its object noun and that noun's preposition name together when
    the object is a degree, else None: "finished my LLB at Dunmore", "got my PhD from Ravel"
    -> "graduate from"; "defended my thesis at Leuven" -> "graduate from"; "am doing a PhD at
    Marlow", "pursuing a master's at Tellis" -> "study at" (in the present only: "did my
    master's at Warwick" is over, and says nothing of its end either).

    Args:
        base: the verb's lemma with its particle ("wrap up").
        obj: the verb's direct object.
        prep: the preposition of the institution ("at", "from").
        verb: the verb.
    """
    if prep not in _INSTITUTION_PREPS:
        return None
    noun = obj.lemma_.lower().replace("'", "").replace("’", "")
    if base in _FINISHING_VERBS and noun in SCHOOLING_NOUNS and prep == "at" and not any(
            c.dep_ == "det" and c.lower_ in ("a", "an") for c in obj.children):
        # "finished uni at Carrow", "completed my schooling at Pinecrest" (not "a school")
        return STUDYING if verb.tag_ == "VBG" and _in_progress(verb) else GRADUATION
    if base in COMPLETION_VERBS and noun in DEGREE_NOUNS:
        # ("is finishing her PhD at Carrow": a degree not yet finished is studied there)
        return STUDYING if verb.tag_ == "VBG" and _in_progress(verb) else GRADUATION
    if base in DEFENDING_VERBS and noun in THESIS_NOUNS and prep == "at":
        return GRADUATION
    if base in PURSUIT_VERBS and noun in DEGREE_NOUNS - {"diploma", "study"} and prep == "at" \
            and _in_progress(verb):
        return STUDYING
    return None


def _in_progress(verb: Token) -> bool:
    """A present or progressive verb, never a past, a perfect or a modal's ("am doing",
    "pursuing", "does"; not "did", "has done", "will do")."""
    if verb.tag_ in ("VBD", "VBN"):
        return False
    auxes = [c for c in verb.children if c.dep_ == "aux"]
    if any(a.tag_ in ("MD", "VBD") or a.lemma_ == "have" for a in auxes):
        return False
    return verb.tag_ in ("VBG", "VBZ", "VBP")


YEAR_NOUNS = frozenset({"year", "semester", "term", "trimester"})
"""A period of a course of study ("in her third year of law school", "in his final semester
at Dunmore University")."""

SCHOOL_NOUNS = frozenset({"school", "college", "university", "uni", "studies", "study",
                          "degree", "phd", "doctorate", "programme", "program", "course",
                          "master", "masters", "bachelor", "bachelors", "residency"})
"""What a year is a year of when one is a student ("of law school", "of her PhD")."""

_INSTITUTION_WORDS = frozenset({"university", "college", "school", "institute", "academy",
                                "polytechnic", "conservatory", "seminary", "uni", "univ",
                                "state", "tech", "high"})
"""Words of a school's name ("Dunmore University", "Ohio State", "Ridgeway High")."""


def year_of_studies(year: Token) -> Token | None:
    """The institution of a year of studies ("in her third year of medical school at
    Brookfield", "in my final year at Dunmore University"), else None. The year is ordinal
    or final ("first", "third", "final", "last", "junior"); the institution is a proper name
    said with "at", after the year or after what it is a year of; without a school noun
    ("of law school") the name itself must be a school's ("at Dunmore University": a year
    at Google is no year of studies)."""
    if year.lemma_.lower() not in YEAR_NOUNS or not any(
            c.dep_ == "amod" and (c.tag_ == "JJ" and c.lower_ in _ORDINALS or
                                  c.lower_.endswith(("st", "nd", "rd", "th")) and
                                  c.lower_[:1].isdigit())
            for c in year.children):
        return None
    of = [p for c in year.children if c.dep_ == "prep" and c.lower_ == "of"
          for p in c.children if p.dep_ == "pobj"]
    # (a semester or a term is a school's own period: "my last semester at Temple")
    schooled = any(p.lemma_.lower() in SCHOOL_NOUNS for p in of) or \
        year.lemma_.lower() in _SCHOOL_PERIODS
    places = [p for node in [year, *of] for c in node.children
              if c.dep_ == "prep" and c.lower_ == "at"
              for p in c.children if p.dep_ == "pobj" and not _is_time(p) and (
                  p.pos_ == "PROPN" or p.pos_ == "NOUN" and p.text[:1].isupper())]
    for place in places:
        # (the name's head names a school: "Dunmore University", "the University of Oslo";
        # not "Lund University Hospital")
        if schooled or place.lower_ in _INSTITUTION_WORDS:
            return place
    # "in her final year of medical school": the school the year is of, when no name says
    # where ("of her PhD" names no school)
    return next((p for p in of if p.lemma_.lower() in _SCHOOL_HEADS and any(
        c.dep_ in ("amod", "compound") for c in p.children)), None)


def _kind_of_school(noun: Token) -> bool:
    """Whether ``noun`` names a kind of school by its field or level ("nursing school", "law
    school", "high school"), with no article ("the school choir", "a school" name no place
    one attends)."""
    return noun.lemma_.lower() in _SCHOOL_HEADS and any(
        c.dep_ in ("amod", "compound") and c.i < noun.i for c in noun.children) and not any(
        c.dep_ == "det" for c in noun.children)


_SCHOOL_PERIODS = frozenset({"semester", "term", "trimester"})
"""Periods only a school's year is divided into (a year may be a year at a job)."""
_SCHOOL_HEADS = frozenset({"school", "college", "university", "uni"})
"""Heads of a kind of school said with its field ("medical school", "nursing school")."""


_ORDINALS = frozenset("""
    first second third fourth fifth sixth seventh eighth final last penultimate junior senior
    sophomore freshman
    """.split())


PROGRAMME_NOUNS = frozenset({"program", "programme"})
"""A course of study leading to a degree, when a field names it ("the nursing programme")."""


def named_school_of(obj: Token) -> Token | None:
    """The school named before a degree or a programme of a field ("my Exeter MSc", "the
    Dunmore law degree", "the Grantham nursing programme"), else None: a capitalised first
    modifier that is no degree itself; a programme needs its field ("the Grantham nursing
    programme", never "the Couch to 5K programme")."""
    head = obj.lemma_.lower()
    if head not in DEGREE_NOUNS - {"study", "studies"} | PROGRAMME_NOUNS:
        return None
    mods = sorted((c for c in obj.children if c.dep_ == "compound" and c.i < obj.i),
                  key=lambda t: t.i)
    if not mods or not mods[0].text[:1].isupper() or mods[0].lower_ in DEGREE_NOUNS:
        return None
    if head in PROGRAMME_NOUNS and not any(m.pos_ == "NOUN" and m.text.islower()
                                           for m in mods[1:]):
        return None
    return mods[0]


class StudyRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for student states said with a
    year of studies (a mixin: it reads the extractor's helpers)."""

    def _degree_from_named_school(self, verb: Token, base: str, subject: str,
                                  neg: bool) -> list[Triple]:
        """"Finished the Grantham nursing programme", "completed my Exeter MSc" -> (user,
        graduate from, grantham): a degree finished or received, its school named before it
        (:func:`named_school_of`); "has finished nursing school" -> (user, graduate from,
        nursing school): a kind of school finished (never "a school project", "a school")."""
        if base not in COMPLETION_VERBS:
            return []
        out = []
        for obj in (c for c in verb.children if c.dep_ in ("dobj", "obj")):
            school = named_school_of(obj)
            if school is not None:
                value, surface = school.lower_, school.text
                out.append(self._make(subject, GRADUATION, value, surface, negated=neg,
                                      clause=verb, rule="svo"))
            elif base in _FINISHING_VERBS and obj.lemma_.lower() in _SCHOOL_HEADS and any(
                    c.dep_ in ("amod", "compound") for c in obj.children) and not any(
                    c.dep_ in ("det", "nummod") and c.lower_ not in ("the",)
                    for c in obj.children):
                value, surface = self._value(obj)
                if value:
                    out.append(self._make(subject, GRADUATION, value, surface, negated=neg,
                                          clause=verb, rule="svo"))
        return out

    def _degree_pursuit(self, head: Token, found: list[Triple]) -> list[Triple]:
        """"Lena is working towards a law degree at Carrow University", "working on her PhD
        at Carrow": work toward a degree is study, and its "at" names where one studies,
        never a workplace -> (lena, study at, carrow university) in place of "work at" (in
        the present only: a past pursuit states neither)."""
        if head.pos_ != "VERB" or head.lemma_.lower() != "work":
            return found
        degrees = [p for c in head.children if c.dep_ == "prep" and c.lower_ in _PURSUIT_PREPS
                   for p in c.children if p.dep_ == "pobj"
                   and p.lemma_.lower() in DEGREE_NOUNS - {"diploma", "study"}]
        if not degrees:
            return found
        schools = [s for node in [head, *degrees] for s in [_named_object(node, ("at",))]
                   if s is not None]
        if not schools:
            return found
        named = {self._value(s)[0] for s in schools}
        if not _in_progress(head):
            # ("worked towards a degree at Carrow": over, and never a workplace)
            return [t for t in found if not (t.relation == "work at" and t.object in named)]
        out = [replace(t, relation=STUDYING) if t.relation == "work at" and t.object in named
               else t for t in found]
        subj = self._subject_token(head)
        subject = self._entity(subj) if subj is not None else None
        if subject and not any(t.relation == STUDYING for t in out):
            for school in schools:
                value, surface = self._value(school)
                out.append(self._make(subject, STUDYING, value, surface,
                                      negated=_negated(head), clause=head,
                                      rule="prep_object"))
        return out

    def _year_of_studies(self, head: Token) -> list[Triple]:
        """"Amara is in her third year of medical school at Brookfield" -> (amara, study
        at, brookfield): a copula whose "in" phrase is a year of studies
        (:func:`year_of_studies`); a present, affirmed copula only ("was in her final year"
        is over)."""
        if head.lemma_ != "be" or head.tag_ in ("VBD", "VBN") or _negated(head) or any(
                c.dep_ == "aux" and c.tag_ in ("MD", "VBD") for c in head.children) \
                or _hypothetical(head):
            return []
        subj = self._subject_token(head)
        subject = self._entity(subj) if subj is not None else None
        if not subject:
            return []
        out = []
        for year in (p for c in head.children if c.dep_ == "prep" and c.lower_ == "in"
                     for p in c.children if p.dep_ == "pobj"):
            # "I'm in nursing school": a kind of school one is in is the school one attends
            place = year if _kind_of_school(year) else year_of_studies(year)
            if place is not None:
                value, surface = self._value(place)
                if value:
                    out.append(self._make(subject, STUDYING, value, surface, negated=False,
                                          clause=head, rule="copula"))
        return out


def _named_object(noun: Token, preps: tuple[str, ...]) -> Token | None:
    """The proper name a noun's "at"/"of" phrase names ("a student at Dalton College"; a
    capitalised word the tagger took for a common noun: "at Lund"), else None."""
    return next((p for c in noun.children if c.dep_ == "prep" and c.lower_ in preps
                 for p in c.children if p.dep_ == "pobj" and (
                     p.pos_ == "PROPN" or p.pos_ == "NOUN" and p.text[:1].isupper())), None)


def _school_named(noun: Token) -> Token | None:
    """The school a student noun's "at"/"of" phrase names, or its field's ("a PhD candidate
    in botany at Lund": the parser hangs the school on the field)."""
    school = _named_object(noun, ("at", "of"))
    if school is None:
        school = next((s for c in noun.children if c.dep_ == "prep" and c.lower_ == "in"
                       for f in c.children if f.dep_ == "pobj"
                       for s in [_named_object(f, ("at",))] if s is not None), None)
    return school


def _school_of(noun: Token) -> Token | None:
    """The named school of a student noun ("a student at the University of Bergen", "a
    third-year student of Dalton College", "a junior at Ohio State"), else None."""
    lemma = noun.lemma_.lower()
    if lemma == "candidate" and any(c.dep_ in ("compound", "amod", "poss") and c.lemma_.lower()
                                    in DEGREE_NOUNS | {"doctoral"} for c in noun.children):
        return _school_named(noun)  # "a PhD / doctoral candidate at Vance"
    if lemma not in STUDENT_NOUNS | CLASS_YEAR_NOUNS:
        return None
    school = _school_named(noun)
    if school is not None and lemma in CLASS_YEAR_NOUNS and not any(
            t.lower_ in SCHOOL_WORDS for t in school.subtree) and not (
                school.lower_ == "high" and school.text[:1].isupper() and any(
                    c.dep_ == "compound" for c in school.children)):
        # ("Pacifica High": a name's clipped "High School", Merriam-Webster high n. 2b)
        return None
    return school
