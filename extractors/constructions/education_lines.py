"""Education lines of a profile: where the user studies, and that those studies are over.

A profile states studies as a list of pieces under an education label, with their status in
a piece or a comment: "Education: 3rd-year dental student, University of Halden", "Education:
MA History (in progress, UCL)", "Education: currently enrolled, BSc Physics, Corvin
University" state (user, study at, institution); "Education: BDS, University of Halden
(graduated 2025)", "(completed 2025)", "(defended 2024)" state that the user graduated from
it, which ends studying there (the ``studies completed`` row of the state-change table). A
line without a status states neither; a plan ("expected 2027", "to graduate in May") is no
end. The institution is the piece that names one: a word of a school's name ("University",
"College"), else initials ("UCL"), else the one capitalised piece that is no degree and no
status; two candidates name none (a field may be capitalised: "PhD, Chemistry, Oxford").

Sources: FrameNet 1.7 Education_teaching (Student, Institution, Qualification); the status
words of a CV's education section (Quirk et al. 1985 §9.44 on verbless clauses: "graduated
2025" is a reduced clause of the person the profile is about).
"""

from __future__ import annotations

import re

from spacy.tokens import Doc

from extractors.constructions.key_values import block_person, labelled_segments
from extractors.constructions.studies import DEGREE_NOUNS, GRADUATION, STUDYING
from extractors.syntax import _KEY_VALUE, USER
from extractors.types import Triple

EDUCATION_KEYS = frozenset({"education", "school", "university", "college", "studies",
                            "degree", "study", "schooling", "academics", "uni"})
"""Profile labels whose value is one's studies."""

_IN_PROGRESS = re.compile(
    r"\b(?:in progress|ongoing|(?:currently\s+)?enrolled|current student|student|candidate"
    r"|undergrad(?:uate)?|(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|final|last)"
    r"[- ]year)\b", re.IGNORECASE)
"""A status of studies that go on: "in progress", "currently enrolled", "3rd-year student"."""

_COMPLETED = re.compile(
    r"\b(?:graduated|completed|finished|defended|conferred|awarded)\b"
    r"(?!\s+(?:in\s+)?(?:the\s+)?(?:course|module|class|shift|book))", re.IGNORECASE)
"""A status of studies that are over: "(graduated 2025)", "(completed Dec 2023)"."""

_PLANNED = re.compile(r"\b(?:expected|expect|will|to graduate|to finish|to complete|planned"
                      r"|hope[sd]?|due|by|anticipated|pending)\b", re.IGNORECASE)
"""A plan, which ends nothing: "(expected 2027)", "due to graduate in May"."""

_SCHOOL_NAME_WORDS = frozenset({"university", "college", "school", "institute", "academy",
                                "polytechnic", "conservatory", "seminary", "uni", "univ",
                                "high"})

_STUDENT_AT = re.compile(
    r"\b(?:student|candidate|undergrad(?:uate)?|pupil)\s+(?:at|of)\s+(?:the\s+)?"
    r"(?P<school>[A-Z][\w.&'\u2019-]*(?:\s+(?:of\s+)?[A-Z][\w.&'\u2019-]*){0,4})")
"""A student noun's school inside a piece: "final-year dental student at Marlow"."""

_PIECES = re.compile(r"[,;()]")


def _is_degree(piece: str) -> bool:
    first = piece.split()[0].lower().replace("'s", "").replace(".", "").replace("\u2019s", "")
    return first in DEGREE_NOUNS


def education_status(value: str) -> tuple[str, str] | None:
    """``(relation, institution)`` an education line's value states: :data:`STUDYING` for
    studies in progress, :data:`GRADUATION` for studies completed; None without a status, for
    a plan, or without one institution named."""
    if _PLANNED.search(value):
        return None
    completed = bool(_COMPLETED.search(value))
    ongoing = bool(_IN_PROGRESS.search(value))
    if completed == ongoing:
        return None
    named = _STUDENT_AT.search(value)
    if named:
        return (GRADUATION if completed else STUDYING), named["school"]
    pieces = [p.strip().rstrip(".") for p in _PIECES.split(value) if p.strip().rstrip(".")]
    names = [p for p in pieces if p[:1].isupper() and not _is_degree(p)
             and not _IN_PROGRESS.search(p) and not _COMPLETED.search(p)
             and not re.search(r"\d", p)]
    schools = [p for p in names if any(w.lower() in _SCHOOL_NAME_WORDS for w in p.split())]
    initials = [p for p in names if len(p.split()[0]) > 1 and p.split()[0].isupper()
                and p.split()[0].isalpha()]
    for found in (schools, initials, names):
        if found:
            return ((GRADUATION if completed else STUDYING), found[0]) if len(found) == 1 \
                else None
    return None


class EducationLineRules:
    """Rules of :class:`extractors.rules.TripleExtractor` for education lines (a mixin: it
    reads the extractor's ``state_changes``)."""

    def _education_lines(self, doc: Doc) -> list[Triple]:
        """The student state or the end of studies each education line states
        (:func:`education_status`), an end with the states it ends."""
        out: list[Triple] = []
        segments = labelled_segments(doc.text)
        person = block_person(segments)
        for start, line in segments:
            m = _KEY_VALUE.match(line)
            if not m or m["key"].strip().lower() not in EDUCATION_KEYS:
                continue
            status = education_status(m["value"])
            if status is None:
                continue
            relation, school = status
            words = school.split()
            if words and words[0].lower() == "the":
                words = words[1:]
            value = " ".join(w.lower() for w in words)
            if not value:
                continue
            triple = Triple(subject=person or USER, relation=relation, object=value,
                            negated=False, start=start, end=start + len(line),
                            object_text=" ".join(words), rule="key_value")
            out.append(triple)
            if relation == GRADUATION:
                out.extend(self.state_changes.derive(triple))
        return out
