"""JSON null for an optional field of a memory record means the field is absent (SPEC §4:
only id, text and user_id are required): a newcomer's export wrote "source_class": null and
lost the memory."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scanner.api.schemas import MemoryInput
from scanner.cli import main
from scanner.errors import RecordError
from scanner.models import MemoryRecord
from scanner.records import parse_record, read_jsonl

GOOD = {"id": "m1", "text": "My name is Ana.", "user_id": "u1", "group": "g",
        "properties": {"rack_id": "4"}, "source": "chat", "source_class": "user",
        "observed_at": "2026-03-02T10:00:00Z", "epoch": "e1", "confidence": 0.5,
        "priority": 1, "source_trust": 0.5}
OPTIONAL = sorted(name for name, info in MemoryRecord.model_fields.items()
                  if not info.is_required())


def test_every_field_is_in_the_example():
    assert set(GOOD) == set(MemoryRecord.model_fields)
    assert {"source_class", "properties", "group", "epoch"} <= set(OPTIONAL)


@pytest.mark.parametrize("field", OPTIONAL)
def test_null_is_absent(field):
    absent = {k: v for k, v in GOOD.items() if k != field}
    assert parse_record(dict(GOOD, **{field: None})) == parse_record(absent)
    assert MemoryInput.model_validate(dict(GOOD, **{field: None})) == \
        MemoryInput.model_validate(absent)  # the same record posted to POST /v1/memories


@pytest.mark.parametrize("field", sorted(set(MemoryRecord.model_fields) - set(OPTIONAL)))
def test_null_is_still_refused_for_a_required_field(field):
    with pytest.raises(RecordError) as err:
        parse_record(dict(GOOD, **{field: None}), line=4)
    assert err.value.field == field and err.value.line == 4


def test_scan_file_keeps_a_memory_with_a_null_source_class(tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(dict(GOOD, source_class=None, properties=None)) + "\n")
    records, rejected = read_jsonl(path)
    assert rejected == [] and records[0].source_class.value == "inference"
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["scanned"] == 1 and report["rejected"] == []


def test_posted_records_keep_a_memory_with_fields_outside_the_format():
    """POST /v1/memories reads a record as scan-file does: an export's extra fields are
    ignored and counted, never a reason to refuse the memory (issue: records from other
    memory systems)."""
    from scanner.api.schemas import AddMemoriesRequest

    body = AddMemoriesRequest.model_validate({
        "user_id": GOOD["user_id"],
        "records": [dict(GOOD, created_at="2026-01-01", hash="ab12"),
                    dict(GOOD, id="m2", created_at="2026-01-02"), dict(GOOD, id="m3")]})
    assert [r.id for r in body.records] == [GOOD["id"], "m2", "m3"]
    assert body.ignored_fields == {"created_at": 2, "hash": 1}
    assert "ignored_fields" not in body.model_dump()
    with pytest.raises(ValueError):  # the request's own fields stay strict
        AddMemoriesRequest.model_validate({"user_id": GOOD["user_id"], "records": [GOOD],
                                           "chek": True})
