"""Offsets in an edited text mapped back to the text it was made from.

A text is edited before the parse: chat forms spelt out (:mod:`extractors.chat_forms`),
apostrophes put back (:mod:`extractors.orthography`), a subject-less fact read in the first
person or a label left out (:mod:`extractors.reading`). A triple's ``start`` and ``end`` are
offsets in the text parsed; :class:`Edits` records the replacements one such edit made and
maps offsets back through it, and :func:`offsets_back` undoes several edits made one after
another. An insertion is the replacement of an empty span, a deletion a replacement by
nothing, so one mapping serves them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from extractors.types import Triple

__all__ = ["Edits", "NO_EDITS", "offsets_back"]


@dataclass(frozen=True, slots=True)
class Edits:
    """The replacements one edit made to a text, and the way back from the edited text.

    Attributes:
        spans: ``(start, end, length)`` of each replacement, in text order and not
            overlapping, in characters of the text *before* the edit: ``text[start:end]`` was
            replaced by ``length`` characters (``start == end``: an insertion; ``length ==
            0``: a deletion). A replacement of the same length may be left out: the offsets
            inside it then map one to one.
    """

    spans: tuple[tuple[int, int, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spans)

    def back(self, offset: int, is_end: bool = False) -> int:
        """``offset`` in the edited text mapped to the text before the edit (characters).

        Past a replacement an offset moves by its change of length. Inside the replacing
        characters, a start maps to the replaced span's start and an end to its end; at the
        point of an insertion or a deletion a start maps past it and an end before it, so a
        span never takes in an insertion's neighbour ("in" of "I'm in" keeps its place).
        """
        moved = 0  # characters added so far (negative: removed)
        for start, end, length in self.spans:
            new_start = start + moved
            new_end = new_start + length
            if offset <= new_start if is_end else offset < new_end:
                if not is_end and offset > new_start:
                    return start  # a start inside the replacing characters
                break
            if offset < new_end:
                return end  # an end inside the replacing characters
            moved += length - (end - start)
        return offset - moved

    def triples_back(self, triples: list[Triple]) -> list[Triple]:
        """``triples`` with their ``start``/``end`` offsets in the edited text mapped to the
        text before the edit (:meth:`back`); the same list when there were no edits."""
        if not self.spans:
            return triples
        return [Triple(**{**t.to_dict(), "start": self.back(t.start),
                          "end": self.back(t.end, True), "qualifiers": t.qualifiers})
                for t in triples]


NO_EDITS = Edits()
"""The edits of a text left as it was."""


def offsets_back(triples: list[Triple], edits: Iterable[Edits]) -> list[Triple]:
    """``triples`` with offsets in a text edited several times mapped to the text as first
    written: ``edits`` in the order they were made (each on the text the one before made),
    undone last to first."""
    for layer in reversed(list(edits)):
        triples = layer.triples_back(triples)
    return triples
