"""The pair judge (scanner/pair_judge, issue 37): a decided verdict needs the keys and the
judge; a denial of any time against a report is a contradiction, quarantined.

The rows are exercised through :func:`scanner.scan.scan_records` with a judge of the
:class:`scanner.pair_judge.PairJudge` protocol that answers a fixed reading, and with the
trained cross-encoder itself (cached by ``make setup``)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from scanner.core.keys import AliasTable, group_by_key
from scanner.core.never import never_pairs
from scanner.errors import RecordError
from scanner.models import MemoryRecord
from scanner.pair_judge import DEFAULT_THRESHOLD, LABELS, Judgment
from scanner.pair_judge.training import KINDS, read_pairs
from scanner.scan import ScanConfig, scan_records

T0 = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)


def record(rid: str, text: str, day: int) -> MemoryRecord:
    return MemoryRecord(id=rid, text=text, user_id="u1", source="chat", source_class="user",
                        observed_at=T0 + timedelta(days=day), epoch="e1")


class FixedJudge:
    """Answers one reading for every pair and keeps what it was asked."""

    def __init__(self, **probabilities: float):
        self.reading = Judgment(**{name: probabilities.get(name, 0.0) for name in LABELS})
        self.asked: list[tuple[str, str]] = []

    def judge(self, pairs):
        self.asked.extend(pairs)
        return [self.reading for _ in pairs]


def scan(extractor, judge, *texts):
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    return scan_records(records, extractor.extract_many([r.text for r in records]),
                        ScanConfig(judge=judge))


def test_a_compatible_reading_leaves_the_keys_conflict_possible(extractor):
    judge = FixedJudge(compatible=0.98, update=0.02)
    report = scan(extractor, judge, "Sam lives in Nice.", "Sam lives in Lyon.")
    (conflict,) = report.conflicts
    assert conflict.verdict == "possible" and conflict.rule == "pair_judge"
    assert conflict.reasons == ["judge:compatible 0.98"]
    assert judge.asked == [("Sam lives in Nice.", "Sam lives in Lyon.")]  # earlier first
    assert report.withhold == []


def test_a_confirmed_conflict_is_decided_by_the_policy(extractor):
    report = scan(extractor, FixedJudge(update=0.8, compatible=0.2),
                  "Sam lives in Nice.", "Sam lives in Lyon.")
    (conflict,) = report.conflicts
    assert (conflict.verdict, conflict.rule, conflict.winner) == ("resolved", "recency", "m2")


def test_a_restatement_reading_does_not_dismiss_two_values(extractor):
    report = scan(extractor, FixedJudge(restatement=0.7, compatible=0.3),
                  "My name is Priya.", "My name is Ana.")
    assert [c.verdict for c in report.conflicts] == ["resolved"]


def test_a_contradiction_is_quarantined_with_a_question(extractor):
    report = scan(extractor, FixedJudge(contradiction=0.9, compatible=0.1),
                  "Deployed the app on Render with Gunicorn.", "I have never deployed this app.")
    (conflict,) = report.conflicts
    assert (conflict.verdict, conflict.rule) == ("quarantined", "contradictory_statements")
    assert conflict.question
    assert sorted(report.unresolved) == ["m1", "m2"]


def test_a_never_denial_meets_a_report_in_other_words(extractor):
    texts = ("Implemented a basic homepage route with Flask last week.",
             "I have never written any Flask routes in this project.")
    report = scan(extractor, FixedJudge(contradiction=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict) for c in report.conflicts] == [(["m1", "m2"], "quarantined")]
    # the judge reading an update keeps the pair, and the later denial of any past time
    # still quarantines it: time never settles a denial against a report
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict) for c in report.conflicts] == [(["m1", "m2"], "quarantined")]
    # the judge reading no conflict drops the pair: structure alone flags nothing
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1), *texts).conflicts == []


def test_a_denial_keeps_the_reports_that_share_its_rare_words(extractor):
    # the judge reads every report the same; of the reports of attending therapy sessions,
    # only the one that says the name the denial restricts its deed by (Troy) is kept, where
    # a count of shared words would keep two that only say "therapy sessions"
    report = scan(extractor, FixedJudge(contradiction=0.95, compatible=0.05),
                  "Requested flexible hours on April 3 to attend therapy sessions.",
                  "Attended two therapy sessions on stress in May.",
                  "Troy and I attended couples therapy on April 20.",
                  "I attended therapy sessions at the clinic every Monday.",
                  "Therapy sessions moved online in June.",
                  "I have never attended any couples therapy sessions with Troy.")
    paired = {m for c in report.conflicts for m in c.members} - {"m6"}
    assert paired == {"m3"}


@pytest.mark.parametrize(("report", "denial"), [
    ("Went to the Berlin sneaker expo.", "I have never been to a sneaker expo in Paris."),
    ("The user hiked Mount Fuji in 2020.", "The user has never hiked Mount Rainier."),
    ("Drove a Tesla Model 3 on the trip.", "I have never driven a Tesla Model S."),
])
def test_a_denial_of_another_named_thing_meets_no_report(extractor, report, denial):
    # the judge reads a contradiction; the names the denial restricts its deed by are not
    # said by the report: another place, mountain, model
    assert scan(extractor, FixedJudge(contradiction=0.98, compatible=0.02),
                report, denial).conflicts == []


def test_a_denial_of_the_named_thing_meets_its_report(extractor):
    report = scan(extractor, FixedJudge(contradiction=0.98, compatible=0.02),
                  "Went to the sneaker expo in Paris with Kyle.",
                  "I have never been to a sneaker expo in Paris.")
    assert [c.verdict for c in report.conflicts] == ["quarantined"]


def test_a_denial_said_through_an_antonym_meets_the_report(extractor):
    # "never declined" is read as accepting; the report of declining denies it
    report = scan(extractor, FixedJudge(contradiction=0.95, compatible=0.05),
                  "I declined a 3 PM meeting on March 14 to protect my writing block.",
                  "I have never declined any meetings to protect my writing time.")
    assert [(c.members, c.verdict) for c in report.conflicts] == [(["m1", "m2"], "quarantined")]


def test_a_denial_with_an_irregular_past_is_not_settled_by_time(extractor):
    # "Never sold my car": the past is irregular, no "-ed" marks it; a newcomer's find
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1),
                  "Sold my car in May.", "Never sold my car.")
    assert [c.verdict for c in report.conflicts] == ["quarantined"]


def test_a_denial_that_retracts_the_report_is_an_update(extractor):
    texts = ("Deployed the app on Render with Gunicorn.",
             "Correction: I have never deployed this app; that was my colleague.")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.verdict, c.winner) for c in report.conflicts] == [("resolved", "m2")]
    # without the correction the same reading leaves the two to a person
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1),
                  "Deployed the app on Render with Gunicorn.", "I have never deployed this app.")
    assert [c.verdict for c in report.conflicts] == ["quarantined"]


def test_without_a_judge_the_rules_decide(extractor):
    report = scan(extractor, None, "Sam lives in Nice.", "Sam lives in Lyon.")
    assert [c.verdict for c in report.conflicts] == ["resolved"]


def test_judgment_arithmetic():
    j = Judgment(update=0.2, contradiction=0.1, compatible=0.6, restatement=0.1)
    assert j.label == "compatible" and j.changes == pytest.approx(0.3)
    assert j.related == pytest.approx(0.4) and not j.confirms(0.5)
    assert j.confirms(0.4) and j.reason() == "judge:compatible 0.60"
    assert Judgment(0.02, 0.0, 0.975, 0.005).confirms(DEFAULT_THRESHOLD) is False
    assert Judgment(0.055, 0.0, 0.945, 0.0).confirms(DEFAULT_THRESHOLD) is True


def test_training_pairs_are_read_in_both_orders(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"earlier": "a", "later": "b", "kind": "negative"}) + "\n")
    (one, two) = read_pairs([path])
    assert (one.earlier, one.later, two.earlier, two.later) == ("a", "b", "b", "a")
    assert LABELS[one.label] == KINDS["negative"] == "compatible"


@pytest.mark.parametrize("line, field", [
    ("{not json", "<line>"),
    (json.dumps({"earlier": "a", "later": "", "kind": "update"}), "later"),
    (json.dumps({"earlier": "a", "later": "b", "kind": "maybe"}), "kind"),
])
def test_a_bad_training_line_names_its_line_and_field(tmp_path, line, field):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"earlier": "a", "later": "b", "kind": "update"}) + "\n" + line)
    with pytest.raises(RecordError) as err:
        read_pairs([path])
    assert (err.value.line, err.value.field) == (2, field)
    assert "pairs.jsonl" in str(err.value)


@pytest.fixture(scope="module")
def trained():
    from scanner.pair_judge.model import CrossEncoderJudge

    return CrossEncoderJudge()


@pytest.mark.parametrize("earlier, later, label", [
    ("My name is Priya.", "My name is Ana.", "update"),
    ("Sam lives in Nice.", "Sam lives in Lyon.", "update"),
    ("Downloaded Zotero on March 2 to manage references.",
     "I have never downloaded Zotero or used citation software.", "contradiction"),
    ("Sam lives in Nice.", "Sam's sister lives in Lyon.", "compatible"),
    ("I prefer tabs over spaces in Python code.",
     "I prefer Postgres over MySQL for new services.", "compatible"),
])
def test_the_trained_judge_reads_clear_pairs(trained, earlier, later, label):
    (reading,) = trained.judge([(earlier, later)])
    assert reading.label == label, reading


def test_a_named_thing_changed_in_other_words_is_only_possible(extractor):
    """A shared name and one shared stem name no whole attribute: the judge's update puts the
    pair on the review page and withholds nothing (policy row named_in_other_words)."""
    texts = ("Mobile Team staffs Project Phoenix", "Mobile Team now staffs Project Alpha")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict, c.rule) for c in report.conflicts] == [
        (["m1", "m2"], "possible", "named_in_other_words")]
    assert report.withhold == []


def test_a_named_things_act_done_again_is_decided(extractor):
    """"re-" says the same act again (Quirk et al. 1985 App. I.21): its new outcome replaces
    the old one."""
    texts = ("Mobile Team allocated to Project Phoenix", "Mobile Team reallocated to Project Alpha")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]
    assert report.conflicts[0].reasons == ["judge:update 0.90"]  # what let it through
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1), *texts).conflicts == []
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1), *texts).conflicts == []


@pytest.mark.parametrize("earlier, later", [
    ("Approved purchase of Forklift Kit for $8,000", "Purchase of Forklift Kit cancelled; supplier closed"),
    ("10% loyalty discount approved for Brightwater Foods",
     "Discount for Brightwater Foods revoked - missed payments"),
    ("approved 1 year renewal for CloudNest", "do not renew CloudNest; cheaper offer elsewhere"),
    ("12% discount approved for Lumora", "discount for Lumora revoked; late payments"),
])
def test_a_revoked_approval_of_a_named_thing_is_decided(extractor, earlier, later):
    """The revocation is said of the attribute beside the name ("purchase of X cancelled",
    "do not renew X"), so the phrase names the whole attribute: the judge's update decides."""
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), earlier, later)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]
    assert scan(extractor, FixedJudge(compatible=0.9, update=0.1), earlier, later).conflicts == []


