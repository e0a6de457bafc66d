"""Conditional requests on a game: `If-Match` on an action (the version it expects),
`ETag` and `If-None-Match` on the view."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.action_support import assert_refused, turn
from tests.games.helpers import Table

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_if_match_carries_the_version_and_a_missing_version_is_428(table):
    seat, view = turn(table)
    url = f"{table.url}/actions"
    missing = table.clients[seat].post(url, {"action": {"type": "pass"}}, format="json")
    assert_refused(table, seat, missing, 428, "version_required", view["version"])
    response = table.clients[seat].post(
        url,
        {"action": {"type": "pass"}},
        format="json",
        headers={"If-Match": f'"{view["version"]}"'},
    )
    assert response.status_code == 201
    assert response["ETag"] == f'"{view["version"] + 1}"'


def _pass_with_if_match(table: Table, seat: int, version: int, header: str) -> Any:
    """Pass with no expected_version in the body and `header` (V: the version) as If-Match."""
    return table.clients[seat].post(
        f"{table.url}/actions",
        {"action": {"type": "pass"}},
        format="json",
        headers={"If-Match": header.replace("V", str(version))},
    )


@pytest.mark.parametrize(
    ("header", "status", "code"),
    [
        # isdigit() is true of a superscript two and of an Arabic-Indic three; Django
        # hands header bytes over decoded as latin-1 (the byte B2 is "²" itself).
        ('"\u00b2"', 412, "precondition_failed"),
        ('"' + "\u00b2".encode().decode("latin-1") + '"', 412, "precondition_failed"),
        ('"' + "\u0663".encode().decode("latin-1") + '"', 412, "precondition_failed"),
        ('"' + "1" * 5000 + '"', 400, "invalid_if_match"),  # over the length bound
        ('"' + "1" * 200 + '"', 412, "precondition_failed"),  # no version this large
        ('"2147483648"', 412, "precondition_failed"),
        ('W/"V"', 412, "precondition_failed"),  # If-Match compares strongly
        ('"0V"', 412, "precondition_failed"),  # octet by octet: not the ETag "V"
        ('"V-0123abcd"', 412, "precondition_failed"),
        ("V", 400, "invalid_if_match"),  # not quoted
        ('"V', 400, "invalid_if_match"),
        ('"V" "V"', 400, "invalid_if_match"),
        ('"a b"', 400, "invalid_if_match"),  # a space is no etagc
        ('"V", "999"', 400, "invalid_if_match"),  # two versions
        ("*", 428, "version_required"),
    ],
)
def test_a_malformed_or_unmatchable_if_match_is_refused(table, header, status, code):
    seat, view = turn(table)
    response = _pass_with_if_match(table, seat, view["version"], header)
    assert_refused(table, seat, response, status, code, view["version"])
    assert table.view(seat)["version"] == view["version"]


@pytest.mark.parametrize("header", ['"V"', ' "V" ', 'W/"x", "V"', '"V", "V"'])
def test_if_match_may_list_other_tags_beside_the_one_version(table, header):
    seat, view = turn(table)
    response = _pass_with_if_match(table, seat, view["version"], header)
    assert response.status_code == 201, response.content


def test_if_match_is_checked_even_beside_expected_version(table):
    seat, view = turn(table)
    for header in ("1" * 5000, '"999"'):  # malformed; another version than the body's
        response = table.act(seat, {"type": "pass"}, view["version"], **{"If-Match": header})
        assert_refused(table, seat, response, 400, "invalid_if_match", view["version"])


def test_a_malformed_if_none_match_is_ignored(table):
    seat, _ = turn(table)
    for header in ('"' + "7" * 5000 + '"', "\u00b2", 'W/"'):
        assert (
            table.clients[seat].get(table.url, headers={"If-None-Match": header}).status_code == 200
        )


def test_view_etag_and_if_none_match(table):
    seat, view = turn(table)
    first = table.clients[seat].get(table.url)
    etag = first["ETag"]
    assert "Authorization" in first["Vary"]
    assert first["Cache-Control"] == "private, no-cache"
    assert etag == f'"{view["version"]}"'
    unchanged = table.clients[seat].get(table.url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    table.act(seat, {"type": "pass"}, view["version"])
    changed = table.clients[seat].get(table.url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] == f'"{view["version"] + 1}"'
