"""A name and the same name narrowed: one value, refined ("PulseFit" / "PulseFit Harbour St.").

A proper name followed by more capitalised words that narrow it (a branch, a site, a model, a
division: "Northgate Library" / "Northgate Library Eastside", "Pixel" / "Pixel 8") names the
thing the shorter name names, or a part of it; the longer value restates the shorter one more
precisely and is no change of value (Quirk et al. 1985 §17.3-17.4: a restrictive modifier
narrows the reference of its head without changing what the head refers to). Two names that
narrow one head differently ("PulseFit Harbour St." / "PulseFit Quayside") still differ, and
a shorter name with digits ("iPhone 12" / "iPhone 12 Pro": a model number) is no head that a
longer name narrows.

The same holds of a common noun and the same noun premodified ("almonds" / "salted
almonds", "tea" / "iced tea"): the modifier narrows the head's reference, so the longer value
restates the shorter more precisely (:func:`refined_kind`). A name premodified is another name
("York" / "New York") and stays a change.

Pure functions over :class:`scanner.core.stances.Stance` values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scanner.core.stances import Stance


def narrows(short: str, long_: str) -> bool:
    """Whether the name ``long_`` is the name ``short`` with words after it: the shorter's
    words are the first words of the longer, and the shorter has no digit.

    Example:
        >>> narrows("pulsefit", "pulsefit harbour st"), narrows("iphone 12", "iphone 12 pro")
        (True, False)
    """
    ws, wl = short.split(), long_.split()
    return (0 < len(ws) < len(wl) and wl[:len(ws)] == ws
            and not any(c.isdigit() for c in short))


def refined_name(x: Stance, y: Stance) -> bool:
    """Whether an asserted value of one stance, written as a proper name, is narrowed by an
    asserted name of the other (:func:`narrows`): then the two name one thing."""
    if not x.names or not y.names:
        return False
    mine, theirs = x.names & x.asserted, y.names & y.asserted
    return any(narrows(a, b) or narrows(b, a) for a in mine for b in theirs)


def premodifies(short: str, long_: str) -> bool:
    """Whether ``long_`` is ``short`` with one or two premodifying words: the shorter's words
    are the last words of the longer (English noun phrases are head-final), no digit in either.

    Example:
        >>> premodifies("almond", "salted almond"), premodifies("tea", "green tea leaf")
        (True, False)
    """
    ws, wl = short.split(), long_.split()
    return (0 < len(ws) < len(wl) <= len(ws) + 2 and wl[len(wl) - len(ws):] == ws
            and not any(c.isdigit() for c in short + long_))


def refined_kind(x: Stance, y: Stance) -> bool:
    """Whether an asserted common-noun value of one stance is premodified by an asserted
    common-noun value of the other (:func:`premodifies`); values written as names are left to
    :func:`refined_name`. A stance that marks its value as a change ("is now iced tea",
    "Actually, …") states another value, never a refinement."""
    if x.changed or y.changed:
        return False
    mine, theirs = x.asserted - x.names, y.asserted - y.names
    return any(premodifies(a, b) or premodifies(b, a) for a in mine for b in theirs if a and b)