@pytest.mark.parametrize("earlier, later", [
    ("Approved purchase of Forklift Kit for $8,000", "Purchase of Pallet Wrapper cancelled; duplicate"),
    ("Harbor Ferries refund approved for the May crossing",
     "Noting Harbor Ferries gives a refund if cancelled two days ahead."),
    ("approved 1 year renewal for CloudNest", "CloudNest support hours changed to 8-6"),
])
def test_a_revocation_of_another_thing_or_in_passing_decides_nothing(extractor, earlier, later):
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), earlier, later)
    assert [(c.verdict, c.rule) for c in report.conflicts if c.verdict != "possible"] == []


def test_an_act_done_again_with_another_outcome_is_decided(extractor):
    """Both say "reassigned": the later names another outcome (a name the earlier lacks), so
    it is the act done again, not the same memory said twice."""
    texts = ("Ops Team reassigned to Billing Desk", "Ops Team reassigned to Support Desk")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]
    same = ("Ops Team reassigned to Billing Desk", "Ops Team reassigned to Billing Desk.")
    assert [c.verdict for c in scan(extractor, FixedJudge(update=0.9, compatible=0.1),
                                    *same).conflicts if c.verdict != "possible"] == []


def test_a_retraction_that_quotes_the_memory_is_a_candidate(extractor):
    texts = ("Applied 25% discount: $10,000 base - $2,500 = $7,500 final",
             "[INVALIDATED - was based on wrong data] Original conclusion: Applied 25% discount")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [c.winner for c in report.conflicts] == ["m2"]


