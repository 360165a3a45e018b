"""The ledger told in plain sentences: one per entry, for ``contrascan history``
(:func:`narrate`), and a verdict's rule and reasons in plain words, for the review page
(:data:`RULE_WORDS`, :func:`rule_in_words`, :func:`reason_in_words`). Reads
:class:`scanner.core.ledger.LedgerEntry` values only.
"""

from __future__ import annotations

from datetime import timezone

from scanner.core.ledger import (
    CLOSED_STATUSES,
    STATUS_DISMISSED,
    STATUS_MOOT,
    STATUS_SETTLED,
    STATUS_WITHDRAWN,
    LedgerEntry,
)
from scanner.core.settlement import REOBSERVATION
from scanner.review.decisions import narrate_review
from scanner.verdict_text import JUDGE, JUDGED_RULES


def _side(entry: LedgerEntry, mid: str) -> str:
    value = entry.values.get(mid)
    i = entry.inputs.get(mid, {})
    bits = [b for b in (i.get("source"), i.get("source_class"),
                        f"epoch {i['epoch']}" if i.get("epoch") else None,
                        i.get("observed_at")) if b]
    shown = f"“{value}”" if value is not None else ""
    return f"{mid} {shown} ({', '.join(bits) or 'no provenance'})".replace("  ", " ")


def narrate(entry: LedgerEntry) -> str:
    """One plain sentence saying what the entry records (for ``contrascan history``)."""
    text = _narrate(entry)
    if entry.status == STATUS_WITHDRAWN:
        text += (" — withdrawn: a later scan of every memory no longer decides this" +
                 (f" (since {entry.updated_at.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S}Z)"
                  if entry.updated_at is not None else ""))
    return text


def _narrate(entry: LedgerEntry) -> str:
    key = f"{entry.key.subject} · {entry.key.relation}" if entry.key else ""
    t = entry.entry_type
    if t == "resolution":
        loser = ", ".join(_side(entry, m) for m in entry.superseded)
        return (f"resolved by rule {entry.rule} on {key}: {_side(entry, entry.winner or '')} "
                f"supersedes {loser}" + _reason_tail(entry))
    if t == "epoch_change":
        ev = entry.event or {}
        old, new = ev.get("from", {}), ev.get("to", {})
        text = (f"epoch change on {key}: “{old.get('value')}” under {old.get('epoch')} "
                f"({old.get('id')}, {old.get('source')}, {old.get('observed_at')}) -> "
                f"“{new.get('value')}” under {new.get('epoch')} ({new.get('id')}, "
                f"{new.get('source')}, {new.get('observed_at')}); latest {entry.latest}, "
                f"no winner")
        if len(entry.members) > 2:  # a key's dispute (scanner.core.open_state)
            text += f"; {len(entry.members)} values in dispute: " + "; ".join(
                _side(entry, m) for m in entry.members)
        return text + _open_tail(entry)
    if t == "quarantine":
        sides = "; ".join(_side(entry, m) for m in entry.members)
        # the judge's reading is no reason for a quarantine its rule decided
        reasons = [r for r in entry.reasons if entry.rule in JUDGED_RULES
                   or not r.startswith(JUDGE)]
        return f"quarantined ({', '.join(reasons) or entry.rule}) on {key}: {sides}" + \
            _open_tail(entry)
    if t == "escalation":
        rec = entry.recommended or {}
        keep = (f"; recommended: keep {rec.get('keep')} “{rec.get('value')}” "
                f"({rec.get('because')})") if rec else ""
        sides = "; ".join(_side(entry, m) for m in entry.members)
        return f"escalated for review by rule {entry.rule} on {key}: {sides}{keep}" + \
            (_open_tail(entry) if entry.status in CLOSED_STATUSES else "")
    if t == "possible":
        sides = "; ".join(_side(entry, m) for m in entry.members)
        return f"possible conflict on {key} (relation of unknown cardinality): {sides}" + \
            (_open_tail(entry) if entry.status in CLOSED_STATUSES else "")
    if t == "settlement":
        pair = " / ".join(entry.members)
        what = {"epoch_change": "epoch change", "quarantined": "quarantine"}.get(
            entry.verdict or "", entry.verdict or "pair")
        head = (f"re-observation {_side(entry, entry.settler or '')} settled the {what} "
                f"{pair} on {key}")
        if not entry.superseded:
            return head + ": moot, both members were retired by re-observation"
        kept = ", ".join(entry.confirmed) or "nothing"
        return (f"{head}: retired {', '.join(entry.superseded)} (rule {REOBSERVATION}), "
                f"confirmed {kept}" + _when(entry))
    if t == "review":
        return narrate_review(entry) + _when(entry)
    if t == "import":
        d = entry.data
        return (f"import at {d.get('imported_at')}: {d.get('written')} written, "
                f"{d.get('unchanged')} already stored, {d.get('failed')} failed")
    d = entry.data
    return f"read-time scans: {d.get('scans')} ({d.get('with_conflict')} with a conflict)"


