"""Counts in printed sentences: "1 memory", "2 memories", "0 lines" (one helper for every
message of the CLI and the terminal renderer); ids and memory texts cut to the length a
message or a list shows (:func:`shown_id`, :func:`shortened`)."""

from __future__ import annotations


def plural(noun: str) -> str:
    """The regular English plural of a lower-case noun: "memory" -> "memories", "status" ->
    "statuses", "line" -> "lines" (a consonant before a final "y" makes "-ies"; a final
    sibilant "-es"). Nouns this rule gets wrong are given to :func:`counted` explicitly.
    """
    if noun.endswith("y") and noun[-2:-1] not in ("", *"aeiou"):
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def counted(n: int, noun: str, plural_form: str | None = None) -> str:
    """``n`` and the noun in the number it takes: singular for exactly one, plural otherwise
    (English uses the plural for zero: "0 memories").

    Args:
        n: the count.
        noun: the singular ("memory", "duplicate group", "line").
        plural_form: the plural, when :func:`plural` does not give it.

    Example:
        >>> counted(1, "memory"), counted(0, "memory"), counted(3, "duplicate group")
        ('1 memory', '0 memories', '3 duplicate groups')
    """
    return f"{n} {noun if n == 1 else plural_form or plural(noun)}"


SHOWN_ID_CHARS = 80
"""Characters of an id an error message repeats; a longer one (already a rejected id: ids
are at most 256 characters) is cut, its length said."""


def shown_id(record_id: str | None) -> str | None:
    """``record_id`` as an error message repeats it: whole up to :data:`SHOWN_ID_CHARS`
    characters, else its start, "…" and its length ("aaaa…(100000 characters)")."""
    if record_id is None or len(record_id) <= SHOWN_ID_CHARS:
        return record_id
    return f"{record_id[:SHOWN_ID_CHARS - 1]}…({len(record_id)} characters)"


SHOWN_TEXT_CHARS = 160
"""Characters of a memory's text a list (the review inbox) shows; the rest is a click away."""


def shortened(text: str, limit: int = SHOWN_TEXT_CHARS) -> str:
    """``text`` as a list shows it: runs of white space made one space, and when longer than
    ``limit`` characters, cut at the last space before the limit (mid-word only when a
    word is longer than the line) and ended with "…", so the result has at most ``limit``
    characters.

    Example:
        >>> shortened("The deploy timeout is 30 seconds, agreed after the incident.", 30)
        'The deploy timeout is 30…'
    """
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"