@pytest.mark.parametrize("earlier, later", [
    ("I prefer JWT over session cookies for auth.", "I prefer Socket.io rooms over custom channels."),
    ("I'm limiting Jira projects to 50.", "I'm limiting GitHub runners to 4GB RAM."),
    ("My confidence in self-adjoint spectra is at 79%.",
     "My confidence in operator continuity is at 68%."),
    ("Was offered a contract in April but declined to focus on the pilot.",
     "Jeff invited me to a book launch; I accepted to meet more writers."),
    ("Kim invited me to a jazz bar on May 13; I declined due to early plans.",
     "Accepted Kendra's offer to co-host the New Year potluck."),
])
def test_a_key_names_the_whole_attribute(extractor, earlier, later):
    """Issue 37, kind 1: a bare verb or noun whose complement names what it is about is no
    one-valued attribute without that complement (rules only: no judge)."""
    assert scan(extractor, None, earlier, later).conflicts == []


def test_a_change_from_the_stated_value_is_a_candidate(extractor):
    texts = ("The invoicing service keeps its records in PostgreSQL.",
             "We switched the invoicing service's database from PostgreSQL to MySQL.")
    report = scan(extractor, FixedJudge(update=0.9, compatible=0.1), *texts)
    assert [(c.members, c.winner) for c in report.conflicts] == [(["m1", "m2"], "m2")]
    other = ("My laptop runs PostgreSQL locally.", texts[1])  # no word of the owner shared
    assert scan(extractor, FixedJudge(update=0.9, compatible=0.1), *other).conflicts == []


