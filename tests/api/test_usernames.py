"""One rule for usernames (accounts/usernames.py), attacked: look-alike spellings share an
account and its login allowance, racing registrations of one name get one account, and
names that cannot be names are a 400, never a 500."""

import json
import threading
import time

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from accounts.models import User
from accounts.usernames import canonical_username
from tests.conftest import PASSWORD

LONG_S = "\N{LATIN SMALL LETTER LONG S}"
SHARP_S = "\N{LATIN SMALL LETTER SHARP S}"
DOTLESS_I = "\N{LATIN SMALL LETTER DOTLESS I}"


def full_width(text):
    """The full-width forms of ASCII letters and digits (U+FF01 to U+FF5E)."""
    return "".join(chr(ord(char) + 0xFEE0) for char in text)


pytestmark = pytest.mark.django_db

LOGIN_LIMIT = 10  # "login": "10/min" in settings


def _credentials(client, endpoint, username, password):
    # json.dumps escapes what UTF-8 cannot carry (a lone surrogate) as JSON allows.
    body = json.dumps({"username": username, "password": password})
    return client.post(f"/api/v1/auth/{endpoint}", body, content_type="application/json")


def register(client, username):
    return _credentials(client, "register", username, PASSWORD)


def login(client, username, password=PASSWORD):
    return _credentials(client, "token", username, password)


def field_codes(response):
    return [(error["field"], error["code"]) for error in response.json()["errors"]]


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        (f"{LONG_S}is4512", "sis4512"),  # NFKC
        (full_width("SIS") + "4512", "sis4512"),  # NFKC
        (f"Stra{SHARP_S}e", "strasse"),  # case folding, not lower()
        ("\u03a3\u038a\u03a3", "\u03c3\u03af\u03c3"),  # capital sigmas fold to small ones
    ],
)
def test_spellings_of_one_name_share_one_canonical_form(spelling, canonical):
    assert canonical_username(spelling) == canonical


def test_a_dotless_i_is_another_letter_so_another_name(api_client):
    assert register(api_client, "ri1x").status_code == 201
    assert register(api_client, f"r{DOTLESS_I}1x").status_code == 201

    # Once the lookup used PostgreSQL's UPPER() (both are "RI1X"): MultipleObjectsReturned.
    assert login(api_client, "ri1x").status_code == 200
    assert login(api_client, f"r{DOTLESS_I}1x").status_code == 200
    assert User.objects.get(canonical_username=f"r{DOTLESS_I}1x").username == f"r{DOTLESS_I}1x"


@pytest.mark.parametrize("taken", ["sis4512", "STRASSE9"])
@pytest.mark.parametrize("transform", ["long_s", "full_width", "sharp_s"])
def test_registering_a_look_alike_of_a_taken_name_is_400_username_taken(
    api_client, make_user, taken, transform
):
    spelling = {
        "long_s": taken.replace("s", LONG_S).replace("S", LONG_S),
        "full_width": full_width(taken),
        "sharp_s": taken.lower().replace("ss", SHARP_S),
    }[transform]
    make_user(username=taken)

    response = register(api_client, spelling)

    assert response.status_code == 400
    assert field_codes(response) == [("username", "username_taken")]
    assert User.objects.count() == 1


SPELLINGS_OF_SIS4512 = ["sis4512", f"{LONG_S}is4512", "SIS4512", full_width("sis4512")]


@pytest.mark.parametrize("spelling", SPELLINGS_OF_SIS4512)
def test_every_spelling_logs_into_the_one_account(api_client, make_user, spelling):
    account = make_user(username="sis4512")

    response = login(api_client, spelling)

    assert response.status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['token']}")
    assert api_client.get("/api/v1/me").json()["id"] == account.pk


def test_look_alike_spellings_share_the_login_allowance(api_client, make_user):
    make_user(username="sis4512")
    spellings = [*SPELLINGS_OF_SIS4512, " Sis4512 "]
    for attempt in range(LOGIN_LIMIT):
        wrong = login(api_client, spellings[attempt % len(spellings)], password="wrong")
        assert wrong.status_code == 401

    for spelling in spellings:
        assert login(api_client, spelling).status_code == 429


@pytest.mark.parametrize(
    "username",
    ["12345", "\u0663\u0664\u0665\u0666", full_width("1234"), "00000000000000000000"],
)
def test_registering_a_numeric_username_is_400_username_numeric(api_client, username):
    response = register(api_client, username)

    assert response.status_code == 400
    assert field_codes(response) == [("username", "username_numeric")]
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["bad\x07name", "bad\x1bname", "bad\u200bname", "bad\x00name"])
@pytest.mark.parametrize("endpoint", ["register", "token"])
def test_a_name_with_a_control_character_is_400(api_client, username, endpoint):
    response = _credentials(api_client, endpoint, username, PASSWORD)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "validation_failed"
    assert {field for field, _ in field_codes(response)} == {"username"}
    assert not User.objects.exists()


@pytest.mark.parametrize("endpoint", ["register", "token"])
def test_a_name_with_a_lone_surrogate_is_refused_by_the_parser(api_client, endpoint):
    # The JSON parser refuses a string that is no Unicode text before any view runs.
    response = _credentials(api_client, endpoint, "bad\ud800name", PASSWORD)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "invalid_unicode"
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["bad name", "bad/name", "bad#name"])
def test_registering_a_name_with_another_sign_is_400_username_invalid(api_client, username):
    response = register(api_client, username)

    assert response.status_code == 400
    assert field_codes(response) == [("username", "username_invalid")]


def test_an_account_renamed_by_the_migration_still_logs_in(api_client, make_user):
    make_user(username="STRASSE#7")  # accounts/migrations/0002 renames look-alikes so

    assert login(api_client, "strasse#7").status_code == 200


def test_a_name_that_grows_past_32_characters_when_normalised_is_400(api_client):
    # U+3316 (a square "kilometre" in katakana) is one character that NFKC spells in 6.
    response = register(api_client, "\u3316" * 6)

    assert response.status_code == 400
    assert field_codes(response) == [("username", "username_length")]


def _waiting_for_the_users_table() -> int:
    # pg_locks, not pg_stat_activity: that view is read once per transaction.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass",
            [User._meta.db_table],
        )
        return cursor.fetchone()[0]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (f"Stra{SHARP_S}e7", "STRASSE7"),  # two usernames, one canonical form
        (f"{LONG_S}am9912", "sam9912"),  # one username once NFKC'd, as Django stores it
    ],
)
def test_racing_registrations_of_one_name_make_one_account(first, second):
    names = (first, second)
    answers: dict[str, int] = {}
    codes: dict[str, list[tuple[str, str]]] = {}

    def register_in_a_thread(username: str) -> None:
        response = register(APIClient(), username)
        answers[username] = response.status_code
        if response.status_code == 400:
            codes[username] = field_codes(response)
        connection.close()

    threads = [threading.Thread(target=register_in_a_thread, args=(name,)) for name in names]
    # Both registrations pass the check for a taken name, then wait at their INSERT on
    # this lock; let go, one INSERT wins and the other breaks a UNIQUE constraint.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE accounts_user IN SHARE MODE")
        for thread in threads:
            thread.start()
        while _waiting_for_the_users_table() < 2 and any(t.is_alive() for t in threads):
            time.sleep(0.01)
        assert _waiting_for_the_users_table() == 2
    for thread in threads:
        thread.join()

    assert sorted(answers.values()) == [201, 400]
    assert list(codes.values()) == [[("username", "username_taken")]]
    assert User.objects.count() == 1
    assert login(APIClient(), first).status_code == 200
    assert login(APIClient(), second).status_code == 200
