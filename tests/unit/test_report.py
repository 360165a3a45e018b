"""scanner.core.report.assemble_report: cite / withhold / unresolved from final verdicts (SPEC §5)."""

from __future__ import annotations

from scanner.core.report import assemble_report, by_members, merge_reports
from scanner.models import Conflict, ConflictKey, ScanReport

KEY = ConflictKey(user_id="u1", subject="user", relation="preferred glaze")


def conflict(a: str, b: str, verdict: str, **kw) -> Conflict:
    return Conflict(key=KEY, kind="value_mismatch", members=[a, b],
                    values={a: "celadon", b: "tenmoku"}, verdict=verdict, **kw)


def test_withhold_unresolved_and_cite_follow_the_verdicts():
    pairs = by_members([conflict("a", "b", "resolved", winner="b", superseded=["a"]),
                        conflict("c", "d", "quarantined"),
                        conflict("e", "f", "epoch_change", settled_by="s1", superseded=["e"]),
                        conflict("g", "h", "escalated"),
                        conflict("i", "j", "possible")])
    report = assemble_report("abcdefghijk", pairs)
    assert report.withhold == ["a", "e"]
    assert report.unresolved == ["c", "d", "g", "h"]
    assert report.cite == ["b", "f", "i", "j", "k"]
    assert report.scanned == 11
    assert [c.members for c in report.conflicts] == [["a", "b"], ["c", "d"], ["e", "f"],
                                                     ["g", "h"], ["i", "j"]]


def test_a_memory_stored_as_superseded_is_withheld_even_when_a_pair_holds_it_open():
    pairs = by_members([conflict("a", "b", "quarantined")])
    report = assemble_report(["a", "b", "c"], pairs, retired=["a", "c"])
    assert (report.withhold, report.unresolved, report.cite) == (["a", "c"], ["b"], [])


def test_a_count_only_report_keeps_verdicts_and_counts_but_no_ids():
    pairs = by_members([conflict("a", "b", "resolved", winner="b", superseded=["a"])])
    report = assemble_report(["a", "b"], pairs, retired=["a"], scanned=500, keep_ids=False)
    assert (report.scanned, len(report.conflicts)) == (500, 1)
    assert report.cite == report.withhold == report.unresolved == []


def test_merged_reports_add_counts_and_keep_every_id_sorted():
    one = assemble_report(["b", "a"], by_members([conflict("a", "b", "quarantined")]))
    two = ScanReport(scanned=1, cite=["c"])
    merged = merge_reports([two, one])
    assert (merged.scanned, merged.unresolved, merged.cite) == (3, ["a", "b"], ["c"])
