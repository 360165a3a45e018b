"""scanner.core.value_endings: a switch away from a value ends the singular attribute that
held it, for the same subject in the same scope only."""

from __future__ import annotations

from dataclasses import replace

from extractors import Triple
from scanner.core.keys import group_by_key
from scanner.core.value_endings import with_value_endings
from scanner.models import MemoryRecord


def rec(rid: str, user: str = "u1", text: str = "The user switched from Gmail to Fastmail."
        ) -> MemoryRecord:
    return MemoryRecord(id=rid, text=text, user_id=user)


def test_the_switch_is_added_as_a_denial_to_the_attribute_holding_the_value():
    provider = Triple("user", "email provider", "gmail", rule="attribute")
    other = Triple("user", "browser", "gmail", rule="svo")  # no attribute: left alone
    switch = Triple("user", "switch from", "gmail", rule="prep_object")
    groups = group_by_key([(rec("a"), [provider, other]), (rec("b"), [switch]),
                           (rec("c", "u2"), [provider])])
    out = with_value_endings(groups)
    mine = next(k for k in out if k.relation == "email provider" and k.scope.user_id == "u1")
    added = out[mine][-1]
    assert len(out[mine]) == 2 and added.record.id == "b"
    assert (added.triple.relation, added.triple.object, added.triple.negated,
            added.triple.rule, added.triple.qualifiers) == ("email provider", "gmail", True,
                                                            "state_change", ())
    # a dated switch, one only tried, or one restricted to a situation ends nothing
    for text, qualifiers in (("The user switched from Gmail to Fastmail.", (("time", "2019"),)),
                             ("The user tried to switch from Gmail to Fastmail.", ()),
                             ("The user switched from Gmail to Fastmail at work.", ())):
        again = group_by_key([(rec("a"), [provider]),
                              (rec("b", text=text), [replace(switch, qualifiers=qualifiers)])])
        assert all(len(v) == 1 for v in with_value_endings(again).values())
    theirs = next(k for k in out if k.relation == "email provider" and k.scope.user_id == "u2")
    assert len(out[theirs]) == 1
    assert all(len(v) == 1 for k, v in out.items() if k.relation == "browser")
    assert len(groups[mine]) == 1  # the input is not changed


def test_without_a_switch_the_groups_are_the_same():
    groups = group_by_key([(rec("a"), [Triple("user", "email provider", "gmail",
                                              rule="attribute")])])
    assert with_value_endings(groups) == groups


def test_a_value_two_attributes_hold_is_left_alone():
    car = Triple("user", "car", "honda", rule="attribute")
    bike = Triple("user", "motorcycle", "honda", rule="attribute")
    switch = Triple("user", "switch from", "honda", rule="prep_object")
    groups = group_by_key([(rec("a"), [car, bike]),
                           (rec("b", text="The user switched from Honda to Toyota."), [switch])])
    assert all(len(v) == 1 for v in with_value_endings(groups).values())
