"""A key's open state in the ledger: the values one key holds in dispute, each member once.

SPEC §3 quarantines a pair (missing provenance, a tie, an unconfirmed subject, contradictory
statements) or records an epoch change. A key holding ``n`` values that no rule decides — no
epoch, equal ``observed_at``, each in its own epoch — makes ``n(n-1)/2`` such pairs, and the
scan report lists them all (SPEC §5). The ledger records the dispute instead, in O(values)
(200 values of one key: 19,900 pairs, one entry; ``benchmarks/bench_ledger_growth.py``):

* one **state entry** per key, entry type (``quarantine``, ``epoch_change``), kind and rule
  (:func:`state_entry_id`). ``members`` lists every member of those pairs once, with its value
  and provenance (``values``, ``inputs``). Its status is ``open`` while any of the pairs is
  open, else ``settled`` when a re-observation settled any (``settled_by`` names the latest
  settler's settlement), else ``moot``. ``question``, ``request`` and, for an epoch change,
  ``latest`` and ``event`` speak for the whole dispute (:func:`state_contents`).
* one **settlement** per state entry and settler (:func:`settlement_id`): the members of the
  pairs it settled, those it retired (``superseded``) and those it confirmed.

A scan that sees only some memories of a key (read-time) adds what it sees to the stored state
and never removes a member (:func:`merged`). Pure: contents are plain JSON types, as
:meth:`scanner.core.ledger.LedgerEntry.content` gives them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from scanner.core.ledger_terms import (
    STATUS_APPLIED,
    STATUS_MOOT,
    STATUS_OPEN,
    STATUS_SETTLED,
    entry_id,
)
from scanner.core.questions import FIRST_PERSON
from scanner.core.report import is_moot
from scanner.core.settlement import REOBSERVATION
from scanner.models import Conflict, ConflictKey, EpochChangeEvent

STATE_TYPES = {"quarantined": "quarantine", "epoch_change": "epoch_change"}
"""Verdict -> the entry type of its key's open state."""
MERGED_TYPES = frozenset({*STATE_TYPES.values(), "settlement"})
"""Entry types a partial view merges into the stored entry (:func:`merged`)."""
_SEVERITY = ("low", "medium", "high")
READINGS_PER_MEMBER = 3
"""Distinct reasons of one kind a state entry keeps per member before it counts them instead
(:func:`bounded_reasons`): a member can lack each of the three provenance fields."""


def key_content(key: ConflictKey) -> dict[str, Any]:
    """A conflict key as plain JSON types (an entry's ``key``)."""
    return {"user_id": key.user_id, "group": key.group, "properties": dict(key.properties),
            "subject": key.subject, "relation": key.relation}


def state_entry_id(user_id: str, conflict: Conflict) -> str:
    """The id of the open state a quarantined or epoch-change pair belongs to: uuid5 of the
    tenant, entry type, kind, scope, subject, relation and rule (never of the members)."""
    key = conflict.key
    scope = "\x1e".join(f"{k}={v}" for k, v in sorted(key.properties.items()))
    return _state_id(user_id, STATE_TYPES[conflict.verdict], conflict.kind, key.group or "",
                     scope, key.subject, key.relation, conflict.rule or "")


@lru_cache(maxsize=4096)
def _state_id(user_id: str, *parts: str) -> str:
    # every pair of a dispute asks for the same id: 20,100 pairs, one uuid5
    return entry_id(user_id, parts[0], "key", *parts[1:])


def settlement_id(user_id: str, state_id: str, settler: str) -> str:
    """The id of the settlement of the state entry ``state_id`` by the record ``settler``."""
    return entry_id(user_id, "settlement", state_id, settler)


def _kind(reason: str) -> str:
    cut = [i for i in (reason.find(":"), reason.find(" ")) if i > 0]
    return reason[:min(cut)] if cut else reason


