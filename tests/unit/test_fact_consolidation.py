"""The pure parts of the FactConsolidation read-path benchmark: contexts, scoring, baseline."""

import pytest

from benchmarks import fact_consolidation as FC
from benchmarks.pairs import CounterFactCase


def case(i: int, subject: str, template: str = "The mother tongue of {} is",
         truth: str = "French", new: str = "English") -> CounterFactCase:
    return CounterFactCase(case_id=i, split="edit", subject=subject,
                           prompt=template.format(subject), ground_truth=truth,
                           target_new=new, rephrase_prompt="", locality_prompt=
                           f"Person {i} is a native speaker of", locality_ground_truth="Dutch")


CASES = [case(i, f"Subject {i}") for i in range(60)] + [
    case(100, "Subject 1", "{} works in the field of", "physics", "music")]


def test_eligible_cases_drop_unusable_ones():
    same = case(200, "Anna", truth="French", new="french")
    unnamed = CounterFactCase(201, "edit", "Bob", "He speaks", "French", "English", "", "", "")
    repeated = case(202, "Subject 0")
    assert FC.eligible_cases([CASES[0], same, unnamed, repeated, CASES[-1]]) == [
        CASES[0], CASES[-1]]


def test_order_by_subject_keeps_a_subject_together_and_is_seeded():
    ordered = FC.order_by_subject(CASES, seed=3)
    assert sorted(c.case_id for c in ordered) == sorted(c.case_id for c in CASES)
    at = [c.subject for c in ordered].index("Subject 1")
    assert {ordered[at].case_id, ordered[at + 1].case_id} == {1, 100}
    assert FC.order_by_subject(CASES, seed=3) == ordered != FC.order_by_subject(CASES, seed=4)


def test_context_puts_each_fact_before_its_update():
    context = FC.build_context(CASES, 40, 5, seed=1)
    memories = context.by_id()
    assert len(context.memories) == 40 and len(context.questions) == 5
    assert [m.serial for m in context.memories] == list(range(40))
    roles = [m.role for m in context.memories]
    assert roles.count(FC.FACT) == roles.count(FC.UPDATE) == 10
    assert roles.count(FC.NEIGHBOUR) == 10 and roles.count(FC.OTHER) == 10
    for q in context.questions:
        fact, update = memories[q.fact_id], memories[q.update_id]
        assert fact.serial < update.serial and fact.case_id == update.case_id == q.case_id
        assert update.text == f"{q.query} {q.target}." and fact.text.endswith("French.")
    record = context.memories[0].record("u1")
    assert (record["source_class"], record["epoch"], record["user_id"]) == (
        "user", FC.EPOCH, "u1")
    assert len({m.text for m in context.memories}) == 40


def test_a_larger_context_holds_the_smaller_ones_questions():
    small, large = FC.build_context(CASES, 20, 5, seed=1), FC.build_context(CASES, 40, 10, seed=1)
    assert [q.case_id for q in small.questions] == [q.case_id for q in large.questions][:5]


def test_context_too_large_for_the_cases_is_an_error():
    with pytest.raises(ValueError, match="cannot fill"):
        FC.build_context(CASES[:5], 40, 5)
    with pytest.raises(ValueError, match="at least 4"):
        FC.build_context(CASES, 3, 1)


def memory(serial: int, text: str, role: str, subject: str, case_id: int = 0):
    return FC.ContextMemory(id=f"m{serial:05d}", serial=serial, text=text, case_id=case_id,
                            role=role, subject=subject, relation="")


MEMS = {m.id: m for m in [
    memory(0, "Anna speaks French.", FC.FACT, "Anna", 1),
    memory(1, "Anna works in physics.", FC.OTHER, "Anna", 2),
    memory(2, "Bob speaks Dutch.", FC.NEIGHBOUR, "", 3),
    memory(3, "Anna speaks English.", FC.UPDATE, "Anna", 1),
    memory(4, "Anna works in music.", FC.UPDATE, "Anna", 4)]}
QUESTION = FC.Question(case_id=1, query="Anna speaks", subject="Anna", relation="",
                       target="English", fact_id="m00000", update_id="m00003")


