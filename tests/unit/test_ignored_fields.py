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
