"""Grouping, detection and report assembly (pure functions), SPEC §2 rows."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from extractors import Triple
from scanner.core.keys import AliasTable, group_by_key
from scanner.models import MemoryRecord
from scanner.scan import ScanConfig, scan_records

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def rec(rid, text, user="u1", days=0, **kw):
    fields = dict(id=rid, text=text, user_id=user, source="chat", source_class="user",
                  observed_at=T0 + timedelta(days=days), epoch="e1")
    return MemoryRecord(**{**fields, **kw})


def scan(engine, *records, config=None):
    return scan_records(records, engine.extract(records), config)


@pytest.mark.parametrize(("a", "b", "kind"), [
    ("The preferred glaze is celadon.", "The preferred glaze is tenmoku.", "value_mismatch"),
    ("Deploying on Fridays is allowed.", "Deploying on Fridays is not allowed.", "polarity"),
    ("I like coffee.", "I don't like coffee anymore.", "polarity"),
])
def test_conflict_rows(engine, a, b, kind):
    report = scan(engine, rec("m1", a), rec("m2", b, days=1))
    assert [(c.kind, c.members, c.winner) for c in report.conflicts] == [
        (kind, ["m1", "m2"], "m2")]
    assert report.withhold == ["m1"] and report.cite == ["m2"]


@pytest.mark.parametrize(("a", "b"), [
    ("Acme acquired Beta in 2021.", "Beta was acquired by Acme in 2021."),   # restatement
    ("The pottery fires to cone 10.", "The potter prefers reduction atmosphere."),  # overlap
    ("The kiln was tested with model A.", "The kiln was tested with model B."),  # multi-valued
    ("Dana works at Acme.", "Dana administers Acme's code organization."),  # unrelated facts
])
def test_no_conflict_rows(engine, a, b):
    report = scan(engine, rec("m1", a), rec("m2", b, days=1))
    assert [c for c in report.conflicts if c.verdict != "possible"] == []


def test_different_times_do_not_conflict(engine):
    report = scan(engine, rec("m1", "Never deploy on Fridays."),
                  rec("m2", "Deploy on Mondays.", days=1),
                  rec("m3", "Deploy on Fridays.", days=2))
    assert [(c.members, c.kind) for c in report.conflicts] == [(["m1", "m3"], "polarity")]


def test_a_plan_meets_plans_never_the_present(engine):
    """ "will work at Globex" leaves "works at Acme" standing; a later plan withdraws it."""
    report = scan(engine, rec("m1", "Priya works at Acme."),
                  rec("m2", "Priya will work at Globex.", days=1))
    assert [c for c in report.conflicts if c.verdict != "possible"] == []
    report = scan(engine, rec("m1", "Priya will be living in Leeds."),
                  rec("m2", "Priya won't be living in Leeds after all.", days=1))
    assert [(c.members, c.winner) for c in report.conflicts] == [(["m1", "m2"], "m2")]


@pytest.mark.parametrize(("old", "new", "conflict"), [
    # a later, marked statement of the generic attribute replaces the specific one
    ("Caroline's favorite guiding book is 'Becoming Nicole'.",
     "Actually, Caroline's favourite book is now 'Redefining Realness'.", True),
    ("Ingrid's favorite Italian restaurant is Lupo.",
     "Ingrid's favourite restaurant these days is Nobu.", True),
    # unmarked, both can hold; two specifics never meet through their generic reading
    ("Ingrid's favorite Italian restaurant is Lupo.",
     "Ingrid's favourite restaurant is Nobu.", False),
    ("Sam's favourite sci-fi book is Dune.", "Sam's favourite fantasy book is Earthsea.", False),
    # a marked specific statement says nothing of the generic attribute before it
    ("Sam's favourite book is Dune.", "Sam's favourite fantasy book is now Earthsea.", False),
    # a classifier noun's kinds: a later marked set of kinds replaces them, one title never
    ("Ravi's favourite book genres are fantasy and horror.",
     "Ravi's favourite books these days are memoirs.", True),
    ("Ravi's favourite movie genre is horror.", "Ravi's favourite movie is now Heat.", False),
    ("Ravi's favourite movie genres are horror and drama.",
     "Ravi's favourite movies are Heat and Alien.", False),
])
def test_generic_reading_of_a_specific_preference(engine, old, new, conflict):
    report = scan(engine, rec("m1", old), rec("m2", new, days=1))
    decided = [(c.members, c.winner) for c in report.conflicts if c.verdict != "possible"]
    assert decided == ([(["m1", "m2"], "m2")] if conflict else []), report.conflicts


@pytest.mark.parametrize(("old", "new", "conflict"), [
    # a habit or preference restricted by a "when" clause meets only the same circumstances
    ("Prefers dark mode in all applications.",
     "Prefers larger font sizes when reading on mobile.", False),
    ("I drink tea when I am tired.", "I don't drink tea when I am tired anymore.", True),
    # a dated event with a "when" clause keeps its reading
    ("Sam lives in Lisbon.", "Sam moved to Porto when he got the job.", True),
    # a preference stated for a circumstance: only the same circumstance meets it
    ("The user prefers dark mode in all of their code editors.",
     "The user prefers light mode on their e-reader.", False),
    ("Prefers aisle seats on long flights.", "Prefers window seats on flights now.", True),
    # all apps, every device: everywhere, no circumstance
    ("Prefers the compact layout in all apps.",
     "Nowadays prefers the roomy layout on every device.", True),
    # time spent in the past is no current value
    ("Saoirse works as a midwife at the Rotunda Hospital.",
     "Saoirse spent two summers working as a lifeguard at Salthill.", False),
    ("Sam works at Acme.", "Sam spends his weekends working at the Salthill cafe.", False),
])
def test_when_clause_restricts_a_habit(engine, old, new, conflict):
    report = scan(engine, rec("m1", old), rec("m2", new, days=1))
    decided = [(c.members, c.winner) for c in report.conflicts if c.verdict != "possible"]
    assert decided == ([(["m1", "m2"], "m2")] if conflict else []), report.conflicts


def test_a_rejected_alternative_is_not_done_and_ends_the_plan(engine):
    """ "decided to stay with his current gaming team rather than join a new one": the join
    is rejected ("one" stands for "gaming team"), so considering it ends."""
    report = scan(engine, rec("m1", "Nate is considering joining a new gaming team."),
                  rec("m2", "Nate has decided to stay with his current gaming team rather "
                            "than join a new one.", days=1))
    assert [(c.members, c.winner) for c in report.conflicts] == [(["m1", "m2"], "m2")]
    found = {t.fact for t in engine.extract([rec("m3", "Sam walks to work rather than drive.")])[0]}
    assert ("sam", "drive", "", True) in found


def test_rule_with_exception_is_distinct_from_rule(engine):
    report = scan(engine, rec("m1", "Refunds are allowed within 30 days."),
                  rec("m2", "Refunds are allowed within 30 days, except for enterprise plans.",
                      days=1))
    assert report.duplicates == [] and report.conflicts == []


def test_different_scope_never_conflicts(engine):
    report = scan(engine, rec("m1", "I prefer email.", user="a"),
                  rec("m2", "I prefer SMS.", user="b", days=1),
                  rec("m3", "I prefer SMS.", user="a", group="work", days=1))
    assert report.conflicts == []


def test_same_scope_preference_conflicts(engine):
    report = scan(engine, rec("m1", "I prefer email."), rec("m2", "I now prefer SMS.", days=1))
    assert [c.winner for c in report.conflicts] == ["m2"]


def test_a_bare_preference_without_a_marked_change_decides_nothing(engine):
    """SPEC §1 key: "prefer" with no complement cannot name which choice it is ("I prefer
    fiction" / "I prefer audiobooks"); only a later memory that marks a change meets."""
    report = scan(engine, rec("m1", "I prefer email."), rec("m2", "I prefer SMS.", days=1))
    assert [c for c in report.conflicts if c.verdict != "possible"] == []


def test_duplicates_exact_and_structural(engine):
    report = scan(engine, rec("m1", "The project budget is $2,000,000."),
                  rec("m2", "The project budget is 2M USD.", days=1),
                  rec("m3", "the project budget is $2,000,000"))
    assert report.duplicates == [["m1", "m2", "m3"]] and report.conflicts == []


def test_aliases_resolve_before_comparison(engine):
    a = rec("m1", "Bob lives in Lyon.")
    b = rec("m2", "Robert lives in Nice.", days=1)
    assert scan(engine, a, b).conflicts == []
    cfg = ScanConfig(aliases=AliasTable({"bob": "robert"}))
    assert [c.winner for c in scan(engine, a, b, config=cfg).conflicts] == ["m2"]


def test_short_form_subjects_are_quarantined_not_merged(engine):
    report = scan(engine, rec("m1", "Sam lives in Lyon."), rec("m2", "Sam Lee lives in Nice.",
                                                               days=1))
    assert [(c.verdict, c.rule) for c in report.conflicts] == [
        ("quarantined", "subject_unconfirmed")]
    assert report.unresolved == ["m1", "m2"]


def test_three_values_pairwise_and_agreeing_records(engine):
    report = scan(engine, rec("m1", "Sam lives in Lyon."), rec("m2", "Sam lives in Nice.", days=1),
                  rec("m3", "Sam lives in Lyon.", days=2))
    # Lyon, said again after Nice, is the current value: both Lyon records beat Nice
    assert [(c.members, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "m1"), (["m2", "m3"], "m3")]
    assert report.withhold == ["m2"] and report.cite == ["m1", "m3"]


def test_grouping_is_one_pass_by_key():
    r1, r2 = rec("m1", "x"), rec("m2", "y")
    t = Triple("sam", "live in", "lyon")
    groups = group_by_key([(r1, [t]), (r2, [t, Triple("sam", "name", "sam")])])
    assert sorted((k.subject, k.relation, len(v)) for k, v in groups.items()) == [
        ("sam", "live in", 2), ("sam", "name", 1)]


def test_report_ids_sorted_and_deterministic(engine):
    records = [rec(f"m{i}", f"Sam lives in {city}.", days=i)
               for i, city in enumerate(["Lyon", "Nice", "Paris"])]
    one = scan(engine, *records).to_json_dict()
    two = scan(engine, *reversed(records)).to_json_dict()
    assert one == two


def test_every_record_of_a_value_shares_its_fate(engine):
    """An observation and a later paraphrase hold one value, a newer recollection another:
    the observation's value wins both pairs, so no winner is also withheld."""
    report = scan(engine,
                  rec("m1", "The headquarters of Acme is in Greenwich.", days=0,
                      source_class="observation"),
                  rec("m2", "Acme's headquarters is in Greenwich.", days=5),
                  rec("m3", "The headquarters of Acme is in Nancy.", days=9))
    assert {tuple(c.members): c.winner for c in report.conflicts} == {
        ("m1", "m3"): "m1", ("m2", "m3"): "m2"}
    assert report.withhold == ["m3"] and report.cite == ["m1", "m2"]
    pair = next(c for c in report.conflicts if c.members == ["m2", "m3"])
    assert pair.rule == "source_class" and "represented_by:m1@m2" in pair.reasons


@pytest.mark.parametrize("old, new, decided", [
    # two episodes of one measurement, noted in passing: no change is said
    ("Stressing the ingest tests, I'm noting a 10% failure rate.",
     "Stressing the search tests, I'm observing a 7% failure rate.", False),
    # the later states the attribute's value as the result of a change
    ("The snack budget is $75.", "The snack budget was increased to $85.", True),
])
def test_a_typed_value_decides_only_on_a_marked_change(engine, old, new, decided):
    report = scan(engine, rec("m1", old), rec("m2", new, days=1))
    got = [(c.members, c.winner) for c in report.conflicts if c.verdict != "possible"]
    assert got == ([(["m1", "m2"], "m2")] if decided else []), report.conflicts


def test_change_cues_are_whole_words():
    from extractors.change_cues import marks_change

    assert marks_change("The call was moved to 4 PM.") and marks_change("I no longer run.")
    assert not marks_change("The movement is slow.") and not marks_change("Knowledge base")
