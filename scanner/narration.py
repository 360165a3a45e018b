"""The ledger told in plain sentences: one per entry, for ``contrascan history``
(:func:`narrate`). Reads :class:`scanner.core.ledger.LedgerEntry` values only.
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