def bounded_reasons(reasons: Iterable[str], members: int) -> list[str]:
    """The distinct reasons of a dispute, first seen first, in O(members).

    A kind of reason (its text before the first ``:`` or space) read in more than
    :data:`READINGS_PER_MEMBER` × ``members`` ways — a reading per pair, such as
    ``epochs deploy-3 != deploy-9`` or the judge's ``judge:update 0.97`` — is kept as one line
    ``<kind>: <n> readings``; reasons that name a member (``missing_provenance:epoch@m7``,
    ``moot:m3@m9``) are never that many.
    """
    seen = dict.fromkeys(reasons)
    counts = Counter(_kind(r) for r in seen)
    limit = READINGS_PER_MEMBER * max(members, 2)
    out, counted = [], set()
    for r in seen:
        kind = _kind(r)
        if counts[kind] <= limit:
            out.append(r)
        elif kind not in counted:
            counted.add(kind)
            out.append(f"{kind}: {counts[kind]} readings")
    return out


def _time(inputs: Mapping[str, Mapping[str, Any]], member: str) -> str | None:
    return inputs.get(member, {}).get("observed_at")


def _in_time_order(members: Iterable[str], inputs: Mapping[str, Mapping[str, Any]]
                   ) -> list[str]:
    """Members by ``observed_at`` (ISO UTC; unknown times first), then id."""
    return sorted(members, key=lambda m: (_time(inputs, m) is not None,
                                          _time(inputs, m) or "", m))


