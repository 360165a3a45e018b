"""``contrascan demo`` end to end against a real Weaviate: the bundled agent memories imported,
then the four steps (batch scan, read-time scan, history, review page) printed with real
content, and a second run that finds everything stored and decides the same (issue 35)."""

from __future__ import annotations

import contextlib
import json
import re

import pytest

from scanner.demo import QUESTIONS, STREAM_USER, read_demo_records, run_demo
from tests.integration.conftest import scoped_service


@contextlib.contextmanager
def _no_progress(total, label, shown):
    yield lambda n: None


@pytest.fixture(scope="module")
def demo_runs(weaviate_server, engine, tmp_path_factory):
    """Two runs of the demo over one fresh collection: (output, document) of each."""
    out = tmp_path_factory.mktemp("demo")
    runs = []
    with scoped_service(weaviate_server, engine, "Demo") as service:
        @contextlib.contextmanager
        def open_service(weaviate_url, data_dir, quiet=False):
            yield service

        for n in (1, 2):
            capture = out / f"stdout-{n}.txt"
            with open(capture, "w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
                document = run_demo(out=out / f"report-{n}.json", queries=len(QUESTIONS),
                                    weaviate_url=None, data_dir=out / "weaviate",
                                    as_json=False, open_service=open_service,
                                    progress=_no_progress)
            runs.append((capture.read_text(encoding="utf-8"), document))
    return runs


def _step(text: str, n: int) -> str:
    start = text.index(f"Step {n}.")
    end = text.find(f"Step {n + 1}.", start)
    return text[start:end if end >= 0 else len(text)]


def test_step_1_counts_verdicts_and_shows_an_update_with_what_it_superseded(demo_runs):
    text, doc = demo_runs[0]
    records, rejected = read_demo_records()
    assert rejected == 0 and doc["import"]["written"] == len(records) == 99
    step = _step(text, 1)
    counts = dict(re.findall(r"^ {4}(resolved|quarantined|epoch_change|possible) +(\d+)",
                             step, re.M))
    assert int(counts["resolved"]) >= 10 and int(counts["quarantined"]) >= 1
    assert int(counts["possible"]) >= 1 and int(counts["epoch_change"]) >= 1
    by_verdict = doc["batch_scan"]["by_verdict"]
    assert sum(n for k, n in by_verdict.items() if k.startswith("resolved/")) == \
        int(counts["resolved"])
    # an update resolved, with the memory it superseded, and the rule that decided
    assert re.search(r"withheld +maya-06 “Our team standup is at 9:30 every morning.”", step)
    assert re.search(r"cited +maya-15 “The team standup moved to 10:00.”", step)
    words = " ".join(step.split())
    assert ("why recency: the newer observation wins (maya-15, 2026-02-16 over maya-06, "
            "2026-02-03) detail judge read: update") in words
    assert "why source_class: observation (maya-16) beats user (maya-18)" in words
    assert "judge:" not in step  # the judge's reading is a detail, said in words
    labels = doc["batch_scan"]["statebench_labels"]
    assert labels["updates"] == 28 and labels["resolved_for_update"] >= 1
    assert f"28 updates in these timelines; {labels['resolved_for_update']} resolved" in words


def test_step_2_names_what_is_withheld_from_the_agent_and_why(demo_runs):
    text, doc = demo_runs[0]
    step = " ".join(_step(text, 2).split())
    user, question = QUESTIONS[0]
    assert f"{user} asks: “{question}”" in step
    first = doc["read_time_scans"][0]
    assert first["query"] == question and len(first["hits"]) >= 3
    hit_ids = [h["id"] for h in first["hits"]]
    assert {"maya-10", "maya-16", "maya-18"} <= set(hit_ids)
    assert first["withheld"]["maya-10"] == {"superseded_by": "maya-16", "rule": "recency"}
    assert first["withheld"]["maya-18"] == {"superseded_by": "maya-16",
                                            "rule": "source_class"}
    assert "maya-16" in first["report"]["cite"]
    assert ("withheld from the agent: maya-18 “My dentist appointment is on March 21.” "
            "(chat:2026-02-25, user, 2026-02-25) superseded by maya-16 “Dentist appointment "
            "moved to March 19 at 4 pm.”") in step
    assert "even though older" in step


def test_step_3_tells_what_changed_and_when(demo_runs):
    text, doc = demo_runs[0]
    history = doc["history"]
    assert (history["user_id"], history["memory_id"]) == (STREAM_USER, "maya-29")
    chain = [e["id"] for e in history["chain"]]
    assert chain == ["maya-06", "maya-15", "maya-29"]
    step = _step(text, 3)
    assert "contrascan history maya-29 --user maya" in step
    lines = [line for line in step.splitlines() if re.match(r"  2026-\d\d-\d\d \d\d:\d\d", line)]
    assert len(lines) == 3 and "withheld since maya-15" in " ".join(step.split())
    assert "cited as current" in step
    assert sum("resolved by rule recency" in line for line in step.splitlines()) == 2
    assert "withdrawn" not in step


def test_step_4_gives_the_review_page_and_what_waits_there(demo_runs):
    text, doc = demo_runs[0]
    step = " ".join(_step(text, 4).split())
    review = doc["review"]
    assert review["url"] == "http://127.0.0.1:8765/review"
    assert review["waiting"] >= 3 and review["by_user"][STREAM_USER] >= 3
    assert f"{review['waiting']} items of these users wait for review" in step
    assert "http://127.0.0.1:8765/review?user_id=maya" in step
    assert f"contrascan serve --data-dir {doc['review']['command'].split()[-1]}" in step


def test_lines_fit_80_columns_and_words_stay_whole(demo_runs):
    text, _ = demo_runs[0]
    assert max(len(line) for line in text.splitlines()) <= 80
    words = set(text.split())
    for whole in ("observation", "appointment", "quarantined", "epoch_change"):
        assert any(whole in w for w in words)
    assert not re.search(r"\bobservatio\b|\bappointmen\b|\bquarantine\b(?!d)", text)


def test_a_second_run_finds_everything_stored_and_decides_the_same(demo_runs):
    (first_text, first), (second_text, second) = demo_runs
    assert (second["import"]["written"], second["import"]["unchanged"]) == (0, 99)
    assert second["batch_scan"]["by_verdict"] == first["batch_scan"]["by_verdict"]
    assert second["history"]["story"] == first["history"]["story"]
    assert [s["withheld"] for s in second["read_time_scans"]] == \
        [s["withheld"] for s in first["read_time_scans"]]
    assert second["review"]["waiting"] == first["review"]["waiting"]
    assert "withdrawn" not in second_text
    json.dumps(second)  # the report is plain JSON
