"""The memory-stream benchmark's scoring (benchmarks.bench_memory_stream), on a hand-made
report: the figures follow the definitions of ../shared/tools/memory_stream_eval.py."""

from __future__ import annotations

from benchmarks.bench_memory_stream import score, table


def test_score_counts_updates_negatives_and_other_decided():
    observations = [{"id": "o1", "text": "a", "user_id": "c"},
                    {"id": "o2", "text": "b", "user_id": "c"},
                    {"id": "o3", "text": "c", "user_id": "c"}]
    injected = [
        {"id": "u1", "kind": "update", "target": "o1", "why": "puppy rehomed"},
        {"id": "u2", "kind": "update", "target": "o2", "why": "gym membership ended"},
        {"id": "n1", "kind": "negative", "target": "o3", "why": "additional pet"}]
    report = {"conflicts": [
        {"members": ["o1", "u1"], "verdict": "resolved", "winner": "u1", "rule": "recency",
         "key": {"subject": "x", "relation": "have"}},
        {"members": ["o2", "u2"], "verdict": "resolved", "winner": "o2", "rule": "recency",
         "key": {"subject": "x", "relation": "join"}},
        {"members": ["o3", "u1"], "verdict": "resolved", "winner": "u1", "rule": "recency",
         "key": {"subject": "x", "relation": "own"}},
        {"members": ["n1", "o2"], "verdict": "possible", "winner": None, "rule": None,
         "key": {"subject": "x", "relation": "like"}}],
        "withhold": ["o1", "o3"]}
    figures = score(report, observations, injected)
    assert figures["update_resolved_right"] == 1 and figures["update_decided"] == 2
    assert figures["update_target_withheld"] == 1
    assert figures["negatives_flagged_decided"] == 0  # a possible flag is no decision
    assert figures["other_decided"] == 1 and figures["other_decided_by_update"] == 1
    assert figures["possible"] == 1 and figures["possible_per_100"] == round(100 / 6, 1)
    assert figures["per_kind"]["pet"] == {"updates": 1, "resolved_right": 1}
    assert "1 of 2" in table(figures, "public")
