"""Counts in printed sentences agree in number with their noun ("scanned 1 memory"); a list
shortens a memory text at a word."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner
from rich.console import Console

from scanner.cli import main
from scanner.models import Conflict, ConflictKey, ScanReport
from scanner.render import render_batch_summary, render_report
from scanner.wording import counted, plural, shortened


@pytest.mark.parametrize(("n", "noun", "expected"), [
    (1, "memory", "1 memory"), (0, "memory", "0 memories"), (2, "memory", "2 memories"),
    (1, "duplicate group", "1 duplicate group"), (3, "duplicate group", "3 duplicate groups"),
    (1, "entry", "1 entry"), (2, "entry", "2 entries"), (2, "status", "2 statuses"),
    (2, "key", "2 keys"), (2, "line", "2 lines"), (1, "line", "1 line"),
])
def test_counted(n, noun, expected):
    assert counted(n, noun) == expected


def test_an_irregular_plural_is_given():
    assert counted(2, "person", "people") == "2 people" and counted(1, "person", "people") \
        == "1 person"
    assert plural("day") == "days" and plural("box") == "boxes"


def printed(report: ScanReport, **kw) -> str:
    out = io.StringIO()
    render_report(report, console=Console(file=out, width=200), **kw)
    return out.getvalue()


def conflict(i: int) -> Conflict:
    return Conflict(key=ConflictKey(user_id="u", subject="s", relation="r"),
                    kind="value_mismatch", members=[f"a{i}", f"b{i}"], values={},
                    verdict="quarantined")


def test_the_summary_line_in_the_singular():
    line = printed(ScanReport(scanned=1, duplicates=[["m1", "m2"]], rejected=[
        {"line": 2, "field": "<line>", "reason": "not valid JSON"}])).splitlines()[-1]
    assert line.startswith("scanned 1 memory: no conflicts; 1 duplicate group; ")
    assert line.endswith("; 1 line rejected")


def test_the_summary_line_stays_one_line_on_a_narrow_terminal():
    out = io.StringIO()
    report = ScanReport(scanned=12, conflicts=[conflict(1)], duplicates=[["m1", "m2"]],
                        rejected=[{"line": 2, "field": "<line>", "reason": "not valid JSON"}])
    render_report(report, console=Console(file=out, width=40))
    line = out.getvalue().splitlines()[-1]
    assert line.startswith("scanned 12 memories: 1 quarantined; ")
    assert line.endswith("; 1 line rejected") and len(line) > 40


def test_the_summary_line_in_the_plural():
    text = printed(ScanReport(scanned=2, conflicts=[conflict(1), conflict(2), conflict(3)]),
                   limit=2)
    assert "… 1 more conflict (use --json)" in text
    assert "scanned 2 memories: 3 quarantined; 0 duplicate groups; " in text


def test_batch_summary_title(capsys):
    row = {"user_id": "u", "scanned": 1, "by_verdict": {}, "ledger_written": 1,
           "edges_added": 1, "statuses_changed": 1, "unchanged_since_checkpoint": False}
    render_batch_summary([row], scanned=1, seconds=0.5)
    out = " ".join(capsys.readouterr().out.split())
    assert "batch scan: 1 memory in 1 tenant, 0.5 s" in out


def test_scan_file_of_one_memory(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"id": "m1", "text": "I live in Porto.", "user_id": "u"}) + "\n")
    result = CliRunner().invoke(main, ["scan-file", str(path)])
    assert result.exit_code == 0, result.output
    assert "scanned 1 memory: no conflicts; 0 duplicate groups;" in " ".join(
        result.stdout.split())


@pytest.mark.parametrize(("text", "limit", "shown"), [
    ("The deploy timeout is 30 seconds.", 160, "The deploy timeout is 30 seconds."),
    ("The deploy timeout is 30 seconds, agreed after the incident.", 30,
     "The deploy timeout is 30…"),  # cut at the last space before the limit
    ("a" * 50, 20, "a" * 19 + "…"),  # one word longer than the line: cut inside it
    ("Line one.\n\n  Line   two.", 160, "Line one. Line two."),  # white space made one space
])
def test_a_list_shortens_a_memory_text_at_a_word(text, limit, shown):
    assert shortened(text, limit) == shown and len(shown) <= limit
