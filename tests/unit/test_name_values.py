"""A proper name and its short form as values agree ("Lena" / "Lena Fischer"): the rule of
scanner/short_forms.py, applied to values by scanner/core/names.py; never string similarity,
never common nouns."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from scanner.cli import main
from scanner.models import MemoryRecord
from scanner.scan import scan_records
from scanner.short_forms import written_as_name

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def rec(rid, text, days=0, **kw):
    fields = dict(id=rid, text=text, user_id="u1", source="chat", source_class="user",
                  observed_at=T0 + timedelta(days=days), epoch="e1")
    return MemoryRecord(**{**fields, **kw})


def scan(engine, *records):
    return scan_records(records, engine.extract(records))


def kinds(report):
    return [(c.kind, c.members) for c in report.conflicts if c.verdict != "possible"]


@pytest.mark.parametrize(("a", "b"), [
    ("Omar's manager is Lena.", "Omar's manager is Lena Fischer."),  # first name alone
    ("Omar's manager is Fischer.", "Omar's manager is Lena Fischer."),  # last name alone
    ("Omar's manager is Lena Fischer.", "Omar's manager is Lena."),  # either order
])
def test_a_short_form_of_a_name_agrees(engine, a, b):
    report = scan(engine, rec("m1", a), rec("m2", b, days=1))
    assert report.conflicts == [] and report.cite == ["m1", "m2"]
    assert report.withhold == [] and report.unresolved == []


@pytest.mark.parametrize(("a", "b"), [
    ("Omar's manager is Lena Fischer.", "Omar's manager is Lena Park."),  # two full names
    ("Omar's manager is Lena.", "Omar's manager is Lina."),  # edit distance is not identity
    ("Omar's manager is Lena Fischer.", "Omar's manager is Lina."),
])
def test_other_names_still_differ(engine, a, b):
    report = scan(engine, rec("m1", a), rec("m2", b, days=1))
    assert kinds(report) == [("value_mismatch", ["m1", "m2"])]
    assert report.withhold == ["m1"]


def test_a_short_form_agrees_with_each_full_name_which_still_differ(engine):
    report = scan(engine, rec("m1", "Omar's manager is Lena Fischer."),
                  rec("m2", "Omar's manager is Lena Park.", days=1),
                  rec("m3", "Omar's manager is Lena.", days=2))
    assert kinds(report) == [("value_mismatch", ["m1", "m2"])]


@pytest.mark.parametrize(("a", "b"), [
    ("Omar's manager is no longer Lena.", "Omar's manager is Lena Fischer."),
    ("Omar's manager is Lena Fischer.", "Omar's manager is no longer Lena."),
    ("Omar's manager is not Lena Fischer.", "Omar's manager is Lena."),
])
def test_a_denial_meets_the_other_spelling(engine, a, b):
    report = scan(engine, rec("m1", a), rec("m2", b, days=1))
    assert kinds(report) == [("polarity", ["m1", "m2"])]
    assert report.cite == ["m2"] and report.withhold == ["m1"]


def test_written_as_name():
    assert written_as_name("Lena Fischer", "lena fischer")
    assert written_as_name("Bank of America", "bank of america")
    assert written_as_name("Acme Corp.", "acme corp")
    assert not written_as_name("iced coffee", "iced coffee")
    assert not written_as_name("lena fischer", "lena fischer")  # not written as a name
    assert not written_as_name("Turtles", "turtle")  # not the canonical value's words
    assert not written_as_name("", "")


def test_scan_file_reports_no_conflict_for_a_short_form(tmp_path):
    """The newcomer's file: "Lena" and "Lena Fischer" were a resolved value_mismatch."""
    base = {"user_id": "u1", "source": "chat", "source_class": "user", "epoch": "e1"}
    rows = [dict(base, id="m1", text="Omar's manager is Lena.",
                 observed_at="2026-03-01T10:00:00Z"),
            dict(base, id="m2", text="Omar's manager is Lena Fischer.",
                 observed_at="2026-03-02T10:00:00Z")]
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json",
                                       "--fail-on-conflict"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["conflicts"] == [] and report["cite"] == ["m1", "m2"]


def test_common_nouns_are_not_names(engine):
    """ "coffee" / "coffee soda" is not a short form of a name: the pair is what it was
    ("iced coffee" restates "coffee": scanner.core.refinements.refined_kind)."""
    report = scan(engine, rec("m1", "My favourite drink is coffee."),
                  rec("m2", "My favourite drink is coffee soda.", days=1))
    assert kinds(report) == [("value_mismatch", ["m1", "m2"])]


def test_a_short_form_settles_neither_full_name(engine):
    """A tie between two full names is not settled by a later first name alone, which
    agrees with both: it retires neither."""
    report = scan(engine, rec("m1", "Omar's manager is Lena Fischer."),
                  rec("m2", "Omar's manager is Lena Park."),
                  rec("m3", "Omar's manager is Lena.", days=1))
    (conflict,) = report.conflicts
    assert (conflict.members, conflict.verdict, conflict.rule) == (
        ["m1", "m2"], "quarantined", "tie")
    assert conflict.settled_by is None and conflict.superseded == []
    assert report.unresolved == ["m1", "m2"] and report.withhold == []
