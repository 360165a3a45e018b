"""User ids to Weaviate tenants, and scope properties to filter tokens: both one-to-one."""

from __future__ import annotations

import itertools
import re

import pytest

from scanner.store.codec import scope_property_tokens
from scanner.store.tenants import tenant_name

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


def test_scope_property_tokens_are_one_to_one_even_after_whitespace_trimming():
    keys = ["site", "site=lab", "site\\", "site\\=lab", " site", "\\ site", "", "=", "\\", " "]
    values = ["lab", "lab=b", "b", "", " ", "b ", "b\\", "b\\\\", "\\", "=b", "lab\\="]
    pairs = list(itertools.product(keys, values))
    # the index trims whitespace at both ends of a token (field tokenization)
    tokens = [scope_property_tokens({k: v})[0].strip() for k, v in pairs]
    assert len(set(tokens)) == len(pairs)
    assert scope_property_tokens({"site": "lab=b"}) != scope_property_tokens({"site=lab": "b"})
    assert scope_property_tokens({" k": "v "}) != scope_property_tokens({"k": "v"})


def test_plain_scope_properties_keep_the_tokens_stored_data_has():
    props = {"rack_id": "rack-4", "site": "lab=b", "path": "C:\\x y z", "e": "a=b=c"}
    assert scope_property_tokens(props) == [f"{k}={v}" for k, v in sorted(props.items())]