def test_max_serial_baseline_takes_the_latest_hit_naming_the_subject():
    texts = {k: m.text for k, m in MEMS.items()}
    serials = {k: m.serial for k, m in MEMS.items()}
    assert FC.max_serial_answer(["m00000", "m00003", "m00002"], texts, serials, "anna") == \
        "m00003"
    # another relation of the subject, observed later, wins: the baseline's known weakness
    assert FC.max_serial_answer(["m00000", "m00004", "m00003"], texts, serials, "Anna") == \
        "m00004"
    assert FC.max_serial_answer(["m00002"], texts, serials, "Anna") is None


def test_scoring_a_resolved_pair():
    hits = ["m00000", "m00003", "m00002"]
    outcome = FC.score_question(
        QUESTION, hits, MEMS, cite=["m00002", "m00003"], withhold=["m00000"],
        conflicts=[(["m00000", "m00003"], "resolved", "recency")],
        withheld_by={"m00000": ["m00003"]})
    assert outcome.first_cite == "m00003" and outcome.first_cite_right
    assert not outcome.top1_right and outcome.max_serial_right
    assert outcome.both_retrieved and outcome.pair == "resolved:recency"
    assert outcome.wrongly_withheld == outcome.other_subject_withheld == []


def test_scoring_a_missed_pair_and_a_memory_of_another_subject_withheld():
    hits = ["m00002", "m00000", "m00003"]
    outcome = FC.score_question(
        QUESTION, hits, MEMS, cite=["m00000", "m00003"], withhold=["m00002"],
        conflicts=[(["m00002", "m00003"], "resolved", "recency")],
        withheld_by={"m00002": ["m00003"]})
    assert outcome.first_cite == "m00000" and not outcome.first_cite_right
    assert outcome.pair == "not_found"
    assert outcome.other_subject_withheld == outcome.wrongly_withheld == ["m00002"]
    dup = FC.score_question(QUESTION, hits, MEMS, cite=[], withhold=[],
                            duplicates=[["m00000", "m00003"]])
    assert dup.pair == "duplicate" and dup.first_cite is None
    gone = FC.score_question(QUESTION, ["m00000"], MEMS, cite=["m00000"], withhold=[])
    assert gone.pair == "not_retrieved" and not gone.update_retrieved


def test_summary_rates():
    right = FC.Outcome("m3", True, True, True, True, True, "resolved:recency", subject_facts=3)
    wrong = FC.Outcome("m1", False, False, True, True, True, "not_found",
                       wrongly_withheld=["m2"], other_subject_withheld=["m2"])
    missing = FC.Outcome(None, False, False, False, False, False, "not_retrieved")
    s = FC.summarise([right, wrong, missing, right])
    assert (s["questions"], s["first_cite"], s["hybrid_top1"], s["max_serial"]) == (
        4, 0.5, 0.5, 0.75)
    assert (s["ceiling_update"], s["pair_found"], s["first_cite_when_found"]) == (
        0.75, round(2 / 3, 4), 1.0)
    assert s["pairs"] == {"not_found": 1, "not_retrieved": 1, "resolved:recency": 2}
    assert s["other_subject_withheld"] == {"memories": 1, "questions": 1}
    assert s["subject_has_other_facts"]["questions"] == 2
    groups = FC.by_group(["a", "b", "b", "a"], [right, wrong, missing, right])
    assert groups["a"]["first_cite"] == 1.0 and groups["b"]["questions"] == 2


def test_percentile_matches_linear_interpolation():
    numpy = pytest.importorskip("numpy")
    values = [5.0, 1.0, 3.0, 9.0, 7.0, 2.0]
    for q in (0, 50, 90, 99, 100):
        assert FC.percentile(values, q) == pytest.approx(float(numpy.percentile(values, q)))
    assert FC.percentile([], 50) == 0.0


