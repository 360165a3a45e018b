"""Fields outside the record format are ignored, never a reason to drop a memory, and reported
once per field with the lines that carried them (the first few and a count), on stderr and in
``--json`` beside the rejected lines."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scanner.cli import main
from scanner.records import IGNORED_LINES_SHOWN, IgnoredFields, read_jsonl


def test_five_lines_are_listed():
    assert IGNORED_LINES_SHOWN == 5  # the summary below lists five


def write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def memory(i, **extra):
    return {"id": f"m{i}", "text": f"Note number {i} is here.", "user_id": "u1", **extra}


def test_the_lines_of_each_ignored_field_are_noted(tmp_path):
    rows = [memory(i, created_at="2026-01-01") for i in range(1, 9)]
    rows[2]["hash"] = "h3"
    rows.insert(4, "")  # a blank line still counts as a line
    rows.insert(6, "{not json")  # a rejected line carries no field of its own
    ignored = IgnoredFields()
    records, rejected = read_jsonl(write(tmp_path / "m.jsonl", rows), ignored=ignored)
    assert len(records) == 8 and [b.line for b in rejected] == [7]
    fields = [f.model_dump() for f in ignored.fields()]
    assert fields == [
        {"field": "created_at", "count": 8, "lines": [1, 2, 3, 4, 6]},
        {"field": "hash", "count": 1, "lines": [3]}]
    assert ignored.summary() == "created_at on 8 lines (1, 2, 3, 4, 6 and 3 more), " \
                                "hash on 1 line (3)"


def test_a_field_name_is_reported_printable():
    ignored = IgnoredFields()
    ignored.add("bad\x1bname", 4)
    assert ignored.fields()[0].field == "bad\\x1bname"
    assert not IgnoredFields() and ignored


def test_scan_file_names_the_fields_and_their_lines(tmp_path):
    path = write(tmp_path / "m.jsonl", [memory(1, created_at="x"), memory(2),
                                        memory(3, created_at="y", metadata={})])
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 0, result.output  # kept: nothing was rejected
    report = json.loads(result.stdout)
    assert report["scanned"] == 3 and report["rejected"] == []
    assert report["ignored"] == [{"field": "created_at", "count": 2, "lines": [1, 3]},
                                 {"field": "metadata", "count": 1, "lines": [3]}]
    assert result.stderr.strip().splitlines() == [
        "contrascan: ignored fields outside the record format (the memories are kept): "
        "created_at on 2 lines (1, 3), metadata on 1 line (3)"]
    human = CliRunner().invoke(main, ["scan-file", str(path)])
    assert human.exit_code == 0 and "created_at on 2 lines (1, 3)" in human.stderr


def test_scan_file_json_lists_no_ignored_field_when_there_is_none(tmp_path):
    path = write(tmp_path / "m.jsonl", [memory(1)])
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert json.loads(result.stdout)["ignored"] == [] and result.stderr == ""


def mem0_item(i, **extra):
    """An item as Mem0's Memory.get_all / Memory.search gives it: the text under 'memory'."""
    return {"id": f"m{i}", "memory": f"Note number {i} is here.", "hash": f"h{i}",
            "metadata": None, "created_at": "2026-01-01T00:00:00+00:00", "updated_at": None,
            "user_id": "u1", **extra}


HINT = ("Field required: the memory's text goes in 'text'; this record has 'memory', which "
        "is what Mem0 calls it: rename 'memory' to 'text'")


def test_a_mem0_item_posted_as_a_record_is_told_the_text_is_called_text():
    """Issue 35: a Mem0-shaped record ({"memory": ...}) got a bare "Field required" on
    records.0.text; the answer says the field is called text and that memory is Mem0's."""
    import contextlib

    from fastapi.testclient import TestClient

    from scanner.api import create_app

    client = TestClient(create_app(service_factory=lambda: contextlib.nullcontext(None),
                                   warm_up=False))
    answer = client.post("/v1/memories", json={"user_id": "u1", "records": [
        {"id": "m0", "text": "Note zero.", "user_id": "u1"}, mem0_item(1)]})
    assert answer.status_code == 422
    assert answer.json()["error"] == {
        "code": "validation_error", "message": f"records.1.text: {HINT}",
        "fields": [{"field": "records.1.text", "message": HINT, "type": "missing"}]}
    # a record that lacks its text without naming it otherwise is told as before
    plain = client.post("/v1/memories", json={"user_id": "u1", "records": [
        {"id": "m1", "user_id": "u1"}]})
    assert plain.json()["error"]["message"] == "records.0.text: Field required"


def test_a_mem0_export_is_rejected_line_by_line_naming_the_text_field(tmp_path):
    path = write(tmp_path / "mem0.jsonl", [mem0_item(1), memory(2),
                                           mem0_item(3, user_id=None)])
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    report = json.loads(result.stdout)
    assert report["scanned"] == 1
    assert [(r["line"], r["id"], r["field"], r["reason"]) for r in report["rejected"]] == [
        (1, "m1", "text", HINT),
        (3, "m3", "text", f"{HINT}; also field 'user_id': Input should be a valid string")]
    assert f"line 1 (id 'm1'): field 'text': {HINT}" in result.stderr