def test_an_unknown_judge_setting_is_one_clear_error(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from scanner.cli import main

    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps({"id": "m1", "text": "Ann lives in Paris.", "user_id": "u"}) + "\n")
    monkeypatch.setenv("CONTRASCAN_PAIR_JUDGE", "yes")
    result = CliRunner().invoke(main, ["scan-file", str(path), "--json"])
    assert result.exit_code == 1
    assert "CONTRASCAN_PAIR_JUDGE='yes': use 'on', 'off' or the folder" in result.output


@pytest.mark.parametrize("judge", [None, "compatible"])
def test_a_later_denial_of_any_past_time_is_quarantined(extractor, judge):
    """Issue 37, kind 4 (docs/contract.md §2): "I have never deployed this app" after
    "Deployed the app on Render" is no change that time settles, whatever the judge's class
    short of dismissal."""
    fixed = FixedJudge(compatible=0.7, update=0.3) if judge else None
    report = scan(extractor, fixed, "Deployed the app on Render.",
                  "I have never deployed this app.")
    assert [(c.verdict, c.rule) for c in report.conflicts] == [
        ("quarantined", "contradictory_statements")]
    assert report.conflicts[0].question == ("Which is right: “Deployed the app on Render” or "
                                            "“I have never deployed this app”?")
    assert scan(extractor, None, "Ships on Thursdays.",
                "Never ships on Thursdays.").conflicts[0].verdict == "resolved"


def test_each_disjunct_of_a_denial_weighs_its_own_reports(extractor):
    """"Never attended the visa interview or submitted any insurance documents" denies two
    acts: the words of documents are evidence of a report of submitting them, not of the
    interview, so a report of attending it outranks reports of documents that also name the
    interview (:attr:`CandidatePair.evidence`; BEAM's public half had lost one so)."""
    texts = ["Attended a webinar on visa interview questions.",
             "Omar attended his visa interview in May.",
             "Attended a talk on the visa interview in June.",
             "Visa interview tips saved to my notes.",
             "Booked a hotel near the visa interview center.",
             "Practised visa interview answers with Kayla.",
             "Uploaded 30 supporting documents to the visa portal, including insurance "
             "documents.",
             "Prepared the visa interview folder with copies of all submitted insurance "
             "documents.",
             "Checked the visa interview list: insurance documents submitted, supporting "
             "documents pending.",
             "Attended the visa interview on August 15 with Kayla.",
             "I have never attended the visa interview or submitted any insurance documents."]
    records = [record(f"m{i}", text, i) for i, text in enumerate(texts, 1)]
    groups = group_by_key(list(zip(records, extractor.extract_many(texts))), AliasTable())
    evidence = {p.ids: p.evidence for p in never_pairs(groups)}
    attended = evidence[("m10", "m11")]
    assert all(attended > e for ids, e in evidence.items() if ids != ("m10", "m11"))


