"""A store that declares a relation one-valued (``[relations] functional``, or every relation
for a store whose schema says so) has answered what the pair judge reads: whether two values
can both hold in common usage. A pair of one key under a declared relation is decided without
the judge; the same pair under the defaults keeps the judge's veto (issue 33)."""

from __future__ import annotations

from extractors import DEFAULT_TABLE
from scanner.scan import ScanConfig, scan_records
from tests.unit.test_pair_judge import FixedJudge, record

TEXTS = ("Francis Poulenc speaks French.", "Francis Poulenc speaks Danish.")


def scan(extractor, table, judge):
    records = [record(f"m{i}", text, i) for i, text in enumerate(TEXTS, 1)]
    return scan_records(records, extractor.extract_many(list(TEXTS)),
                        ScanConfig(table=table, judge=judge))


def test_a_declared_relation_decides_whatever_the_judge_reads(extractor):
    judge = FixedJudge(compatible=0.99, update=0.01)
    report = scan(extractor, DEFAULT_TABLE.with_overrides(functional=["speak"]), judge)
    assert [(c.verdict, c.winner) for c in report.conflicts] == [("resolved", "m2")]
    assert judge.asked == []  # the schema answered it
    assert report.withhold == ["m1"]


def test_every_relation_declared_decides_the_same_way(extractor):
    report = scan(extractor, DEFAULT_TABLE.with_overrides(all_functional=True),
                  FixedJudge(compatible=0.99, update=0.01))
    assert [(c.verdict, c.winner) for c in report.conflicts] == [("resolved", "m2")]


def test_under_the_defaults_two_languages_spoken_are_no_conflict(extractor):
    report = scan(extractor, DEFAULT_TABLE, FixedJudge(compatible=0.99, update=0.01))
    assert report.conflicts == [] and report.withhold == []


def test_a_declared_functional_relation_made_multi_valued_again_is_no_longer_declared():
    table = DEFAULT_TABLE.with_overrides(functional=["speak"]).with_overrides(
        multi_valued=["speak"])
    assert not table.declares("speak") and table.declares("speak") is False
    assert DEFAULT_TABLE.with_overrides(all_functional=True).declares("anything")
    assert not DEFAULT_TABLE.declares("place of birth")  # a default, not a declaration


def test_every_relation_declared_leaves_inverse_readings_as_the_table_has_them(extractor):
    # "The capital city of A is Vienna" also reads as Vienna's "capital of" A: two territories
    # with one capital are two facts, not an update of Vienna; nor is a developer of two
    # products (the passive's agent read as the subject)
    every = DEFAULT_TABLE.with_overrides(all_functional=True)
    for texts in [("The capital city of Austrian Empire is Vienna.",
                   "Austria-Hungary, which has the capital Vienna."),
                  ("Google Ads was developed by Google.", "Google Maps was developed by Google."),
                  ("Google Ads was developed by Google.", "Google Maps was created by Google.")]:
        records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
        report = scan_records(records, extractor.extract_many(list(texts)),
                              ScanConfig(table=every, judge=FixedJudge(update=1.0)))
        assert report.withhold == [], (texts, report.conflicts)
    texts = ("Google Maps was developed by Google.", "Google Maps was developed by Apple.")
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    report = scan_records(records, extractor.extract_many(list(texts)),
                          ScanConfig(table=every, judge=FixedJudge(update=1.0)))
    assert report.withhold == ["m1"]  # the stated relation (developer) stays one-valued



def test_a_part_of_a_place_is_no_membership(extractor):
    # "a part of the continent of Europe" says where Germany lies; "member of" is another
    # relation, which a membership states ("part of the hiking club")
    found = {(t.subject, t.relation, t.object) for t in extractor.extract(
        "Germany is a part of the continent of Europe.")}
    assert ("germany", "member of", "europe") not in found
    assert ("sam", "member of", "hiking club") in {
        (t.subject, t.relation, t.object) for t in extractor.extract("Sam is part of the hiking club.")}


def test_one_of_a_fronted_topics_values_is_the_topics_attribute(extractor):
    # "an official language" is one of several: the topic's attribute, with the table's
    # cardinality, never a statement about "an official language" shared by every country
    found = {(t.subject, t.relation, t.object) for t in extractor.extract(
        "In Czech Republic, an official language is Czech.")}
    assert found == {("czech republic", "official language", "czech")}
    texts = ("In Macau, an official language is Portuguese.",
             "In Veyrier, an official language is French.")
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    report = scan_records(records, extractor.extract_many(list(texts)), ScanConfig(
        table=DEFAULT_TABLE.with_overrides(all_functional=True), judge=FixedJudge(update=1.0)))
    assert report.conflicts == []  # two countries, two facts


def test_every_relation_declared_leaves_the_copula_without_an_attribute(extractor):
    # the copula's complement carries the relation: "part of the continent of" and "member
    # of" are two relations, not two values of "be"
    texts = ("Germany is a part of the continent of Europe.", "Germany is a member of NATO.")
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    report = scan_records(records, extractor.extract_many(list(texts)), ScanConfig(
        table=DEFAULT_TABLE.with_overrides(all_functional=True), judge=FixedJudge(update=1.0)))
    assert report.withhold == [], report.conflicts


def test_a_qualified_name_is_another_entity(extractor):
    # "iPad (3rd generation)" says which iPad: a fact of it is no new value of the iPad's
    every = DEFAULT_TABLE.with_overrides(all_functional=True)
    texts = ("iPad was developed by Apple.", "iPad (3rd generation) was developed by Google.")
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    report = scan_records(records, extractor.extract_many(list(texts)),
                          ScanConfig(table=every, judge=FixedJudge(update=1.0)))
    assert report.withhold == [], report.conflicts
    # the same name said twice is one entity
    texts = ("iPad was developed by Apple.", "iPad was developed by Google.")
    report = scan_records([record(f"m{i}", t, i) for i, t in enumerate(texts, 1)],
                          extractor.extract_many(list(texts)),
                          ScanConfig(table=every, judge=FixedJudge(update=1.0)))
    assert report.withhold == ["m1"]
