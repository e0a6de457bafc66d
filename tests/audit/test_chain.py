"""The hash chain's canonical bytes are RFC 8785's, and a changed event breaks the chain
at its own seq."""

from __future__ import annotations

import hashlib

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from bench.audit_games import played_game, rows_of
from games.audit.chain import (
    GENESIS,
    MAX_SAFE_INTEGER,
    Link,
    NotCanonicalError,
    canonical_bytes,
    first_break,
    link,
    record,
)

_INTEGERS = st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | _INTEGERS | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(_JSON)
def test_the_canonical_bytes_of_any_integer_only_value_are_rfc_8785s(value):
    assert canonical_bytes(value) == rfc8785.dumps(value)


def test_keys_sort_by_utf16_code_units_not_code_points():
    # U+FF61 sorts after U+1F600 in UTF-16 (its surrogates start with D8..), before it in
    # code points: the one place the two orders part.
    value = {"\uff61": 1, "\U0001f600": 2, "a": 3}
    assert canonical_bytes(value) == rfc8785.dumps(value)
    assert canonical_bytes(value).index("\U0001f600".encode()) < canonical_bytes(value).index(
        "\uff61".encode()
    )


@pytest.mark.parametrize("value", [1.5, {"a": [0.0]}, 2**53, -(2**53), "\ud800", {1: 2}, b"x"])
def test_a_value_rfc_8785_cannot_encode_exactly_is_refused(value):
    with pytest.raises(NotCanonicalError):
        canonical_bytes(value)


def test_every_stored_event_of_whole_games_is_rfc_8785_canonical():
    for seed in range(3):
        for row in rows_of(played_game(seed)):
            body = record(row["seq"], row["type"], row["schema_version"], row["payload"])
            assert canonical_bytes(body) == rfc8785.dumps(body)


def test_a_link_is_sha256_of_the_previous_hash_and_the_canonical_record():
    payload = {"seat": 1, "round": 1, "bid": "pass"}
    expected = hashlib.sha256(
        bytes(32) + b'{"payload":{"bid":"pass","round":1,"seat":1},"schema_version":1,'
        b'"seq":3,"type":"bid"}'
    ).hexdigest()
    assert link(GENESIS, 3, "bid", 1, payload) == expected


def _links(rows):
    return [Link(r["seq"], r["type"], r["schema_version"], r["payload"], r["hash"]) for r in rows]


def test_changing_any_one_event_breaks_the_chain_at_that_seq():
    rows = rows_of(played_game(4))
    assert first_break(_links(rows)) is None
    for index in range(len(rows)):
        changed = [dict(row) for row in rows]
        changed[index]["payload"] = {**changed[index]["payload"], "forged": 1}
        found = first_break(_links(changed))
        assert found is not None
        assert found.seq == index + 1
        assert found.found == rows[index]["hash"]


def test_a_missing_or_reordered_event_is_a_break_of_the_seqs():
    rows = rows_of(played_game(5))
    found = first_break(_links(rows[:3] + rows[4:]))
    assert found is not None
    assert (found.seq, found.found) == (4, "seq 5")