def test_two_log_lines_that_open_alike_retract_nothing():
    """A quoting retraction says the earlier was wrong ("[INVALIDATED - …]", "Correction:");
    a shared opening alone is a template, and "correction" inside a sentence is a topic."""
    from scanner.core.named_changes import named_change_pairs
    lines = ("Hardening access, I'm restricting billing API calls to 3 admins via Vault.",
             "Hardening access, I'm restricting export API calls to 2 admins via Vault, updated.",
             "Hardening access, I'm reviewing spelling correction rules for the Vault docs.")
    records = [record(f"m{i}", t, i) for i, t in enumerate(lines, 1)]
    assert [p for p in named_change_pairs(records) if p.found_by == "quoted"] == []
    retraction = record("m4", "Correction: Hardening access, I'm restricting billing API calls"
                              " to 4 admins, not 3", 4)
    assert [(p.ids, p.found_by) for p in named_change_pairs(records[:1] + [retraction])] == [
        (("m1", "m4"), "quoted")]


@pytest.mark.parametrize("earlier, found", [
    ("Our team tracks work in Jira, with two boards.", True),
    # the earlier left Jira too: the same switch told again, not a change of what it stated
    ("Switched from Jira to Linear for the team boards last sprint.", False),
])
def test_a_change_from_a_value_meets_a_memory_that_states_it(earlier, found):
    from scanner.core.named_changes import named_change_pairs
    records = [record("m1", earlier, 1),
               record("m2", "Switched from Jira to Linear for the team boards.", 2)]
    pairs = [p.ids for p in named_change_pairs(records) if p.found_by == "from_value"]
    assert pairs == ([("m1", "m2")] if found else [])


@pytest.mark.parametrize("earlier, later, same", [
    ("The retry timeout of the payments service is 30 seconds.",
     "The retry timeout of the payments service is 5s.", True),
    ("Gym fee $45 a month", "Gym joining fee $99", False),  # another attribute's words
    ("Alice lives in Paris", "Alice lives in Berlin", False),  # no typed value: the judge's
])
def test_one_sentence_but_its_value_names_one_attribute(earlier, later, same):
    from scanner.core.value_notes import same_but_values
    assert same_but_values(earlier, later) is same


def test_a_compatible_reading_does_not_dismiss_one_sentence_with_another_value(extractor):
    texts = ("The retry timeout of the payments service is 30 seconds.",
             "The retry timeout of the payments service is 5s.")
    report = scan(extractor, FixedJudge(compatible=0.99, update=0.01), *texts)
    assert [(c.members, c.verdict, c.winner) for c in report.conflicts] == [
        (["m1", "m2"], "resolved", "m2")]


def test_a_pair_judged_again_is_read_from_the_cache_and_the_oldest_reading_goes_first():
    from scanner.pair_judge import Judgment
    from scanner.pair_judge.model import CrossEncoderJudge

    asked: list[list[tuple[str, str]]] = []

    class Counted(CrossEncoderJudge):
        def _model_judge(self, pairs):
            asked.append(list(pairs))
            return [Judgment(update=len(a) / 100, contradiction=0.0, compatible=1 - len(a) / 100,
                             restatement=0.0) for a, _ in pairs]

    judge = Counted("unused", cache_size=2)
    first = judge.judge([("a", "b"), ("cc", "d"), ("a", "b")])
    assert asked == [[("a", "b"), ("cc", "d")]]  # each pair once, even twice in one call
    assert first[0] == first[2] and first[0].update == 0.01 and first[1].update == 0.02
    assert judge.judge([("cc", "d")]) == [first[1]] and len(asked) == 1  # from the cache
    judge.judge([("eee", "f")])  # the cache holds two: ("a", "b"), used least lately, goes
    judge.judge([("a", "b")])
    assert asked[-1] == [("a", "b")] and len(asked) == 3
    assert Counted("unused", cache_size=0).judge([("a", "b")]) == [first[0]]


def test_a_judge_sent_to_a_scan_worker_keeps_its_settings_and_starts_an_empty_cache():
    import pickle

    from scanner.pair_judge.model import CrossEncoderJudge

    judge = CrossEncoderJudge("some/folder", batch_size=8, cache_size=5)
    judge._readings[("a", "b")] = None
    copy = pickle.loads(pickle.dumps(judge))
    assert (copy.model_dir, copy.batch_size, copy.cache_size) == ("some/folder", 8, 5)
    assert len(copy._readings) == 0 and copy.judge([]) == []
