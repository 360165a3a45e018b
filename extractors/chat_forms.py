"""Chat abbreviations, fillers and emoticons, read before the parse.

Chat text abbreviates words ("in leeds w/ my sister", "me and my gf", "3 yrs") and strews
reactions through a clause ("handed in my notice lol, starting monday", "put him down
yesterday :( house feels empty"). The tagger knows none of these: "w/" is read as a noun
object of the verb before it, "gf" as a proper noun compounded with the name after it.
:func:`chat_forms_read` spells each abbreviation of ``extractors/data/chat_abbreviations.toml``
out ("with", "girlfriend", "years"), blanks a filler, and reads an emoticon as the full stop
it stands for; the replacements it records (:class:`extractors.offsets.Edits`) map triple
offsets back to the text as written.

Sources: Wiktionary, "Appendix:English internet slang"; D. Crystal, *Language and the
Internet*, 2nd ed. (2006), ch. 4 (see the table's header).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from extractors.offsets import NO_EDITS, Edits

__all__ = ["ChatForms", "chat_forms", "chat_forms_read"]

DATA_FILE = "chat_abbreviations.toml"
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "my", "your", "his", "her", "our",
                          "their", "its"})
"""An adverbial form after one of these is a noun of its own ("the atm", "my rn")."""


@dataclass(frozen=True)
class ChatForms:
    """The chat forms read before the parse: abbreviation -> words, fillers, emoticons."""

    expansions: dict[str, str]
    fillers: frozenset[str]
    emoticons: frozenset[str]
    openers: frozenset[str] = frozenset()

    def opener_pattern(self) -> re.Pattern | None:
        """An opener at the start of the text or of a sentence, with its comma, before a word
        in lower case ("ok officially moved", "So, i sold"), or None without openers."""
        if not self.openers:
            return None
        forms = sorted(self.openers, key=len, reverse=True)
        return re.compile(r"(?:^|(?<=[.!?])\s)\s*(?:%s),?(?=\s+(?-i:[Ii]\b|[a-z]))"
                          % "|".join(map(re.escape, forms)), re.IGNORECASE)

    def pattern(self) -> re.Pattern:
        """A form standing alone: not inside a word, a URL or a longer form."""
        forms = sorted({*self.expansions, *self.fillers, *self.emoticons}, key=len, reverse=True)
        return re.compile(r"(?<![\w/'’:;])(?:%s)(?![\w/'’])" % "|".join(map(re.escape, forms)),
                          re.IGNORECASE)


@lru_cache(maxsize=1)
def chat_forms() -> ChatForms:
    """The shipped table (``extractors/data/chat_abbreviations.toml``)."""
    data = tomllib.loads(resources.files("extractors.data").joinpath(DATA_FILE)
                         .read_text(encoding="utf-8"))
    return ChatForms(expansions={k.lower(): v for k, v in data["expansions"].items()},
                     fillers=frozenset(w.lower() for w in data["fillers"]["words"]),
                     emoticons=frozenset(data["emoticons"]["faces"]),
                     openers=frozenset(w.lower() for w in data.get("openers", {}).get("words", ())))


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern:
    return chat_forms().pattern()


@lru_cache(maxsize=1)
def _opener_pattern() -> re.Pattern | None:
    return chat_forms().opener_pattern()


def _after_determiner(text: str, at: int) -> bool:
    words = re.findall(r"[A-Za-z]+", text[max(0, at - 12):at])
    return bool(words) and text[:at].rstrip() != text[:at] and words[-1].lower() in _DETERMINERS


def chat_forms_read(text: str, forms: ChatForms | None = None) -> tuple[str, Edits]:
    """``text`` with its chat forms read, and the replacements made.

    An abbreviation is spelt out ("w/" -> "with", "Gf" -> "Girlfriend"); a filler, and an
    opener at the start of the text or of a sentence ("ok", "so"), becomes
    blanks and an emoticon a full stop and blanks, both of the same length (blanks left at
    the start are taken out). An abbreviation in
    capitals ("ATM", "BF"), or one spelt out as an adverbial phrase after a determiner ("the atm"), is
    left alone: another word may be meant.

    Returns:
        The text to parse, and the replacements whose length differs: ``(start, end,
        length)`` in characters of ``text`` ("w/" at 8 -> ``(8, 10, 4)``), in text order.
    """
    forms = forms or chat_forms()
    pattern = _pattern() if forms is chat_forms() else forms.pattern()
    openers = _opener_pattern() if forms is chat_forms() else forms.opener_pattern()
    written = text
    if openers is not None:
        # an opener becomes blanks of its length: nothing moves
        text = openers.sub(lambda m: " " * len(m.group()), text)
    if not pattern.search(text):
        return _without_leading_blanks(written, text, ())
    out: list[str] = []
    spans: list[tuple[int, int, int]] = []
    last = 0
    for m in pattern.finditer(text):
        form = m.group()
        low = form.lower()
        if form in forms.emoticons:
            read = "." + " " * (len(form) - 1)
        else:
            if low not in forms.fillers and (
                    low not in forms.expansions or form not in (low, low.capitalize())
                    or (" " in forms.expansions[low] and _after_determiner(text, m.start()))):
                continue
            if low in forms.fillers:
                read = " " * len(form)
            else:
                read = forms.expansions[low]
                if form[0].isupper():
                    read = read[0].upper() + read[1:]
        out.append(text[last:m.start()])
        if len(read) != len(form):
            spans.append((m.start(), m.end(), len(read)))
        out.append(read)
        last = m.end()
    out.append(text[last:])
    return _without_leading_blanks(written, "".join(out), tuple(spans))


def _without_leading_blanks(written: str, read: str, spans: tuple) -> tuple[str, Edits]:
    """``read`` without the blanks a filler or an opener left at its start ("ugh my team lead
    is …" is parsed as "my team lead is …": a leading blank token changes the parse), and
    the edits with that deletion first. Blanks never change length, so the leading blanks of
    ``read`` are the same characters of ``written``."""
    blank = len(read) - len(read.lstrip())
    if blank == len(written) - len(written.lstrip()):
        return read, Edits(spans) if spans else NO_EDITS
    return read[blank:], Edits(((0, blank, 0),) + spans)

