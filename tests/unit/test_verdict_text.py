"""What the terminal shows of a verdict: the rule that decided it first, the judge's reading as
a detail (issue 35, item 1), and tables that wrap at word boundaries."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import datetime, timedelta, timezone

import pytest
from rich.console import Console

from extractors import Cardinality, Triple
from scanner.core.detect import CandidatePair, stances
from scanner.core.judgment import Judgment
from scanner.core.keys import Assertion, GroupKey
from scanner.core.policy import decide
from scanner.models import MemoryRecord, ScanReport
from scanner.render import column_widths, render_report
from scanner.verdict_text import explain

T0 = datetime(2026, 2, 7, 18, 20, tzinfo=timezone.utc)
RESTATEMENT = Judgment(update=0.05, contradiction=0.02, compatible=0.05, restatement=0.88)


def record(rid: str, value: str, days: float, **kw) -> MemoryRecord:
    base = dict(id=rid, text=f"My grocery budget is {value} a month.", user_id="maya",
                source="chat", source_class="user", observed_at=T0 + timedelta(days=days),
                epoch="profile-1")
    return MemoryRecord(**{**base, **kw})


def verdict(a: MemoryRecord, b: MemoryRecord, judgment: Judgment | None = RESTATEMENT):
    key = GroupKey(a.scope(), "user", "grocery budget")
    sa, sb = (stances([Assertion(r, Triple("user", "grocery budget", v, rule="attribute"))])[0]
              for r, v in ((a, "400 usd"), (b, "350 usd")))
    pair = CandidatePair(key=key, kind="value_mismatch", a=sa, b=sb,
                         cardinality=Cardinality.functional)
    return decide(dataclasses.replace(pair, judgment=judgment))


def test_a_recency_verdict_names_its_rule_and_the_judge_only_as_a_detail():
    c = verdict(record("m1", "$400", 0), record("m2", "$350", 30))
    # the policy's own record: no reason from the recency row, the judge's reading only
    assert (c.verdict, c.rule, c.reasons) == ("resolved", "recency", ["judge:restatement 0.88"])
    told = explain(c)
    assert told.rule == ("recency: the newer observation wins (m2, 2026-03-09 over m1, "
                         "2026-02-07)")
    assert told.details == ["judge read: restatement 0.88"]


def test_same_day_observations_are_told_apart_by_their_time():
    c = verdict(record("m1", "$400", 0), record("m2", "$350", 0.01))
    assert explain(c).rule.endswith("(m2, 2026-02-07 18:34 over m1, 2026-02-07 18:20)")


def test_source_class_missing_provenance_and_epoch_change_say_what_they_read():
    older_reading = record("m1", "$400", 0, source="tool:bank", source_class="observation")
    c = verdict(older_reading, record("m2", "$350", 30))
    assert explain(c).rule == ("source_class: observation (m1) beats user (m2), even though "
                               "older")
    c = verdict(record("m1", "$400", 0, observed_at=None), record("m2", "$350", 30))
    assert explain(c).rule == ("missing_provenance: nobody wins without provenance: m1 has no "
                               "observed_at")
    c = verdict(record("m1", "$400", 0, epoch="app-5.2"), record("m2", "$350", 30,
                                                                  epoch="app-6.0"))
    told = explain(c)
    assert told.rule.startswith("epoch_change: different epochs (app-5.2 -> app-6.0)")
    assert told.details == ["judge read: restatement 0.88"]


def test_when_the_judge_decided_its_reading_is_the_reason():
    compatible = Judgment(update=0.005, contradiction=0.005, compatible=0.985,
                          restatement=0.005)
    # (texts that differ in more than their values: the judge may dismiss those)
    c = verdict(record("m1", "$400", 0),
                record("m2", "$350", 30, text="For the party we planned $350 of groceries."),
                compatible)
    assert (c.verdict, c.rule) == ("possible", "pair_judge")
    told = explain(c)
    assert told.rule.startswith("pair_judge: the pair judge reads the two as compatible 0.98")
    assert told.details == []


def test_column_widths_keep_every_word_whole():
    columns = [["key", "maya · user · grocery budget"],
               ["verdict", "resolved"],
               ["rule", "ended_in_other_words: an ending said in other words"]]
    widths = column_widths(columns, 45)
    assert sum(widths) <= 45
    assert widths[2] >= len("ended_in_other_words:") and widths[1] >= len("resolved")
    assert column_widths(columns, 200) == [28, 8, 51]  # room enough: one line each
    # a word longer than any share folds in its own column only
    long = [["a", "x" * 60], ["b", "two words"]]
    assert column_widths(long, 30)[1] == len("words")


def test_the_conflicts_table_never_cuts_a_word_at_80_columns():
    c = verdict(record("m1", "$400", 0), record("m2", "$350", 30))
    report = ScanReport(scanned=2, conflicts=[c], duplicates=[], cite=["m2"], withhold=["m1"],
                        unresolved=[])
    out = io.StringIO()
    render_report(report, console=Console(file=out, width=80, color_system=None))
    text = out.getvalue()
    cells = [cell.strip() for line in text.splitlines() if line.startswith("│")
             for cell in line.strip("│").split("│")]
    words = {w for cell in cells for w in cell.split()}
    assert "recency:" in words and "restatement" in words
    for whole in ("restatement", "observation", "2026-03-09", "grocery"):
        assert whole in words, (whole, text)
    assert not re.search(r"restatem\b|observatio\b", text)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_rows_fit_the_console(width):
    c = verdict(record("m1", "$400", 0), record("m2", "$350", 30))
    report = ScanReport(scanned=2, conflicts=[c], duplicates=[], cite=["m2"], withhold=["m1"],
                        unresolved=[])
    out = io.StringIO()
    render_report(report, console=Console(file=out, width=width, color_system=None))
    table = [line for line in out.getvalue().splitlines() if line[:1] in "┏┃┡│└"]
    assert table and max(len(line) for line in table) <= width
