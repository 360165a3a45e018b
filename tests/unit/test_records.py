"""Memory records (SPEC §4): validation, line-numbered rejections, nothing else lost."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from scanner.cli import main
from scanner.errors import RecordError
from scanner.models import MemoryRecord, SourceClass
from scanner.records import parse_record, read_jsonl

GOOD = {"id": "m1", "text": "My name is Ana.", "user_id": "u1", "source": "chat",
        "source_class": "user", "observed_at": "2026-03-02T10:00:00Z", "epoch": "e1"}


def lines(*objs) -> io.StringIO:
    return io.StringIO("".join((o if isinstance(o, str) else json.dumps(o)) + "\n"
                               for o in objs))


def test_good_record_is_utc_and_frozen():
    r = parse_record(dict(GOOD, observed_at="2026-03-02T12:00:00+02:00"))
    assert r.observed_at.utcoffset().total_seconds() == 0 and r.observed_at.hour == 10
    with pytest.raises(Exception):
        r.text = "changed"  # frozen


def test_source_class_default_is_least_trusted():
    r = parse_record({"id": "x", "text": "t", "user_id": "u"})
    assert r.source_class is SourceClass.inference
    assert r.missing_provenance() == ["source", "observed_at", "epoch"]


@pytest.mark.parametrize(("change", "field", "reason"), [
    ({"observed_at": "2026-03-02T10:00:00"}, "observed_at", "naive timestamp"),
    ({"source_class": "rumour"}, "source_class", "observation"),
    ({"text": "   "}, "text", "blank"),
    ({"confidence": 1.5}, "confidence", "less than or equal"),
    ({"obseved_at": "2026-03-02T10:00:00Z"}, "obseved_at", "not permitted"),
])
def test_bad_field_is_named(change, field, reason):
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, **change), line=7)
    assert err.value.field == field and err.value.line == 7 and err.value.record_id == "m1"
    assert reason in str(err.value)


def test_every_field_at_fault_is_named():
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, text="", user_id="", observed_at="last tuesday"), line=3)
    assert err.value.field == "text"
    assert err.value.fields == ("text", "user_id", "observed_at")
    message = str(err.value)
    assert message.startswith("line 3 (id 'm1'): field 'text': ")
    assert "also field 'user_id': " in message and "field 'observed_at': " in message


def test_one_field_at_fault_is_named_alone():
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, user_id=""), line=3)
    assert err.value.fields == ("user_id",) and "also" not in err.value.reason


@pytest.mark.parametrize("missing", ["id", "text", "user_id"])
def test_required_fields(missing):
    data = {k: v for k, v in GOOD.items() if k != missing}
    with pytest.raises(RecordError) as err:
        parse_record(data, line=1)
    assert err.value.field == missing


def test_bad_lines_are_reported_and_the_rest_kept():
    stream = lines(GOOD, "{not json", dict(GOOD, id="m2", observed_at="2026-01-01T00:00:00"),
                   "", dict(GOOD, id="m3"), dict(GOOD), [1, 2])
    records, rejected = read_jsonl(stream)
    assert [r.id for r in records] == ["m1", "m3"]
    assert [(b.line, b.field) for b in rejected] == [
        (2, "<line>"), (3, "observed_at"), (6, "id"), (7, "<line>")]
    assert rejected[2].reason.startswith("duplicate id (first seen on line 1)")


def test_scan_file_reports_bad_lines_on_stderr_and_scans_the_rest(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text(lines(GOOD, dict(GOOD, id="m2", text="My name is Priya.",
                                     observed_at="2026-04-01T00:00:00Z"),
                          dict(GOOD, id="m3", observed_at="yesterday")).getvalue())
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 65  # EX_DATAERR: lines were rejected (docs/cli.md, exit codes)
    report = json.loads(result.stdout)
    assert report["scanned"] == 2 and report["rejected"][0]["line"] == 3
    assert "line 3 (id 'm3'): field 'observed_at'" in result.stderr
    assert [c["winner"] for c in report["conflicts"]] == ["m2"]


def test_missing_file_is_one_line_error(tmp_path):
    result = CliRunner().invoke(main, ["scan-file", str(tmp_path / "nope.jsonl")])
    assert result.exit_code == 1  # SPEC §6: 0 clean, 1 error, 3 conflicts
    assert result.stderr.strip().splitlines() == [
        f"contrascan: Invalid value for 'FILE': File '{tmp_path / 'nope.jsonl'}' does not "
        "exist."]


def test_usage_mistakes_are_one_line_errors_with_exit_code_1():
    for args in (["frobnicate"], ["scan-file", "--bogus", "x"], ["history"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert len(result.stderr.strip().splitlines()) == 1 and "Usage:" not in result.stderr


def test_memory_record_rejects_unknown_fields():
    with pytest.raises(Exception):
        MemoryRecord(id="a", text="b", user_id="c", colour="x")


def test_non_utf8_line_and_bom_cost_only_themselves(tmp_path):
    good = json.dumps(GOOD).encode()
    other = json.dumps(dict(GOOD, id="m3")).encode()
    path = tmp_path / "m.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + good + b"\n" + b'{"id": "m2", "text": "caf\xe9"}\n'
                     + other + b"\n")
    records, rejected = read_jsonl(path)
    assert [r.id for r in records] == ["m1", "m3"]
    assert [(b.line, b.field, b.id) for b in rejected] == [(2, "<line>", "m2")]
    assert "not UTF-8" in rejected[0].reason


def test_a_bad_byte_inside_the_id_names_no_record(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_bytes(b'{"id": "m\xe92", "text": "tea"}\n' + json.dumps(GOOD).encode() + b"\n")
    records, rejected = read_jsonl(path)
    assert [r.id for r in records] == ["m1"]
    assert [(b.line, b.id) for b in rejected] == [(1, None)]


def test_blank_user_id_is_rejected():
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, user_id="   "))
    assert err.value.field == "user_id"


def test_fields_of_other_memory_systems_are_ignored_and_counted():
    """An export from another memory system keeps every memory: its extra fields are ignored
    (counted once per field), and updated_at never stands in for observed_at."""
    import io
    import json

    from scanner.records import IgnoredFields, read_jsonl

    lines = [{"id": "m1", "text": "My preferred airline is KLM.", "user_id": "u1",
              "created_at": "2026-02-01T10:00:00Z", "updated_at": "2026-03-01T10:00:00Z",
              "metadata": {"category": "travel"}, "hash": "a1"},
             {"id": "m2", "text": "I live in Porto.", "user_id": "u1", "hash": "b2"}]
    ignored = IgnoredFields()
    records, rejected = read_jsonl(io.StringIO("".join(json.dumps(x) + "\n" for x in lines)),
                                   ignored=ignored)
    assert [r.id for r in records] == ["m1", "m2"] and rejected == []
    assert ignored.counts() == {"created_at": 1, "hash": 2, "metadata": 1, "updated_at": 1}
    assert records[0].observed_at is None


def test_a_rejected_line_is_not_counted_among_the_kept_lines_with_ignored_fields():
    import io

    from scanner.records import IgnoredFields

    lines = [dict(GOOD, hash="a1"), {"id": "m2", "user_id": "u1", "hash": "b2"},
             dict(GOOD, hash="c3")]  # (the third repeats m1's id)
    ignored = IgnoredFields()
    records, rejected = read_jsonl(io.StringIO("".join(json.dumps(x) + "\n" for x in lines)),
                                   ignored=ignored)
    assert [r.id for r in records] == ["m1"] and [b.line for b in rejected] == [2, 3]
    assert [(f.field, f.lines) for f in ignored.fields()] == [("hash", [1])]


def test_a_numeric_id_is_named_in_the_rejection():
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, id=7))
    assert (err.value.field, err.value.record_id) == ("id", "7")


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_one_error_with_or_without_a_byte_order_mark(tmp_path, codec):
    path = tmp_path / "m.jsonl"
    path.write_bytes((json.dumps(GOOD) + "\n" + json.dumps(dict(GOOD, id="m2")) + "\n")
                     .encode(codec))
    records, rejected = read_jsonl(path)
    assert records == [] and [(b.line, b.field) for b in rejected] == [(1, "<file>")]
    assert "UTF-16" in rejected[0].reason


def test_a_json_error_names_its_column_on_the_line_and_an_array_is_named(tmp_path):
    path = tmp_path / "m.jsonl"
    good = json.dumps(dict(GOOD, id="m2"))
    path.write_text('[{"id": "m1"}]\n' + json.dumps(GOOD)[:-1] + "\n" + good + "\n")
    records, rejected = read_jsonl(path)
    assert [r.id for r in records] == ["m2"]
    assert [(b.line, b.field) for b in rejected] == [(1, "<line>"), (2, "<line>")]
    assert "JSON array" in rejected[0].reason
    assert f"column {len(json.dumps(GOOD))}" in rejected[1].reason