def _reason_tail(entry: LedgerEntry) -> str:
    extra = [r for r in entry.reasons if r.startswith(("override:", "declared:"))]
    return f" [{'; '.join(extra)}]" if extra else ""


def _when(entry: LedgerEntry) -> str:
    if entry.recorded_at is None:
        return ""
    return f" [recorded {entry.recorded_at.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S}Z]"


def _open_tail(entry: LedgerEntry) -> str:
    if entry.status == STATUS_DISMISSED:
        return " — dismissed in review without choosing (review entry below)" + _when(entry)
    if entry.status == STATUS_MOOT:
        retired = [r.split(":", 1)[1] for r in entry.reasons if r.startswith("moot:")]
        return (" — moot: " + ", ".join(m.replace("@", " retired by the re-observation ")
                                         for m in retired) + _when(entry))
    if entry.status == STATUS_SETTLED:
        since = _when(entry)
        done = (f", settled {entry.updated_at.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S}Z"
                if entry.updated_at is not None else "")
        return f" — was open{since}{done} by the re-observation below"
    req = entry.request or {}
    asked = f"; re-observation requested: {req.get('what')}" if req else ""
    if req.get("in_epoch"):
        asked += f" in epoch {req['in_epoch']}"
    question = f"; ask: {entry.question}" if entry.question else ""
    return asked + question + _when(entry)


# --------------------------------------------------------------------------- rules in words

RULE_WORDS: dict[str, str] = {
    "relation_similarity": "The two relations were matched by embedding similarity only, "
                           "which never decides a conflict.",
    "unknown_cardinality": "The relation's cardinality is unknown: it may hold several values "
                           "at once, so the two values need not conflict.",
    "pair_judge": "The pair judge does not read the two memories as a conflict, so the keys "
                  "alone cannot decide it.",
    "ended_in_other_words": "A later memory seems to end this state, but says so in other "
                            "words than a key that names the whole attribute.",
    "named_in_other_words": "A later memory seems to change something an earlier one named, "
                            "but they share only the name and one word.",
    "value_in_other_words": "A later value seems to replace an earlier one, but no reading "
                            "names the attribute it belongs to.",
    "missing_provenance": "A memory lacks its source, its observation time or its epoch, so "
                          "neither may be cited as settled until the key is observed again.",
    "future_observed_at": "A memory is dated after the scan's clock: a time that has not "
                          "happened yet is no provenance.",
    "subject_unconfirmed": "The subjects are only alike as strings; no known alias says they "
                           "are the same.",
    "epoch_change": "The value changed between world-state epochs: both stay, and the later "
                    "epoch's memory is the latest, not a winner, until the key is observed "
                    "again.",
    "contradictory_statements": "One speaker's statements cannot both hold at any time, so "
                                "time does not settle them.",
    "safety_relation": "The relation is a declared safety relation: a person decides, the "
                       "policy only recommends.",
    "manual_review": "The relation is set to manual review: a person decides, the policy only "
                     "recommends.",
    "confidence": "The strategy set for this relation decided: the higher confidence wins.",
    "weighted": "The strategy set for this relation decided: a weighted sum of recency and "
                "confidence.",
    "recency_override": "The caller asked for the newer memory to win (logged as an "
                        "override).",
    "source_class": "Same epoch, different source classes: the more trusted class wins "
                    "(observation > user > inference), even when it is older.",
    "recency": "Same epoch and source class: the newer observation wins.",
    "tie": "Same epoch, same source class and same observation time: nothing tells which "
           "one is current.",
    REOBSERVATION: "A later observation of the key, with intact provenance, settled it.",
    "review": "A person's review decided it.",
}
"""Every rule a verdict records (``rule``; the rows of :data:`scanner.core.policy.ROWS`, as
docs/contract.md §3 tells them, the settlement rule and a review's override), in plain words:
why the pair stands as it does. For the review page, beside the code."""

