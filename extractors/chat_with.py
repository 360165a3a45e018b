"""A bare "w" for "with" in chat, read before the parse.

Chat writes "with" as "w/" (Wiktionary, "w/": abbreviation of *with*; spelt out by
:mod:`extractors.chat_forms`) and, dropping the slash, as a bare "w" ("broke up w sam", "moved
in w my sister"). A lone letter is read so only where a preposition must stand: in lower case,
right after a verb or an adverb particle (Quirk et al. 1985 §16.2-16.3: "move in", "hang
out") and before the opening of a noun phrase. Elsewhere it stays a letter: "W Hotel", "Route
W", "the w key", "press w to jump", "w is my favourite letter".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from extractors.offsets import NO_EDITS, Edits

__all__ = ["bare_with_read"]

_BARE_W = re.compile(r"(?<=[a-z] )w(?= [A-Za-z])")
"""A lower-case "w" alone between two words (not "w/", "w.", "W")."""
_WORD_BEFORE = re.compile(r"([a-z]+) $")
_WORD_AFTER = re.compile(r" ([A-Za-z]+)")

PARTICLES = frozenset("up down in out on off over back away around round along together "
                      "through about".split())
"""Adverb particles of phrasal and phrasal-prepositional verbs (Quirk et al. 1985 §16.2)."""
_NO_PHRASE = frozenset("""
    and or but nor then than so to as if when while because is are was were be been am do does
    did key keys button letter not too also just
    """.split())
"""Words after which no noun phrase opens at the "w": a conjunction, "to", a verb of being or
doing, and the nouns a letter names ("w key")."""
_DETERMINERS = frozenset("a an the this that these those my your his her our their its".split())


def _verb_form(word: str, is_verb: Callable[[str], bool], irregular: Mapping[str, str]) -> bool:
    """Whether a lower-case word is a form of a known verb: an irregular past, a base form or
    a base with "-s", "-es", "-ed", "-d" or "-ing" ("broke", "live", "lives", "moved",
    "hanging", "dating")."""
    if word in irregular or is_verb(word):
        return True
    stems = []
    for ending in ("ing", "ed", "es", "s", "d"):
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[:-len(ending)]
            stems += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:  # a doubled consonant: "chatted"
                stems.append(stem[:-1])
            if ending == "es" and stem.endswith("i"):
                stems.append(stem[:-1] + "y")
    return any(is_verb(s) for s in stems)


def bare_with_read(text: str, is_verb: Callable[[str], bool],
                   irregular: Mapping[str, str] | None = None
                   ) -> tuple[str, Edits]:
    """``text`` with each bare "w" that stands for "with" spelt out, and the replacements
    made (:class:`extractors.offsets.Edits`).

    Args:
        text: the text, its other chat forms already read.
        is_verb: whether a lower-case base form is a known verb (the lemmatizer's index).
        irregular: irregular past forms -> base form.
    """
    if " w " not in text:
        return text, NO_EDITS
    irregular = irregular or {}
    out: list[str] = []
    spans: list[tuple[int, int, int]] = []
    last = 0
    for m in _BARE_W.finditer(text):
        before = _WORD_BEFORE.search(text, 0, m.start())
        after = _WORD_AFTER.match(text, m.end())
        if before is None or after is None:
            continue
        prev, nxt = before.group(1), after.group(1)
        if prev in _DETERMINERS or not (prev in PARTICLES or _verb_form(prev, is_verb,
                                                                          irregular)):
            continue
        if nxt.lower() in _NO_PHRASE:
            continue
        out.append(text[last:m.start()])
        spans.append((m.start(), m.end(), len("with")))
        out.append("with")
        last = m.end()
    if not spans:
        return text, NO_EDITS
    out.append(text[last:])
    return "".join(out), Edits(tuple(spans))