def test_a_true_fact_withheld_only_for_another_subject_is_wrong():
    bob = memory(5, "Bob speaks Dutch now.", FC.UPDATE, "Bob", 9)
    mems = {**MEMS, bob.id: bob}
    assert FC.wrongly_withheld(["m00000"], {"m00000": ["m00005"]}, mems) == (
        ["m00000"], ["m00000"])
    assert FC.wrongly_withheld(["m00000"], {"m00000": ["m00005", "m00003"]}, mems) == ([], [])
    # an update withheld with no known winner is counted as of another subject ...
    assert FC.wrongly_withheld(["m00003"], {}, mems) == (["m00003"], ["m00003"])
    # ... but a known winner of its own subject (an earlier question's verdict) makes it only
    # wrongly withheld
    anna = memory(6, "Anna was started in Oslo.", FC.UPDATE, "Anna", 12)
    assert FC.wrongly_withheld(["m00003"], {"m00003": ["m00006"]}, {**mems, anna.id: anna}) \
        == (["m00003"], [])


def test_one_memory_withheld_in_several_questions_counts_once():
    wrong = FC.Outcome("m1", False, False, True, True, True, "not_found",
                       wrongly_withheld=["m2"], other_subject_withheld=["m2"])
    s = FC.summarise([wrong, wrong])
    assert s["other_subject_withheld"] == s["wrongly_withheld"] == {"memories": 1,
                                                                    "questions": 2}


@pytest.mark.parametrize(("fact", "update", "cause"), [
    ([], [("anna", "speak", "english")], "no_triple"),
    ([("headquarter", "located in", "rome")], [("acme", "located in", "oslo")],
     "subject_differs"),
    ([("anna", "speak", "french")], [("anna", "born in", "oslo")], "relation_differs"),
    ([("anna", "hold", "citizenship")], [("anna", "hold", "citizenship")], "same_value"),
    ([("anna", "occupation", "poet")], [("anna", "occupation", "actor")], "not_functional"),
    ([("anna", "native language", "french")], [("anna", "native language", "english")],
     "other"),
])
def test_extraction_cause(fact, update, cause):
    from extractors import Triple
    functional = {"native language", "speak", "born in", "located in"}.__contains__
    assert FC.extraction_cause([Triple(*t) for t in fact], [Triple(*t) for t in update],
                               functional) == cause


def test_alternate_mix_puts_subjects_with_several_relations_first_in_turn():
    cases = [case(i, f"S{i}") for i in range(6)] + [
        case(10 + i, f"S{i}", "{} works in the field of", "physics", "music") for i in range(2)]
    ordered = FC.order_by_subject(cases, seed=0, mix="alternate")
    counts = {s: sum(c.subject == s for c in cases) for s in {c.subject for c in cases}}
    firsts = list(dict.fromkeys(c.subject for c in ordered))
    assert [counts[s] for s in firsts] == [2, 1, 2, 1, 1, 1]
    with pytest.raises(ValueError, match="mix"):
        FC.order_by_subject(cases, seed=0, mix="sorted")


def test_two_wordings_of_one_relation_about_one_subject_keep_the_first():
    reworded = case(300, "Subject 0", "{} speaks the language")
    assert FC.eligible_cases([CASES[0], reworded]) == [CASES[0], reworded]
    assert FC.eligible_cases([CASES[0], reworded], lambda c: "P103") == [CASES[0]]


def test_relations_worded_alike_count_as_one_for_a_subject():
    # CounterFact words P176 and P178 with one template: a second rewrite of the subject under
    # the other id would leave "... was created by" with two right answers
    made = case(400, "Subject 0", "{} is developed by", "Boeing", "Honda")
    built = case(401, "Subject 0", "{} was created by", "Boeing", "Microsoft")
    other = case(402, "Subject 9", "{} is developed by", "Sony", "Sega")
    ids = {400: "P176", 401: "P178", 402: "P178"}
    relation = lambda c: ids.get(c.case_id, "P103")  # noqa: E731
    assert FC.wording_groups([made, built, other], relation) == {"P176": "P176", "P178": "P176"}
    assert FC.eligible_cases([made, built, other], relation) == [made, other]
    # without a shared template the two stay apart
    assert FC.eligible_cases([made, built], relation) == [made, built]
