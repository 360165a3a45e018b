"""The temporal-conflict replay validator (issue 7): fixture, every reason code, mutation of
each check, digests, metadata-only outputs, adapters and the ``validate-log`` command."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from scanner.cli import main
from scanner.models import MemoryRecord, ScanReport
from scanner.validator import (
    NEGATIVE_CASE_CODES,
    CheckName,
    LogInputError,
    NegativeCase,
    PositiveFloor,
    ReasonCode,
    ValidatorConfig,
    from_contrascan,
    from_mem0_history,
    read_contrascan,
    validate_log,
)
from scanner.validator.fixture import FIXTURE_BODIES, FIXTURE_LOG, fixture_config, run_fixture
from scanner.validator.records import RECORD_FILES


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fixture_rows() -> list[dict]:
    return [json.loads(line) for line in FIXTURE_LOG.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def fixture_bodies() -> dict[str, str]:
    out = {}
    for line in FIXTURE_BODIES.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        out[item["ref"]] = item["body"]
    return out


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def output_bytes(out_dir: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(out_dir.iterdir()))


# -- the fixture ------------------------------------------------------------------------------
def test_fixture_passes_and_writes_four_metadata_records(tmp_path):
    result = run_fixture(tmp_path / "out")
    assert result.status == "pass"
    assert [c.status for c in result.checks] == ["pass"] * 6
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(RECORD_FILES.values())
    record = json.loads((tmp_path / "out" / "result.json").read_text())
    assert record["status"] == "pass"
    assert record["paths"] == result.paths
    assert record["counts"]["decisions"] == {
        "ADD": {"accepted": 2, "quarantined": 1, "unverified": 0},
        "UPDATE": {"accepted": 1, "quarantined": 3, "unverified": 0},
        "DELETE": {"accepted": 1, "quarantined": 0, "unverified": 0},
        "NOOP": {"accepted": 1, "quarantined": 0, "unverified": 0}}
    assert record["counts"]["reason_codes"] == {NEGATIVE_CASE_CODES[c].value: 1
                                                for c in NegativeCase}
    assert record["digests"]["bodies_checked"] == record["digests"]["bodies_matched"] == 10
    assert record["digests"]["input_sha256"] == hashlib.sha256(FIXTURE_LOG.read_bytes()).hexdigest()
    signoff = json.loads((tmp_path / "out" / "signoff.json").read_text())
    assert signoff["signed"] is True
    for name in ("result", "board", "validation"):
        written = Path(signoff["records"][name]["path"]).read_bytes()
        assert signoff["records"][name]["sha256"] == hashlib.sha256(written).hexdigest()


def test_every_negative_row_is_rejected_with_its_own_code():
    result = run_fixture()
    assert len(set(NEGATIVE_CASE_CODES.values())) == len(NegativeCase) == 7
    declared = {v.negative_case: v for v in result.rows if v.negative_case is not None}
    assert set(declared) == set(NegativeCase)
    for case, verdict in declared.items():
        assert (verdict.status, verdict.code) == ("quarantined", NEGATIVE_CASE_CODES[case]), case
    story = [v for v in result.rows if v.negative_case is None]
    assert story and all(v.status == "accepted" for v in story)


# -- mutation: each check is what catches its case --------------------------------------------
ROW_CHECKS = [CheckName.intake, CheckName.temporal_order, CheckName.semantic_recompute,
              CheckName.replay]


@pytest.mark.parametrize("disabled", ROW_CHECKS, ids=lambda c: c.value)
def test_disabling_a_row_check_lets_exactly_its_cases_through(disabled):
    result = run_fixture(config=fixture_config(disabled_checks=frozenset({disabled})))
    assert result.check(disabled).status == "disabled"
    missed = set()
    for verdict in result.rows:
        if verdict.negative_case is None:
            continue
        expected = NEGATIVE_CASE_CODES[verdict.negative_case]
        if expected.check == disabled:
            assert verdict.code != expected, verdict.negative_case
            missed.add(verdict.negative_case.value)
        else:
            assert verdict.code == expected, verdict.negative_case
    assert missed, "every row check catches at least one fixture case"
    assert result.status == "blocked"
    assert {f.detail.split("@")[0] for f in result.findings
            if f.code == ReasonCode.negative_case_missed} == missed


def _fixture_without(row_id: str) -> list[dict]:
    return [r for r in fixture_rows() if r["id"] != row_id]


def test_positive_floor_is_what_catches_a_story_without_noop():
    rows = _fixture_without("c-adopt")
    caught = validate_log(rows, config=fixture_config(), bodies=fixture_bodies())
    assert caught.status == "blocked"
    assert caught.check("positive_floor").codes == {"floor_decision_missing": 1}
    assert [f.detail for f in caught.findings] == ["NOOP"]
    skipped = validate_log(rows, config=fixture_config(
        disabled_checks=frozenset({CheckName.positive_floor})), bodies=fixture_bodies())
    assert skipped.status == "pass"


def test_negative_coverage_is_what_catches_a_falsification_row_that_passes():
    rows = fixture_rows()
    for r in rows:
        if r["id"] == "n-final-answer":
            r["credit_basis"] = "evidence_handle"   # now a well-formed delta: nothing rejects it
    caught = validate_log(rows, config=fixture_config(), bodies=fixture_bodies())
    assert caught.row("n-final-answer").status == "accepted"
    assert caught.status == "blocked"
    assert [(f.code, f.detail) for f in caught.findings] == [
        (ReasonCode.negative_case_missed, "final_answer_only_memory_credit@n-final-answer")]
    skipped = validate_log(rows, config=fixture_config(
        disabled_checks=frozenset({CheckName.negative_coverage})), bodies=fixture_bodies())
    assert skipped.status == "pass"


def test_a_missing_falsification_case_blocks_the_fixture_run():
    result = validate_log(_fixture_without("n-injection"), config=fixture_config(),
                          bodies=fixture_bodies())
    assert result.status == "blocked"
    assert [(f.code.value, f.detail) for f in result.findings] == [
        ("negative_case_absent", "active_injection_as_authoritative")]


# -- digests ----------------------------------------------------------------------------------
def test_a_tampered_body_fails_its_digest(tmp_path):
    bodies = fixture_bodies()
    bodies["a-pref-1"] = bodies["a-pref-1"].replace("bullet", "numbered")
    result = validate_log(FIXTURE_LOG, config=fixture_config(), bodies=bodies)
    assert result.row("a-pref-1").code == ReasonCode.intake_digest_mismatch
    assert result.check("intake").status == "blocked"
    assert result.status == "blocked"
    assert result.digests.bodies_matched == result.digests.bodies_checked - 1


def test_a_tampered_digest_in_the_log_fails(tmp_path):
    rows = fixture_rows()
    for r in rows:
        if r["id"] == "c-replay-off":
            r["answer_sha256"] = sha("a different answer")
    result = validate_log(rows, config=fixture_config(), bodies=fixture_bodies())
    assert result.row("c-replay-off").code == ReasonCode.intake_digest_mismatch
    assert result.status == "blocked"
    # the pair lost a side: the answer-delta record no longer binds it
    assert result.row("c-delta").code == ReasonCode.replay_pair_mismatch


# -- nothing but metadata leaves --------------------------------------------------------------
MARKER = "QZX-PLANTED-7f3a"


def test_planted_markers_never_reach_any_output(tmp_path):
    rows = fixture_rows()
    bodies = {ref: f"{MARKER} body {i}" for i, ref in enumerate(fixture_bodies())}
    for r in rows:
        for key in ("body_sha256", "answer_sha256"):
            if key in r:
                r[key] = sha(bodies[r["id"]])
        if r["id"] == "n-raw-transcript":
            r["transcript"] = f"user: {MARKER}\nassistant: {MARKER}"
    extra = [
        dict(rows[0], id="x-answer", sequence=90, answer=f"{MARKER} answer",
             conflict_group="g:x"),
        {"kind": "memory_event", "id": "x-bad", "decision": MARKER, "notes": MARKER},
        f"not json {MARKER}",
        {"kind": "replay", "id": "x-extra", "episode": "e", "episode_order": 9,
         "sequence": 91, "replay_group_id": "r", "memory": "off", "final_answer": MARKER,
         "messages": [MARKER]},
    ]
    log = write_jsonl(tmp_path / "log.jsonl", rows + extra)
    bodies_file = write_jsonl(tmp_path / "bodies.jsonl",
                              [{"ref": k, "body": v} for k, v in bodies.items()]
                              + [f"{MARKER} broken", {"ref": "x", "body": 7, "m": MARKER}])
    out = tmp_path / "out"
    result = validate_log(log, out_dir=out, config=fixture_config(), bodies=bodies_file)
    assert result.status == "blocked"                    # malformed lines and raw text
    assert result.row("x-answer").code == ReasonCode.intake_raw_text_field
    assert {m.line for m in result.malformed if m.source == "log"} == {17, 18}
    assert MARKER.encode() in log.read_bytes()
    assert MARKER.encode() not in output_bytes(out)
    assert MARKER not in result.model_dump_json()
    cli = CliRunner().invoke(main, ["validate-log", str(log), "--bodies", str(bodies_file),
                                    "--out", str(tmp_path / "cli"), "--json"])
    assert cli.exit_code == 3
    assert MARKER not in cli.output and MARKER not in cli.stderr
    assert MARKER.encode() not in output_bytes(tmp_path / "cli")


# -- intake: malformed lines ------------------------------------------------------------------
def test_malformed_lines_are_reported_by_line_and_field_and_the_rest_is_checked(tmp_path):
    rows = fixture_rows()
    broken = dict(rows[1])
    del broken["decision"]
    lines = [rows[0], broken, "{not json", dict(rows[2], id="a-pref-1"),
             dict(rows[3], event_time="2026-03-09T14:10:00"), *rows[4:]]
    result = validate_log(write_jsonl(tmp_path / "log.jsonl", lines))
    assert [(m.line, m.id, m.field) for m in result.malformed] == [
        (2, "a-fact-1", "decision"), (3, None, "<line>"), (4, "a-pref-1", "id"),
        (5, "b-fact-del", "event_time")]
    assert "naive timestamp" in result.malformed[3].reason
    assert len(result.rows) == len(rows) - 3
    assert result.check("intake").codes["intake_malformed_line"] == 4
    assert result.status == "blocked"


# -- every rule, one case each ----------------------------------------------------------------
H = sha("a body")


def ev(rid, seq, decision="ADD", group="g", **kw):
    row = {"kind": "memory_event", "id": rid, "episode": "e", "episode_order": 0,
           "sequence": seq, "decision": decision, "memory_id": f"m-{group}",
           "conflict_group": group, "event_time": f"2026-03-{seq:02d}T09:00:00Z",
           "priority": 1, "source_trust": 0.8, "body_sha256": H, "trace_ref": f"t-{rid}"}
    if decision in ("UPDATE", "DELETE"):
        row.update(conflict_edge_ref=f"edge:{rid}", downgrade_evidence_ref=f"down:{rid}")
    row.update(kw)
    return {k: v for k, v in row.items() if v is not None}


def replay(rid, seq, memory, group="r", **kw):
    row = {"kind": "replay", "id": rid, "episode": "c", "episode_order": 1, "sequence": seq,
           "replay_group_id": group, "memory": memory, "cold_replay_ref": f"cold:{rid}",
           "evidence_refs": ["a"] if memory == "on" else [], "trace_ref": f"t-{rid}"}
    row.update(kw)
    return {k: v for k, v in row.items() if v is not None}


def delta(rid, seq, group="r", **kw):
    row = {"kind": "answer_delta", "id": rid, "episode": "c", "episode_order": 1,
           "sequence": seq, "replay_group_id": group, "memory_on_ref": "on",
           "memory_off_ref": "off", "evidence_handle": "a",
           "memory_credit_requires_evidence_handle": True, "credit_basis": "evidence_handle"}
    row.update(kw)
    return {k: v for k, v in row.items() if v is not None}


PAIR = [ev("a", 1), replay("on", 20, "on"), replay("off", 21, "off")]

ROW_RULES = [
    ("temporal_conflict_edge_absent", [ev("a", 1), ev("u", 2, "UPDATE", prior_write_ref="a",
                                                       conflict_edge_ref=None)], "u"),
    ("temporal_conflict_edge_early", [ev("u", 1, "UPDATE", prior_write_ref="a"), ev("a", 2)],
     "u"),
    ("temporal_noop_before_evidence", [ev("a", 1), ev("n", 2, "NOOP", depends_on=["edge:u"]),
                                       ev("u", 3, "UPDATE", prior_write_ref="a")], "n"),
    ("semantic_prior_write_missing", [ev("a", 1), ev("u", 2, "UPDATE", group="other",
                                                     prior_write_ref="a")], "u"),
    ("semantic_prior_write_not_latest", [ev("a", 1), ev("u1", 2, "UPDATE", prior_write_ref="a"),
                                         ev("u2", 3, "UPDATE", prior_write_ref="a")], "u2"),
    ("semantic_prior_body_mismatch", [ev("a", 1), ev("u", 2, "UPDATE", prior_write_ref="a",
                                                     prior_body_sha256=sha("other"))], "u"),
    ("semantic_add_over_live_write", [ev("a", 1), ev("b", 2)], "b"),
    ("semantic_timestamp_not_later", [ev("a", 1), ev("u", 2, "UPDATE", prior_write_ref="a",
                                                     event_time="2026-03-01T09:00:00Z")], "u"),
    ("semantic_priority_fell", [ev("a", 1, priority=2), ev("u", 2, "UPDATE", prior_write_ref="a",
                                                           priority=1)], "u"),
    ("semantic_trust_below_floor", [ev("a", 1, source_trust=0.5),
                                    ev("u", 2, "UPDATE", prior_write_ref="a", source_trust=0.55)],
     "u"),
    ("semantic_trust_fell", [ev("a", 1, source_trust=0.9), ev("u", 2, "UPDATE",
                                                              prior_write_ref="a",
                                                              source_trust=0.7)], "u"),
    ("replay_cold_reference_missing", [ev("a", 1), replay("on", 2, "on", cold_replay_ref=None)],
     "on"),
    ("replay_evidence_unresolved", [ev("a", 1), replay("on", 2, "on", evidence_refs=["m-g"])],
     "on"),
    ("replay_pair_mismatch", [*PAIR, replay("off2", 22, "off", group="r2"),
                              delta("d", 23, memory_off_ref="off2")], "d"),
    ("replay_evidence_handle_missing", [*PAIR, delta(
        "d", 23, memory_credit_requires_evidence_handle=False)], "d"),
    ("replay_final_answer_only", [*PAIR, delta("d", 23, credit_basis="final_answer_only")], "d"),
]


@pytest.mark.parametrize(("code", "rows", "row_id"), ROW_RULES, ids=[r[0] for r in ROW_RULES])
def test_each_row_rule_quarantines_with_its_code(code, rows, row_id):
    result = validate_log(rows)
    verdict = result.row(row_id)
    assert (verdict.status, verdict.code) == ("quarantined", ReasonCode(code))
    assert result.check(ReasonCode(code).check).status == "blocked"
    assert result.status == "blocked"
    others = [v for v in result.rows if v.id != row_id]
    assert all(v.status == "accepted" for v in others if v.sequence < verdict.sequence)


FULL_STORY = [ev("a", 1), ev("f", 2, group="fact"),
              ev("u", 3, "UPDATE", prior_write_ref="a"),
              ev("x", 4, "DELETE", group="fact", prior_write_ref="f", body_sha256=None),
              ev("n", 5, "NOOP", depends_on=["edge:u", "down:x"], prompt_adoption_ref="p",
                 body_sha256=None),
              replay("on", 20, "on", evidence_refs=["u"], prompt_adoption_ref="p2"),
              replay("off", 21, "off"),
              delta("d", 22, evidence_handle="u")]

def without(rows, *fields, **replace):
    return [replace.get(r["id"]) or {k: v for k, v in r.items() if k not in fields}
            for r in rows]


LOG_RULES = [
    ("intake_malformed_line", FULL_STORY + [{"kind": "replay"}], {}),
    ("replay_pair_unbound", FULL_STORY[:-1], {}),
    ("floor_decision_missing", [r for r in FULL_STORY if r["id"] != "n"], {}),
    ("floor_conflict_edges_short", FULL_STORY, {"floor": PositiveFloor(conflict_edges=3)}),
    ("floor_stale_downgrade_missing", without(FULL_STORY, "downgrade_evidence_ref", n=ev(
        "n", 5, "NOOP", depends_on=["edge:u"], prompt_adoption_ref="p", body_sha256=None)),
     {}),
    ("floor_prompt_adoption_missing", without(FULL_STORY, "prompt_adoption_ref"), {}),
    ("negative_case_missed", FULL_STORY + [ev("z", 9, group="z",
                                              negative_case="stale_preference_override")], {}),
    ("negative_case_absent", FULL_STORY, {"require": True}),
]


def test_the_full_story_passes_every_check():
    result = validate_log(FULL_STORY)
    assert result.status == "pass", [(f.code, f.detail) for f in result.findings]


@pytest.mark.parametrize(("code", "rows", "opts"), LOG_RULES, ids=[r[0] for r in LOG_RULES])
def test_each_log_level_rule_blocks_with_its_code(code, rows, opts):
    config = ValidatorConfig(require_negative_cases=opts.get("require", False),
                             floor=opts.get("floor", PositiveFloor()))
    result = validate_log(rows, config=config)
    assert result.status == "blocked"
    assert {f.code for f in result.findings} == {ReasonCode(code)}
    assert result.check(ReasonCode(code).check).status == "blocked"


def test_every_reason_code_has_a_case():
    covered = {c for c, _, _ in ROW_RULES} | {c for c, _, _ in LOG_RULES} | {
        "intake_raw_text_field", "intake_digest_mismatch"}
    assert covered == {c.value for c in ReasonCode}


def test_labels_are_not_trusted_a_quarantined_row_is_never_a_prior_write():
    rows = [ev("a", 1), ev("u1", 2, "UPDATE", prior_write_ref="a", source_trust=0.3),
            ev("u2", 3, "UPDATE", prior_write_ref="u1"),
            replay("on", 4, "on", evidence_refs=["u1"])]
    result = validate_log(rows)
    assert [(v.id, v.code and v.code.value) for v in result.rows] == [
        ("a", None), ("u1", "semantic_trust_below_floor"),
        ("u2", "temporal_conflict_edge_early"), ("on", "replay_evidence_unresolved")]


def test_trust_floor_is_configurable():
    rows = [ev("a", 1, source_trust=0.5), ev("u", 2, "UPDATE", prior_write_ref="a",
                                                 source_trust=0.55)]
    assert validate_log(rows, config=ValidatorConfig(trust_floor=0.5)).row("u").status == \
        "accepted"


def test_missing_fields_are_unverifiable_never_assumed():
    rows = [ev("a", 1), ev("u", 2, "UPDATE", prior_write_ref="a", priority=None),
            ev("u2", 3, "UPDATE", prior_write_ref="u")]
    config = ValidatorConfig(disabled_checks=frozenset({CheckName.positive_floor}))
    result = validate_log(rows, config=config)
    assert result.row("u").status == "unverified" and result.row("u").unverifiable == (
        "priority",)
    # its prior is unverified, and has no priority to compare with
    assert result.row("u2").unverifiable == ("prior_write", "priority")
    assert result.status == "unverified"
    assert result.counts.by_status == {"accepted": 1, "quarantined": 0, "unverified": 2}
    assert result.counts.unverifiable_fields == {"prior_write": 1, "priority": 2}


# -- adapters ---------------------------------------------------------------------------------
MEM0_SCHEMA = """
CREATE TABLE history (
    id           TEXT PRIMARY KEY,
    memory_id    TEXT,
    old_memory   TEXT,
    new_memory   TEXT,
    event        TEXT,
    created_at   DATETIME,
    updated_at   DATETIME,
    is_deleted   INTEGER,
    actor_id     TEXT,
    role         TEXT
)"""


def mem0_db(path: Path, rows: list[tuple]) -> Path:
    """A history database laid out as Mem0's ``SQLiteManager`` writes it."""
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(MEM0_SCHEMA)
        conn.executemany(
            "INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, "
            "updated_at, is_deleted, actor_id, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*r, None, "user") for r in rows])
    return path


T1, T2, T3 = ("2026-03-02T09:00:00+00:00", "2026-03-09T14:00:00+00:00",
              "2026-03-10T08:00:00-08:00")
MEM0_GOOD = [
    ("h1", "mem-a", None, f"Likes tea {MARKER}", "ADD", T1, None, 0),
    ("h2", "mem-a", f"Likes tea {MARKER}", "Likes coffee", "UPDATE", T1, T2, 0),
    ("h3", "mem-a", "Likes coffee", None, "DELETE", None, None, 1),
    ("h4", "mem-b", None, "Lives in Oslo", "ADD", T2, None, 0),
]


def test_mem0_history_reports_what_it_cannot_carry(tmp_path):
    db = mem0_db(tmp_path / "history.db", MEM0_GOOD)
    adapted = from_mem0_history(db)
    assert {"priority", "source_trust", "conflict_edge_ref", "event_time"} <= set(
        adapted.unverifiable_fields)
    config = ValidatorConfig(disabled_checks=frozenset({CheckName.positive_floor}))
    result = validate_log(adapted, out_dir=tmp_path / "out", config=config)
    statuses = {v.id: (v.decision, v.status) for v in result.rows}
    assert statuses == {"h1": ("ADD", "accepted"), "h2": ("UPDATE", "unverified"),
                        "h3": ("DELETE", "unverified"), "h4": ("ADD", "accepted")}
    assert set(result.row("h2").unverifiable) == {"conflict_edge_ref", "priority",
                                                  "source_trust"}
    assert {"event_time", "prior_write"} <= set(result.row("h3").unverifiable)
    assert result.status == "unverified"
    assert result.source.format == "mem0-sqlite"
    assert MARKER.encode() not in output_bytes(tmp_path / "out")


def test_mem0_lost_update_and_backdated_update_are_quarantined(tmp_path):
    rows = MEM0_GOOD + [
        ("h5", "mem-b", "Lives in Bergen", "Lives in Paris", "UPDATE", T2, T3, 0),
        ("h6", "mem-c", None, "Owns a cat", "ADD", T2, None, 0),
        ("h7", "mem-c", "Owns a cat", "Owns a dog", "UPDATE", T2, T1, 0),
    ]
    result = validate_log(from_mem0_history(mem0_db(tmp_path / "h.db", rows)))
    assert result.row("h5").code == ReasonCode.semantic_prior_body_mismatch
    assert result.row("h7").code == ReasonCode.semantic_timestamp_not_later
    assert result.status == "blocked"


def test_mem0_legacy_layout_and_bad_files(tmp_path):
    legacy = tmp_path / "legacy.db"
    with closing(sqlite3.connect(legacy)) as conn, conn:
        conn.execute("CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, prev_value "
                     "TEXT, new_value TEXT, event TEXT, timestamp DATETIME, is_deleted INTEGER)")
        conn.execute("INSERT INTO history VALUES ('l1', 'm', NULL, 'x', 'ADD', "
                     "'2024-05-01T10:00:00', 0)")
    adapted = from_mem0_history(legacy)
    assert adapted.rows[0]["event_time"] is None          # naive: not guessed
    assert "naive" in adapted.unverifiable_fields["event_time"]
    not_db = tmp_path / "not.db"
    not_db.write_text("hello")
    with pytest.raises(LogInputError, match="not a readable SQLite"):
        from_mem0_history(not_db)
    empty = tmp_path / "empty.db"
    with closing(sqlite3.connect(empty)) as conn, conn:
        conn.execute("CREATE TABLE other (x)")
    with pytest.raises(LogInputError, match="no 'history' table"):
        from_mem0_history(empty)


def test_contrascan_verdicts_audit_themselves(tmp_path, engine):
    records = [
        {"id": "m1", "text": f"The preferred glaze is celadon. {MARKER}", "user_id": "u1",
         "source": "chat:1", "source_class": "user", "observed_at": "2026-03-01T10:00:00Z",
         "epoch": "e1", "priority": 1, "source_trust": 0.8},
        {"id": "m2", "text": "The preferred glaze is tenmoku.", "user_id": "u1",
         "source": "chat:2", "source_class": "user", "observed_at": "2026-03-05T10:00:00Z",
         "epoch": "e1", "priority": 1, "source_trust": 0.9},
        {"id": "m3", "text": "Dana works at Acme.", "user_id": "u1", "source": "chat:3",
         "source_class": "user", "observed_at": "2026-03-02T10:00:00Z", "epoch": "e1"},
    ]
    records_file = write_jsonl(tmp_path / "memories.jsonl", records)
    report = engine.scan_file(records_file)
    assert [c.winner for c in report.conflicts if c.verdict == "resolved"] == ["m2"]
    report_file = tmp_path / "report.json"
    report_file.write_text(json.dumps(report.to_json_dict()))
    adapted = read_contrascan(records_file, report_file)
    assert adapted.unverifiable_fields == {"priority": "1 of 3 records carry no priority",
                                           "source_trust": "1 of 3 records carry no "
                                                           "source_trust"}
    config = ValidatorConfig(disabled_checks=frozenset({CheckName.positive_floor}))
    result = validate_log(adapted, out_dir=tmp_path / "out", config=config)
    decided = {v.id.split("@")[0]: (v.decision, v.status) for v in result.rows}
    assert decided == {"m1": ("ADD", "accepted"), "m2": ("UPDATE", "accepted"),
                       "m3": ("ADD", "accepted")}
    assert result.status == "pass"
    assert MARKER.encode() not in output_bytes(tmp_path / "out")


def test_contrascan_older_observation_that_wins_makes_the_newer_write_a_noop():
    rec = [MemoryRecord(id="obs", text="Timeout is 30s.", user_id="u", source="tool",
                        source_class="observation", observed_at="2026-03-01T00:00:00Z",
                        epoch="e", priority=1, source_trust=0.9),
           MemoryRecord(id="said", text="Timeout is 60s.", user_id="u", source="chat",
                        source_class="user", observed_at="2026-03-02T00:00:00Z", epoch="e")]
    report = ScanReport.model_validate({
        "scanned": 2, "conflicts": [{
            "key": {"user_id": "u", "subject": "timeout", "relation": "be"},
            "kind": "value_mismatch", "members": ["obs", "said"],
            "values": {"obs": "30 seconds", "said": "60 seconds"}, "verdict": "resolved",
            "winner": "obs", "superseded": ["said"], "latest": "said",
            "rule": "source_class"}],
        "cite": ["obs"], "withhold": ["said"]})
    adapted = from_contrascan(rec, report)
    assert [(r["decision"], r.get("downgrade_evidence_ref")) for r in adapted.rows] == [
        ("ADD", None), ("NOOP", "supersedes:obs>said")]
    assert all("timeout" not in json.dumps(r) for r in adapted.rows)   # keys are digested
    result = validate_log(adapted, config=ValidatorConfig(
        disabled_checks=frozenset({CheckName.positive_floor})))
    assert result.status == "pass"


# -- the command ------------------------------------------------------------------------------
def test_cli_fixture_run_json(tmp_path):
    res = CliRunner().invoke(main, ["validate-log", "--fixture", "--out", str(tmp_path),
                                    "--json"])
    assert res.exit_code == 0, res.output
    record = json.loads(res.stdout)
    assert record["status"] == "pass" and set(record["paths"]) == set(RECORD_FILES)


def test_cli_blocked_and_unverified_exit_codes(tmp_path):
    bodies = write_jsonl(tmp_path / "bodies.jsonl",
                         [{"ref": k, "body": v + "!"} for k, v in fixture_bodies().items()])
    blocked = CliRunner().invoke(main, ["validate-log", str(FIXTURE_LOG), "--bodies",
                                        str(bodies), "--out", str(tmp_path / "b")])
    assert blocked.exit_code == 3
    assert blocked.stdout.startswith("validate-log: blocked")
    db = mem0_db(tmp_path / "history.db", MEM0_GOOD)
    unverified = CliRunner().invoke(main, ["validate-log", str(db), "--format", "mem0-sqlite",
                                           "--skip-check", "positive_floor",
                                           "--out", str(tmp_path / "u")])
    assert unverified.exit_code == 4, unverified.output
    assert "unverifiable:" in unverified.stdout


@pytest.mark.parametrize("args", [
    [],                                                   # neither FILE nor --fixture
    ["--fixture"],                                        # no --out
    ["{tmp}/missing.jsonl", "--out", "{out}"],
    ["--fixture", "--out", "{out}", "--format", "yaml"],
    ["--fixture", "--out", "{out}", "--trust-floor", "2"],
    ["--fixture", "--out", "{out}", "--format", "contrascan"],
    ["{tmp}/x.jsonl", "--fixture", "--out", "{out}"],
])
def test_cli_user_mistakes_are_one_line_and_exit_1(tmp_path, args):
    out = tmp_path / "o"
    res = CliRunner().invoke(main, ["validate-log",
                                    *(a.format(tmp=tmp_path, out=out) for a in args)])
    assert not out.exists()
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("contrascan: ") and res.stderr.count("\n") == 1
    assert "Traceback" not in res.output


def test_a_change_printed_as_one_conflict_audits_as_its_pairs(tmp_path):
    """A report as scan-file prints it (scanner.core.changes), with the ``ignored`` field
    beside it: a merged change is read back as its pairs, each under its own key."""
    rec = [MemoryRecord(id=i, text=t, user_id="u", source="chat", source_class="user",
                        observed_at=f"2026-03-0{n}T00:00:00Z", epoch="e")
           for n, (i, t) in enumerate([("c1", "My budget is $500."), ("c2", "My rent is $1200."),
                                       ("c3", "My budget is $700 and my rent is $1500.")], 1)]
    budget = {"user_id": "u", "subject": "user", "relation": "budget"}
    report = {
        "scanned": 3, "conflicts": [{
            "key": budget, "kind": "value_mismatch", "members": ["c1", "c2", "c3"],
            "values": {"c1": "500 usd", "c2": "1200 usd", "c3": "700 usd"},
            "verdict": "resolved", "winner": "c3", "superseded": ["c1", "c2"], "latest": "c3",
            "rule": "recency", "reasons": ["relation:rent@c2"]}],
        "cite": ["c3"], "withhold": ["c1", "c2"], "ignored": []}
    (tmp_path / "m.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in rec))
    (tmp_path / "r.json").write_text(json.dumps(report))
    adapted = read_contrascan(tmp_path / "m.jsonl", tmp_path / "r.json")
    rows = sorted((r["decision"], r.get("downgrade_evidence_ref")) for r in adapted.rows)
    assert rows == [("ADD", None), ("ADD", None), ("UPDATE", "supersedes:c3>c1"),
                    ("UPDATE", "supersedes:c3>c2")]
