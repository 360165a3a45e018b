"""One bad line never costs the others (issue 18 items 4-6): every line below becomes a rejected
line with its number and field, the good lines around it are read, and the report can be
printed and written as JSON."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from scanner.cli import main
from scanner.models import MAX_SAFE_INTEGER
from scanner.records import read_jsonl

GOOD = {"id": "good", "text": "The preferred glaze is celadon.", "user_id": "u1"}


def _line(**fields) -> str:
    return json.dumps({**GOOD, "id": "bad", **fields})


BAD_LINES = [
    # (line, field, words of the reason)
    (_line(observed_at="0001-01-01T00:00:00+01:00"), "observed_at", "converted to UTC"),
    (_line(observed_at="9999-12-31T23:30:00-01:00"), "observed_at", "converted to UTC"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "properties": '
     + "[" * 50_000 + "]" * 50_000 + "}", "<line>", "nested too deeply"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "priority": ' + "7" * 5_000 + "}",
     "<line>", "4300 digits"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "properties": {"\\ud800": "v"}}',
     "properties", "lone surrogate"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "properties": {"k": "\\udfff"}}',
     "properties", "lone surrogate"),
    ('{"id": "bad\\ud800", "text": "x", "user_id": "u1"}', "id", "lone surrogate"),
    ('{"id": "bad", "text": "x \\ud800", "user_id": "u1"}', "text", "lone surrogate"),
    ('{"id": "bad", "text": "x", "user_id": "u\\ud800"}', "user_id", "lone surrogate"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "epoch": "\\ud83d"}', "epoch", "surrogate"),
    (_line(priority=2**63 - 1), "priority", "less than or equal"),
    (_line(priority=MAX_SAFE_INTEGER + 2), "priority", "less than or equal"),
    (_line(priority=-(MAX_SAFE_INTEGER + 2)), "priority", "greater than or equal"),
    (_line(priority="5"), "priority", "valid integer"),
    (_line(priority=True), "priority", "valid integer"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "confidence": NaN}', "confidence", "finite"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "source_trust": Infinity}', "source_trust",
     "finite"),
    (_line(confidence="0.5"), "confidence", "valid number"),
    # a name given twice: which user is meant is unknown (issue 38, item 7)
    ('{"id": "bad", "text": "x", "user_id": "alice", "user_id": "bob"}', "user_id",
     "given twice"),
    ('{"id": "bad", "text": "x", "user_id": "u1", "properties": {"k": 1, "k": 2}}', "<line>",
     "given twice"),
]


@pytest.mark.parametrize(("bad", "field", "reason"), BAD_LINES,
                         ids=[f"{i}-{case[1]}" for i, case in enumerate(BAD_LINES)])
def test_a_bad_line_is_rejected_with_its_number_and_field(bad, field, reason):
    text = "\n".join([json.dumps(GOOD), bad, json.dumps({**GOOD, "id": "after"})]) + "\n"
    records, rejected = read_jsonl(io.BytesIO(text.encode("utf-8", "surrogatepass")))
    assert [r.id for r in records] == ["good", "after"]
    (line,) = rejected
    assert (line.line, line.field) == (2, field)
    assert reason.lower() in line.reason.lower()
    json.dumps(line.model_dump(), ensure_ascii=False).encode("utf-8")  # printable as UTF-8


def test_the_largest_safe_priority_is_accepted():
    text = "\n".join(_line(id=f"p{sign}", priority=sign * MAX_SAFE_INTEGER) for sign in (1, -1))
    records, rejected = read_jsonl(io.StringIO(text))
    assert rejected == [] and [r.priority for r in records] == [MAX_SAFE_INTEGER,
                                                                 -MAX_SAFE_INTEGER]


def test_scan_file_json_survives_every_bad_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    lines = [json.dumps(GOOD)] + [bad for bad, _, _ in BAD_LINES]
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 65, result.output  # lines rejected, the rest scanned
    assert "Traceback" not in result.output
    report = json.loads(result.stdout)
    assert report["scanned"] == 1
    assert [r["line"] for r in report["rejected"]] == list(range(2, len(BAD_LINES) + 2))


def test_an_oversized_id_is_cut_where_the_rejection_repeats_it():
    line = json.dumps({"id": "x" * 100_000, "text": "I live in Leeds.", "user_id": "u"})
    records, rejected = read_jsonl(io.BytesIO(line.encode() + b"\n"))
    assert records == [] and [r.field for r in rejected] == ["id"]
    assert rejected[0].id == "x" * 79 + "…(100000 characters)"


def test_a_utf16_file_is_named_once_not_line_by_line():
    text = "\n".join(json.dumps({"id": f"m{i}", "text": "I live in Leeds.", "user_id": "u"})
                     for i in range(3)) + "\n"
    records, rejected = read_jsonl(io.BytesIO(text.encode("utf-16")))
    assert records == [] and len(rejected) == 1
    assert rejected[0].field == "<file>" and "UTF-16" in rejected[0].reason


@pytest.mark.parametrize(("line", "record_id"), [
    ('{"id": "m7", "text": "I live in Oslo.", "user_id": "u1",}', "m7"),
    ('{"text": "I live in Oslo.", "id": "m\\"8", "user_id": "u1"', 'm"8'),
    ('{"id": "m9" "text": "I live in Oslo."}', None),  # the member is not complete
    ('{"id": "m\\ud800", "text": "x",}', None),
    ("not json at all", None),
])
def test_a_line_that_is_not_json_is_named_by_the_id_it_shows(line, record_id):
    records, rejected = read_jsonl(io.StringIO(json.dumps(GOOD) + "\n" + line + "\n"))
    assert [r.id for r in records] == ["good"]
    assert [(r.line, r.id, r.field) for r in rejected] == [(2, record_id, "<line>")]

