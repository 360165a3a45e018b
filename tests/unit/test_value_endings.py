"""scanner.core.value_endings: a switch away from a value ends the singular attribute that
held it, for the same subject in the same scope only."""

from __future__ import annotations

from extractors import Triple
from scanner.core.keys import group_by_key
from scanner.core.value_endings import with_value_endings
from scanner.models import MemoryRecord


def rec(rid: str, user: str = "u1") -> MemoryRecord:
    return MemoryRecord(id=rid, text=rid, user_id=user)


def test_the_switch_is_added_as_a_denial_to_the_attribute_holding_the_value():
    provider = Triple("user", "email provider", "gmail", rule="attribute")
    other = Triple("user", "browser", "gmail", rule="svo")  # no attribute: left alone
    switch = Triple("user", "switch from", "gmail", rule="prep_object",
                    qualifiers=(("time", "2024"),))
    groups = group_by_key([(rec("a"), [provider, other]), (rec("b"), [switch]),
                           (rec("c", "u2"), [provider])])
    out = with_value_endings(groups)
    mine = next(k for k in out if k.relation == "email provider" and k.scope.user_id == "u1")
    added = out[mine][-1]
    assert len(out[mine]) == 2 and added.record.id == "b"
    assert (added.triple.relation, added.triple.object, added.triple.negated,
            added.triple.rule, added.triple.qualifiers) == ("email provider", "gmail", True,
                                                            "state_change", ())
    theirs = next(k for k in out if k.relation == "email provider" and k.scope.user_id == "u2")
    assert len(out[theirs]) == 1
    assert all(len(v) == 1 for k, v in out.items() if k.relation == "browser")
    assert len(groups[mine]) == 1  # the input is not changed


def test_without_a_switch_the_groups_are_the_same():
    groups = group_by_key([(rec("a"), [Triple("user", "email provider", "gmail",
                                              rule="attribute")])])
    assert with_value_endings(groups) == groups
