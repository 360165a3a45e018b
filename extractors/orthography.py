"""Chat orthography: contractions typed without their apostrophe.

Chat text drops apostrophes ("im vegan now", "theyre moving", "ive sold it"). spaCy's English
tokenizer still splits such a form ("im" -> "i" + "m", from its tokenizer exceptions,
``spacy/lang/en/tokenizer_exceptions.py``), but the tagger has seen "m" and "re" as verbs
rarely: "im vegan" is parsed with "m" a verb of its own, lemma "m", and no copula. With the
apostrophe back, "I'm vegan" is the copula every rule reads.

:func:`contraction_table` takes the forms from the pipeline's own tokenizer exceptions: an
exception without an apostrophe whose pieces match those of an exception with one ("im" and
"i'm"). spaCy already leaves out forms that are common words ("its", "ill", "well", "were",
"hell", "shell"); a form that is a word of the lemmatizer's tables ("wed", "id", "cant",
"wont") is left out here too, since a memory may mean the word. :func:`apostrophes_restored`
puts the apostrophes back and records each as an insertion (:class:`extractors.offsets.Edits`),
which maps triple offsets back to the text as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from extractors.offsets import NO_EDITS, Edits

__all__ = ["apostrophes_restored", "contraction_table"]

_WORD = re.compile(r"(?<![\w'’@#/.:-])[A-Za-z]+(?![\w'’@/:-]|\.\w)")
"""A word standing alone: not part of an address, a URL, a handle or a hashtag
("ive.smith@example.com", "https://whos.example.com/im", "@theyre", "#im")."""
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
"""A double-quoted stretch: a title or a quotation keeps its spelling ("Im Yours")."""
_ABBREVIATION = re.compile(r"[A-Z][a-z]{0,2}|[A-Z]")
"""A capitalised word of up to three letters before a full stop is an abbreviation ("Dr.",
"Mrs.", "St."), not a sentence's end."""
_APOSTROPHE = "'"


def contraction_table(tokenizer_rules: dict, words: Iterable[str]) -> dict[str, str]:
    """Apostrophe-less contraction -> its spelling with apostrophes, lower case.

    Args:
        tokenizer_rules: a spaCy tokenizer's special cases (``Tokenizer.rules``: string ->
            list of token attribute dicts).
        words: lower-case words of the lemmatizer's tables; a form among them is left out.

    Returns:
        e.g. ``{"im": "i'm", "theyre": "they're", "didnt": "didn't"}``.
    """
    words = set(words)
    spelled: dict[tuple[str, int], str] = {}
    for key, pieces in tokenizer_rules.items():
        if _APOSTROPHE in key and key.replace(_APOSTROPHE, "").isalpha():
            spelled.setdefault((key.lower().replace(_APOSTROPHE, ""), len(pieces)),
                               key.lower())
    table = {}
    for key, pieces in tokenizer_rules.items():
        low = key.lower()
        if len(pieces) < 2 or not key.isalpha() or low in words or low in table:
            continue
        found = spelled.get((low, len(pieces)))
        if found is not None:
            table[low] = found
    return table


def apostrophes_restored(text: str, table: dict[str, str]) -> tuple[str, Edits]:
    """``text`` with the apostrophes of :func:`contraction_table` forms put back, and the
    insertions made: ``(position in text, position, 1)`` per apostrophe, positions in
    characters of ``text``.

    A form is restored in lower case anywhere, and with a capital first letter only where a
    sentence starts ("Im back" restored; "Dr. Im", "my wife Ima", German "im Zentrum" are
    names or words of their own); an all-capital one ("IM") is left alone, as an
    abbreviation may be meant. Nothing is restored inside an address, a URL, a handle, a
    hashtag or a double-quoted stretch."""
    if not table:
        return text, NO_EDITS
    out: list[str] = []
    inserted: list[tuple[int, int, int]] = []
    last = 0
    quoted = [m.span() for m in _QUOTED.finditer(text)] if '"' in text or "“" in text else []
    for m in _WORD.finditer(text):
        word = m.group()
        spelled = table.get(word.lower())
        if spelled is None or (len(word) > 1 and word[1:] != word[1:].lower()):
            continue
        if word[0].isupper() and not _starts_sentence(text, m.start()):
            continue
        if any(a < m.start() < b for a, b in quoted):
            continue
        out.append(text[last:m.start()])
        restored, k = [], 0
        for ch in spelled:
            if ch == _APOSTROPHE:
                inserted.append((m.start() + k, m.start() + k, 1))
                restored.append(_APOSTROPHE)
            else:
                restored.append(word[k])
                k += 1
        out.append("".join(restored))
        last = m.end()
    if not inserted:
        return text, NO_EDITS
    out.append(text[last:])
    return "".join(out), Edits(tuple(inserted))


def _starts_sentence(text: str, at: int) -> bool:
    """Whether ``text[at:]`` opens a sentence: at the start, or after ".", "!" or "?" and
    space, unless the full stop ends an abbreviation."""
    before = text[:at].rstrip()
    if not before:
        return True
    if len(before) == at or before[-1] not in ".!?":
        return False  # no space before, or no sentence end
    if before[-1] == ".":
        last = before[:-1].rsplit(None, 1)[-1] if before[:-1].strip() else ""
        if _ABBREVIATION.fullmatch(last):
            return False
    return True

