"""Crafted JSON bodies that used to crash a view are 400 problems before any view runs.

Sent to the login and registration endpoints, which anyone may call without a token.
"""

import pytest
from rest_framework.exceptions import ParseError

from accounts.models import User
from belote_project.parsers import MAX_JSON_DEPTH, check_nesting
from tests.api.test_errors import assert_problem, post_raw

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token"
REGISTER = "/api/v1/auth/register"


def nested(depth: int, inner: str = "1") -> bytes:
    return ("[" * depth + inner + "]" * depth).encode()


def test_json_nested_a_hundred_thousand_deep_is_400_json_too_deep(api_client):
    response = post_raw(api_client, TOKEN, nested(100_000))

    body = assert_problem(response, 400, "json_too_deep")
    assert str(MAX_JSON_DEPTH) in body["detail"]


def test_deep_objects_count_as_deeply_as_arrays(api_client):
    body = b'{"a":' * (MAX_JSON_DEPTH + 1) + b"1" + b"}" * (MAX_JSON_DEPTH + 1)

    assert_problem(post_raw(api_client, TOKEN, body), 400, "json_too_deep")


def test_nesting_at_the_limit_reaches_the_view(api_client):
    response = post_raw(api_client, TOKEN, nested(MAX_JSON_DEPTH))

    # Parsed: the serializer, not the parser, refuses a list for an object.
    assert_problem(response, 400, "validation_failed")


def test_brackets_inside_strings_do_not_count_as_nesting(api_client):
    password = "[{" * 30 + '\\"[' + "}]" * 30  # 61 openers, all inside the string
    body = f'{{"username": "nobody", "password": "{password}"}}'.encode()

    assert_problem(post_raw(api_client, TOKEN, body), 401, "invalid_credentials")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[[[]]]", "json_too_deep"),
        ("[[[}}}", "json_too_deep"),  # depth, whatever the kind of bracket
        ("[" * 100_000, "parse_error"),  # json would recurse before it finds no "]"
        ("[[]][]}", "parse_error"),
        ("[{[{}]}]", "json_too_deep"),  # every kind of bracket counts
        ("[[]] [] {} [[]]", None),
        ('["[[[[", {"k": "]]]]"}]', None),
        ('[["\\\\"], ["\\"[[["]]', None),  # an escaped backslash, an escaped quote
        ('[[1]] "[[[[', None),  # an unterminated string: whatever follows it is inside
    ],
)
def test_the_nesting_check_skips_strings_and_their_escapes(text, code):
    if code is None:
        check_nesting(text, 2)
    else:
        with pytest.raises(ParseError) as refused:
            check_nesting(text, 2)
        assert refused.value.get_codes() == code


def test_unbalanced_deep_brackets_are_400_before_json_recurses(api_client):
    assert_problem(post_raw(api_client, TOKEN, b"[" * 100_000), 400, "parse_error")


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\ude00\\ud83d", "a\\ud800b"])
def test_a_lone_surrogate_in_a_username_is_400_invalid_unicode(api_client, escape):
    body = f'{{"username": "{escape}", "password": "pw-long-enough-1"}}'.encode()

    assert_problem(post_raw(api_client, TOKEN, body), 400, "invalid_unicode")
    assert_problem(post_raw(api_client, REGISTER, body), 400, "invalid_unicode")
    assert not User.objects.exists()


def test_a_lone_surrogate_in_a_key_or_a_nested_value_is_refused(api_client):
    for body in (b'{"\\udbff": 1}', b'{"username": ["ok", {"deep": "\\ud800"}]}'):
        assert_problem(post_raw(api_client, TOKEN, body), 400, "invalid_unicode")


def test_an_escaped_surrogate_pair_is_one_valid_character(api_client):
    body = b'{"username": "nobody", "password": "smile\\ud83d\\ude00"}'

    assert_problem(post_raw(api_client, TOKEN, body), 401, "invalid_credentials")


@pytest.mark.parametrize(
    "number",
    ["1" * 100_000, "-" + "9" * 5000, "1e999", "-1e999", "NaN", "Infinity", "-Infinity"],
    ids=["1e5-digits", "5000-digits", "float-overflow", "negative-overflow", "nan", "inf", "-inf"],
)
def test_numbers_json_cannot_hold_are_400_parse_error(api_client, number):
    body = f'{{"username": {number}, "password": "x"}}'.encode()

    assert_problem(post_raw(api_client, TOKEN, body), 400, "parse_error")
