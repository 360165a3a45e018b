"""A verdict in plain words for the terminal: the rule that decided it and why, apart from
the details (issue 35, item 1).

A verdict's ``reasons`` mix what decided it with what was read on the way: every pair the
judge read carries the judge's most probable class (``judge:restatement 0.88``, added by
:func:`scanner.core.policy._judged`), while the rows that pick a winner by time or source class
add no reason of their own. Printed as they are, a ``resolved`` / ``recency`` verdict showed
``judge:restatement`` as its only reason, as if the judge had decided. Here the rule comes
first, said in words with the provenance it read (SPEC §3), and the judge's reading follows as a
detail, except for the rules where the reading is what decided (``pair_judge``,
``contradictory_statements``, the ``*_in_other_words`` rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scanner.models import Conflict

JUDGE = "judge:"
"""Prefix of the pair judge's reading in a verdict's reasons (``judge:update 0.97``)."""

JUDGED_RULES = frozenset({"pair_judge", "contradictory_statements", "ended_in_other_words",
                          "named_in_other_words", "value_in_other_words"})
"""Rules whose verdict the judge's reading is part of (docs/pair-judge.md, "Deciding")."""

_FIXED = {
    "recency_override": "the caller asked for recency: the newer observation wins",
    "confidence": "the higher confidence wins",
    "weighted": "recency and confidence weighted 0.6 / 0.4: the higher score wins",
    "tie": "same epoch, source class and time: nobody wins",
    "manual_review": "the relation is kept for a person to decide",
    "unknown_cardinality": "the relation may hold several values at once: a person decides, "
                           "nothing withheld",
    "relation_similarity": "the relations only look alike: a person decides, nothing withheld",
    "contradictory_statements": "statements that cannot both hold at any time: time does not "
                                "settle it",
    "ended_in_other_words": "an ending said in other words, no key names the whole attribute: "
                            "a person decides, nothing withheld",
    "named_in_other_words": "a named thing changed, found by a shared name and word: a person "
                            "decides, nothing withheld",
    "value_in_other_words": "a value changed whose attribute only nearby words name: a person "
                            "decides, nothing withheld",
    "reobservation": "settled by a later observation",
}
"""Rules said the same whatever the pair (the others read its provenance)."""

_CONSUMED = ("missing_provenance:", "future_observed_at:", "after_clock:",
             "subject_unconfirmed:", "epochs ", "tie:", "override:source_class",
             "override:recency", "recommended:", "relation '", "relation matched by",
             "denial of any past time", *JUDGED_RULES)
"""Reasons the rule's sentence already says (:func:`explain`)."""


@dataclass(frozen=True)
class Explanation:
    """What decided a verdict and what else was read.

    Attributes:
        rule: ``"<rule>: <why, in words>"``, e.g. ``"recency: the newer observation wins
            (m2, 2026-03-09 over m1, 2026-02-07)"``.
        details: the other reasons, each in a few words: the judge's reading when it did not
            decide (``"judge read: restatement 0.88"``), a member compared as the stronger
            record of its value, declarations, settlements.
    """

    rule: str
    details: list[str] = field(default_factory=list)


def explain(conflict: Conflict) -> Explanation:
    """The rule that decided ``conflict``, in words, and its other reasons as details.

    Args:
        conflict: a verdict of a scan report (SPEC §5).

    Returns:
        The :class:`Explanation`; an unknown rule is named as it is.
    """
    rule = conflict.rule or conflict.verdict
    sentence = _sentence(conflict, rule)
    details = []
    for reason in conflict.reasons:
        if reason.startswith(JUDGE):
            if rule not in JUDGED_RULES:
                details.append("judge read: " + reason[len(JUDGE):])
        elif reason.startswith("represented_by:"):
            stronger, _, member = reason[len("represented_by:"):].partition("@")
            details.append(f"{member} compared as {stronger} (same value, stronger record)")
        elif not reason.startswith(_CONSUMED):
            details.append(reason)
    return Explanation(rule=f"{rule}: {sentence}", details=details)


def _sentence(c: Conflict, rule: str) -> str:
    if rule in _FIXED:
        return _FIXED[rule]
    loser = c.superseded[0] if c.superseded else None
    if rule == "recency" and c.winner and loser:
        new, old = _when(c, c.winner), _when(c, loser)
        if new[:10] != old[:10]:
            new, old = new[:10], old[:10]
        return f"the newer observation wins ({c.winner}, {new} over {loser}, {old})"
    if rule == "source_class" and c.winner and loser:
        older = any(r.startswith("override:source_class") for r in c.reasons)
        return (f"{_class(c, c.winner)} ({c.winner}) beats {_class(c, loser)} ({loser})"
                + (", even though older" if older else ""))
    if rule == "missing_provenance":
        missing = [r.split(":", 1)[1].split("@") for r in c.reasons
                   if r.startswith("missing_provenance:")]
        return "nobody wins without provenance: " + ", ".join(
            f"{mid} has no {what}" for what, mid in missing)
    if rule == "future_observed_at":
        return "observed after the scan's clock: nobody wins"
    if rule == "subject_unconfirmed":
        return "the subjects may not be the same one: nobody wins"
    if rule == "epoch_change":
        epochs = " -> ".join(_epoch(c, m) for m in _by_time(c))
        return f"different epochs ({epochs}): the later one is latest, nobody wins"
    if rule in ("safety_relation", "manual_review"):
        keep = next((r.split(":", 1)[1] for r in c.reasons if r.startswith("recommended:")),
                    "none")
        return f"a safety relation: a person decides (recommended: {keep})"
    if rule == "pair_judge":
        reading = next((r[len(JUDGE):] for r in c.reasons if r.startswith(JUDGE)), "?")
        return f"the pair judge reads the two as {reading}: a person decides, nothing withheld"
    if rule.startswith("review"):
        return "a reviewer's decision"
    return rule.replace("_", " ")


def _when(c: Conflict, mid: str) -> str:
    """``YYYY-MM-DD HH:MM`` of a member's ``observed_at`` as the verdict read it."""
    when = c.inputs.get(mid, {}).get("observed_at")
    return str(when)[:16].replace("T", " ") if when else "time unknown"


def _class(c: Conflict, mid: str) -> str:
    return str(c.inputs.get(mid, {}).get("source_class") or "?")


def _epoch(c: Conflict, mid: str) -> str:
    return str(c.inputs.get(mid, {}).get("epoch") or "?")


def _by_time(c: Conflict) -> list[str]:
    return sorted(c.members, key=lambda m: (str(c.inputs.get(m, {}).get("observed_at") or ""),
                                            m))
