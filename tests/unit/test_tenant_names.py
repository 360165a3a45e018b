"""User ids to Weaviate tenants: one-to-one."""

from __future__ import annotations

import re

import pytest

from scanner.store.memories import tenant_name

VALID = re.compile(r"[A-Za-z0-9\-_]{1,64}")
HASHED = re.compile(r".*-[0-9a-f]{16}")


def tricky_ids() -> list[str]:
    ids = ["ops-1", "demo-user-3", "potter-1", "alice@example.com", "alice_example_com",
           "Alice@example.com", "alice@example.com ", "alice@example.com\n", "alice.example.com",
           "alice example.com", "alice-example-com", "ops-1\n", "ops_1", "OPS-1", "é", "_", "",
           "-", "x" * 64, "x" * 65, "x" * 65 + "y", "x" * 40 + "@" + "y" * 30,
           "a-0123456789abcdef", "a-0123456789ABCDEF", "a-0123456789abcde", "-0123456789abcdef"]
    # the hashed name of every id so far, sent as an id of its own, and that name's name
    for user_id in list(ids):
        ids.append(tenant_name(user_id))
        ids.append(tenant_name(tenant_name(user_id)))
    return list(dict.fromkeys(ids))


def test_plain_tenant_names_stay_their_own_tenant():
    for user_id in ("ops-1", "demo-user-3", "potter-1", "u1", "Alice_2", "x" * 64,
                    "a-0123456789abcde", "a-0123456789ABCDEF", "a-0123456789abcdeg"):
        assert tenant_name(user_id) == user_id


def test_other_ids_are_hashed_as_before():
    # the name stored data of an e-mail user already lives under
    assert tenant_name("alice@example.com") == "alice_example_com-ff8d9819fc0e12bf"


def test_distinct_user_ids_give_distinct_valid_tenant_names():
    ids = tricky_ids()
    names = [tenant_name(user_id) for user_id in ids]
    assert all(VALID.fullmatch(name) for name in names), names
    assert len(set(names)) == len(ids)


@pytest.mark.parametrize("victim", ["alice@example.com", "x" * 65, "y" * 70 + "-0123456789abcdef"])
def test_a_hashed_name_sent_as_a_user_id_never_names_the_hashed_users_tenant(victim):
    forged = tenant_name(victim)  # a valid tenant name, so it can be sent as a user id
    assert VALID.fullmatch(forged) and HASHED.fullmatch(forged) and forged != victim
    assert tenant_name(forged) != forged
