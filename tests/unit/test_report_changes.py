"""scanner.core.changes: the resolved pairs of one change shown as one conflict (docs/contract.md §5)."""

from __future__ import annotations

from scanner.core.changes import group_changes, grouped_report, split_change
from scanner.core.report import assemble_report, by_members
from scanner.models import Conflict, ConflictKey

MARIA = ConflictKey(user_id="u1", subject="maria", relation="volunteer at")


def resolved(loser: str, winner: str, *, key: ConflictKey = MARIA, rule: str = "recency",
             kind: str = "polarity", **kw) -> Conflict:
    members = sorted((loser, winner))
    return Conflict(key=key, kind=kind, members=members,
                    values={loser: "homeless shelter", winner: "not homeless shelter"},
                    verdict="resolved", winner=winner, superseded=[loser], latest=winner,
                    rule=rule, **kw)


def test_restatements_retired_by_one_update_are_one_conflict():
    pairs = [resolved("s1", "upd"), resolved("s7", "upd", severity="medium"),
             resolved("s26", "upd", reasons=["represented_by:s26@s1"])]
    [change] = group_changes(pairs)
    assert change.members == ["s1", "s26", "s7", "upd"]
    assert (change.winner, change.latest, change.verdict, change.rule) == ("upd", "upd",
                                                                          "resolved", "recency")
    assert change.superseded == ["s1", "s26", "s7"]
    assert change.severity == "medium"
    assert change.reasons == ["represented_by:s26@s1"]
    assert change.values["s7"] == "homeless shelter"
    assert [(c.members, c.superseded) for c in split_change(change)] == [
        (["s1", "upd"], ["s1"]), (["s26", "upd"], ["s26"]), (["s7", "upd"], ["s7"])]
    assert [c.reasons for c in split_change(change)] == [["represented_by:s26@s1"], [], []]


def test_a_member_retired_under_another_relation_is_named_in_the_reasons():
    own = MARIA.model_copy(update={"relation": "own"})
    rent = Conflict(key=own, kind="polarity", members=["b", "w"],
                    values={"b": "shop", "w": "not shop"}, verdict="resolved", winner="w",
                    superseded=["b"], latest="w", rule="recency")
    change, = group_changes([resolved("a", "w"), rent, resolved("c", "w")])
    assert change.key.relation == "volunteer at"
    assert change.reasons == ["relation:own@b"]
    # the winner shows its value of the key shown, never the other relation's
    assert change.values == {"a": "homeless shelter", "b": "shop", "c": "homeless shelter",
                             "w": "not homeless shelter"}
    # the pairs it decided come back each under its own key (what the validator reads)
    assert [(c.key.relation, c.members, c.reasons) for c in split_change(change)] == [
        ("volunteer at", ["a", "w"], []), ("own", ["b", "w"], []),
        ("volunteer at", ["c", "w"], [])]


def test_pairs_of_different_winners_rules_kinds_subjects_or_verdicts_stay_apart():
    tim = MARIA.model_copy(update={"subject": "tim"})
    other_scope = MARIA.model_copy(update={"group": "work"})
    kept = [resolved("a", "w1"), resolved("b", "w2"), resolved("c", "w1", rule="source_class"),
            resolved("d", "w1", key=tim), resolved("e", "w1", key=other_scope),
            Conflict(key=MARIA, kind="polarity", members=["f", "w1"], values={},
                     verdict="quarantined", reasons=["tie:same class and observed_at"]),
            resolved("g", "w1", settled_by="s"), resolved("h", "w1", kind="value_mismatch")]
    assert len(group_changes(kept)) == len(kept)


def test_the_grouped_report_cites_and_withholds_the_same_memories():
    report = assemble_report(["s1", "s2", "upd", "x"],
                             by_members([resolved("s1", "upd"), resolved("s2", "upd")]))
    shown = grouped_report(report)
    assert [c.members for c in shown.conflicts] == [["s1", "s2", "upd"]]
    assert (shown.cite, shown.withhold, shown.unresolved) == (report.cite, report.withhold,
                                                            report.unresolved)
    alone = assemble_report(["a", "b"], by_members([resolved("a", "b")]))
    assert grouped_report(alone) is alone


def test_a_chain_of_changes_is_one_conflict_per_change():
    # "deadline moved to Jan 20" (d1), "... to Jan 31" (d2), "... to Feb 1" (d3): d2 retired
    # d1 before d3 came, so the change to Jan 31 keeps its own pair and d3's change is shown
    # against d2 (and a restatement of it, s1) alone
    pairs = [resolved("d1", "d2"), resolved("d1", "d3"), resolved("d2", "d3"),
             resolved("s1", "d3")]
    shown = group_changes(pairs)
    assert [(c.members, c.winner) for c in shown] == [
        (["d1", "d2"], "d2"), (["d2", "d3", "s1"], "d3")]
    report = assemble_report(["d1", "d2", "d3", "s1"], by_members(pairs))
    assert grouped_report(report).withhold == report.withhold == ["d1", "d2", "s1"]