def _latest(members: Sequence[str], inputs: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The member observed last, when every member has a time and one is strictly last (the
    rule of a pair's ``latest``, :func:`scanner.core.policy.epoch_change`)."""
    times = [(_time(inputs, m), m) for m in members]
    if not times or any(t is None for t, _ in times):
        return None
    times.sort()
    if len(times) > 1 and times[-1][0] == times[-2][0]:
        return None
    return times[-1][1]


def _side(member: str, values: Mapping[str, str], inputs: Mapping[str, Mapping[str, Any]]
          ) -> dict[str, Any]:
    i = inputs.get(member, {})
    return {"id": member, "value": values.get(member), "epoch": i.get("epoch"),
            "source": i.get("source"), "observed_at": i.get("observed_at")}


def _event(members: Sequence[str], values: Mapping[str, str],
           inputs: Mapping[str, Mapping[str, Any]], latest: str | None) -> dict[str, Any]:
    """An epoch change's ``from`` (the value observed first) and ``to`` (``latest``, else the
    value observed last); each side as :func:`scanner.core.policy.epoch_event` gives it."""
    ordered = _in_time_order(members, inputs)
    to = latest or ordered[-1]
    first = next(m for m in ordered if m != to)
    return {"from": _side(first, values, inputs), "to": _side(to, values, inputs)}


def _subject_phrase(key: Mapping[str, Any]) -> str:
    if key["subject"] in FIRST_PERSON:
        return f"your {key['relation']}"
    return f"the {key['relation']} of {key['subject']}"


def _request(key: Mapping[str, Any], entry_type: str, reasons: Sequence[str],
             latest: str | None, inputs: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """What to re-observe: ``{"what", "subject", "relation", "scope", "why", "missing",
    "in_epoch", "after"}`` (``after``: the newest ``observed_at`` of the members, ISO UTC)."""
    missing = [r.split(":", 1)[1] for r in reasons if r.startswith("missing_provenance:")]
    in_epoch = None
    if entry_type == "epoch_change" and latest:
        in_epoch = inputs.get(latest, {}).get("epoch")
    times = [i.get("observed_at") for i in inputs.values() if i.get("observed_at")]
    return {"what": f"re-check {_subject_phrase(key)}", "subject": key["subject"],
            "relation": key["relation"],
            "scope": {"group": key["group"], "properties": dict(key["properties"])},
            "why": [r for r in reasons if not r.startswith(("declared:", "settled:"))],
            "missing": missing, "in_epoch": in_epoch, "after": max(times) if times else None}


def _question(open_pairs: Sequence[Conflict], inputs: Mapping[str, Mapping[str, Any]]
              ) -> str | None:
    """The question of the open pair spanning the dispute: its earliest member against its
    latest (the only pair of a dispute of two)."""
    if not open_pairs:
        return None
    members = {m for c in open_pairs for m in c.members}
    rank = {m: i for i, m in enumerate(_in_time_order(members, inputs))}

    def span(c: Conflict) -> tuple:
        ranks = sorted(rank[m] for m in c.members)
        return (ranks[0], -ranks[-1], c.members)
    return min(open_pairs, key=span).question


def _most_severe(severities: Iterable[str]) -> str:
    return max(severities, key=_SEVERITY.index, default="low")


def state_contents(user_id: str, conflicts: Sequence[Conflict],
                   events: Sequence[EpochChangeEvent] = (), *,
                   known_values: Mapping[tuple[str, str, str], str] | None = None,
                   known_inputs: Mapping[str, Mapping[str, Any]] | None = None
                   ) -> list[dict[str, Any]]:
    """The state entries and settlements of a scan's quarantined and epoch-change pairs.

    Args:
        user_id: the tenant's user.
        conflicts: the pairs (other verdicts are ignored), each settled, moot or open.
        events: the scan's epoch-change events (a dispute of one pair keeps its event as is).
        known_values: ``(subject, relation, memory id)`` -> value, for a settler's value.
        known_inputs: memory id -> provenance inputs, for a settler's provenance.

    Returns:
        Contents (:meth:`scanner.core.ledger.LedgerEntry.content`), unsorted: one state entry
        per :func:`state_entry_id`, one settlement per state entry and settler.
    """
    groups: dict[str, list[Conflict]] = {}
    for c in conflicts:
        if c.verdict in STATE_TYPES:
            groups.setdefault(state_entry_id(user_id, c), []).append(c)
    events_by_pair = {tuple(sorted((e.from_["id"], e.to["id"]))): e for e in events}
    out: list[dict[str, Any]] = []
    for sid, pairs in groups.items():
        out.extend(_dispute(user_id, sid, sorted(pairs, key=lambda c: c.members),
                            events_by_pair, known_values or {}, known_inputs or {}))
    return out


def _dispute(user_id: str, sid: str, pairs: Sequence[Conflict],
             events_by_pair: Mapping[tuple[str, ...], EpochChangeEvent],
             known_values: Mapping[tuple[str, str, str], str],
             known_inputs: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The state entry of one dispute and its settlements (see :func:`state_contents`)."""
    first = pairs[0]
    etype = STATE_TYPES[first.verdict]
    values: dict[str, str] = {}
    inputs: dict[str, Mapping[str, Any]] = {}
    reasons: list[str] = []
    open_pairs: list[Conflict] = []
    by_settler: dict[str, list[Conflict]] = {}
    for c in pairs:
        values.update(c.values)
        inputs.update(c.inputs)
        reasons.extend(r for r in c.reasons if not r.startswith("settled:"))
        if c.settled_by:
            by_settler.setdefault(c.settled_by, []).append(c)
        elif not is_moot(c):
            open_pairs.append(c)
    members = sorted({m for c in pairs for m in c.members})
    reasons = bounded_reasons(reasons, len(members))
    key = key_content(first.key)
    if len(pairs) == 1:
        latest = first.latest
    else:
        latest = _latest(members, inputs) if etype == "epoch_change" else None
    event = None
    if etype == "epoch_change":
        found = events_by_pair.get(tuple(sorted(first.members))) if len(pairs) == 1 else None
        event = ({"from": dict(found.from_), "to": dict(found.to)} if found is not None
                 else _event(members, values, inputs, latest))
    settlers = sorted(by_settler, key=lambda s: (known_inputs.get(s, {}).get("observed_at")
                                                 or "", s))
    status = (STATUS_OPEN if open_pairs else STATUS_SETTLED if settlers else STATUS_MOOT)
    common = {"user_id": user_id, "key": key, "kind": first.kind, "verdict": first.verdict,
              "winner": None, "config": dict(first.config), "recommended": None,
              "data": {}}
    out = [{**common, "entry_id": sid, "entry_type": etype, "status": status,
            "members": members, "values": {m: values[m] for m in members if m in values},
            "rule": first.rule, "reasons": reasons,
            "severity": _most_severe(c.severity for c in pairs), "latest": latest,
            "superseded": [], "confirmed": [], "settler": None,
            "inputs": {m: dict(inputs[m]) for m in members if m in inputs},
            "question": _question(open_pairs, inputs),
            "request": _request(key, etype, reasons, latest, inputs), "event": event,
            "settled_by": (settlement_id(user_id, sid, settlers[-1])
                           if status == STATUS_SETTLED else None),
            "settles": None}]
    for settler in settlers:
        settled = by_settler[settler]
        covered = sorted({m for c in settled for m in c.members})
        retired = sorted({m for c in settled for m in c.superseded})
        shown = {m: values[m] for m in covered if m in values}
        value = known_values.get((key["subject"], key["relation"], settler))
        if value is not None:
            shown[settler] = value
        provenance = {m: dict(inputs[m]) for m in covered if m in inputs}
        if settler in known_inputs:
            provenance[settler] = dict(known_inputs[settler])
        out.append({**common, "entry_id": settlement_id(user_id, sid, settler),
                    "entry_type": "settlement", "status": STATUS_APPLIED, "members": covered,
                    "values": shown, "rule": REOBSERVATION,
                    "reasons": _settlement_reasons(etype, first.rule, retired),
                    "severity": _most_severe(c.severity for c in settled), "latest": settler,
                    "superseded": retired,
                    "confirmed": [m for m in covered if m not in retired] if retired else [],
                    "settler": settler, "inputs": provenance, "question": None,
                    "request": None, "event": None, "settled_by": None, "settles": sid})
    return out


def _settlement_reasons(entry_type: str, rule: str | None, retired: Sequence[str]) -> list[str]:
    return [f"settles {entry_type} ({rule})"] + (
        [] if retired else ["moot: both members retired by re-observation"])


def merged(new: Mapping[str, Any], old: Mapping[str, Any]) -> dict[str, Any]:
    """What a scan that saw only some memories of a key (read-time) stores in place of the
    stored state entry or settlement ``old`` of the same id, when it made ``new``.

    A view that holds every stored member gives ``new`` as it is, one that holds none but
    stored members ``old``. Otherwise the members, values and provenance are the union
    (nothing is removed), the retired members of a settlement the union too; a state entry
    stays as ``old`` has it (status, settlement, question, the count of reviews in
    ``data``) unless the view saw a new member of the dispute in an open pair, which opens
    it. Its ``reasons`` (:func:`bounded_reasons`), ``latest``, ``request`` and ``event`` are
    those of the union.

    Args:
        new, old: contents (:meth:`scanner.core.ledger.LedgerEntry.content`) of one id.

    Returns:
        The content to store (``new`` itself when nothing needs merging).
    """
    etype = new["entry_type"]
    if etype != old["entry_type"] or etype not in MERGED_TYPES:
        return dict(new)
    mine, theirs = set(new["members"]), set(old["members"])
    if mine >= theirs:
        return dict(new)
    if mine <= theirs:  # nothing the stored entry does not know
        return dict(old)
    members = sorted(mine | theirs)
    values = {**old["values"], **new["values"]}
    inputs = {**old["inputs"], **new["inputs"]}
    out = {**new, "members": members, "values": values, "inputs": inputs,
           "severity": _most_severe((new["severity"] or "low", old["severity"] or "low"))}
    if etype == "settlement":
        retired = sorted(set(new["superseded"]) | set(old["superseded"]))
        out.update(superseded=retired,
                   confirmed=[m for m in members if m not in retired] if retired else [],
                   reasons=[*new["reasons"][:1], *_settlement_reasons("", None, retired)[1:]])
        return out
    opened = bool(mine - theirs) and new["status"] == STATUS_OPEN
    kept = new if opened else old
    reasons = bounded_reasons([*old["reasons"], *new["reasons"]], len(members))
    latest = _latest(members, inputs) if etype == "epoch_change" else None
    out.update(status=kept["status"], settled_by=kept["settled_by"],
               question=kept["question"],
               reasons=reasons, latest=latest, data=dict(old["data"]),
               request=_request(new["key"], etype, reasons, latest, inputs),
               event=(_event(members, values, inputs, latest) if etype == "epoch_change"
                      else None))
    return out