_FIELDS = {"observed_at": "observation time (observed_at)"}
_JUDGE_LABELS = {"update": "an update: the later memory replaces the earlier",
                 "contradiction": "a contradiction: both cannot hold",
                 "compatible": "no conflict: both can hold",
                 "restatement": "a restatement: the same thing said twice"}
_DECLARED = {"single_epoch": "the store declares a single epoch for every memory",
             "epoch_property": "epochs are read from the property “{}”",
             "observed_at": "observation times are read from the property “{}”",
             "source": "memories without a source are declared to come from “{}”"}


def rule_in_words(rule: str | None) -> str | None:
    """The plain words of a rule code (:data:`RULE_WORDS`), or None for an unknown rule.

    Example:
        >>> rule_in_words("recency")
        'Same epoch and source class: the newer observation wins.'
    """
    return RULE_WORDS.get(rule or "")


def reason_in_words(reason: str) -> str:
    """One of a verdict's ``reasons`` in plain words; a reason already in words (or one of an
    unknown form) is returned as it is.

    ``missing_provenance:epoch@m7`` -> "m7 has no epoch", ``recommended:m2`` -> "the policy
    would keep m2", ``judge:update 0.97`` -> "the pair judge reads an update: … (probability
    0.97)", ``epochs a != b`` -> "recorded under different epochs: a and b", a rule code -> its
    :data:`RULE_WORDS`.
    """
    head, _, rest = reason.partition(":")
    if head == "missing_provenance" and "@" in rest:
        field, _, mid = rest.partition("@")
        return f"{mid} has no {_FIELDS.get(field, field)}"
    if head == "future_observed_at" and "@" in rest:
        mid, _, when = rest.partition("@")
        return f"{mid} is dated {when}, after the scan's clock"
    if head == "after_clock":
        clock, _, skew = rest.rpartition("+")
        return f"the scan's clock read {clock}, allowing {skew.removesuffix('s')} s of skew"
    if head == "subject_unconfirmed" and "~" in rest:
        one, _, other = rest.partition("~")
        return f"“{one}” and “{other}” may be one subject; no known alias says so"
    if head == "recommended":
        return ("the policy would keep neither" if rest == "none"
                else f"the policy would keep {rest}")
    if head == "tie":
        return "same source class and same observation time"
    if head == "judge" and " " in rest:
        label, _, score = rest.partition(" ")
        return f"the pair judge reads {_JUDGE_LABELS.get(label, label)} (probability {score})"
    if head == "represented_by" and "@" in rest:
        record, _, member = rest.partition("@")
        return f"{member} was weighed as {record}, the strongest memory of its value"
    if head == "declared":
        name, _, value = rest.partition("=")
        return _DECLARED.get(name, "declared: {}").format(value or rest)
    if head == "override":
        return f"logged override: {rest}"
    if reason.startswith("epochs ") and " != " in reason:
        return "recorded under different epochs: " + reason[len("epochs "):].replace(
            " != ", " and ", 1)
    return (RULE_WORDS[reason][:1].lower() + RULE_WORDS[reason][1:].rstrip(".")
            if reason in RULE_WORDS else reason)
