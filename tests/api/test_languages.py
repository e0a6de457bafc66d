"""Problems speak the client's language (Accept-Language: English, French), while their
`code` and every machine-readable member stay the same; an unsupported language gets
English. Every answer says its language (Content-Language) and Vary: Accept-Language."""

# French typography: its apostrophe is U+2019, which RUF001 takes for a look-alike.
# ruff: noqa: RUF001

from __future__ import annotations

import uuid

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from accounts.services import access_token_issue
from tests.games.helpers import GAMES, Table, create_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(auth_client) -> Table:
    return create_table([auth_client() for _ in range(4)])


def _out_of_turn(table: Table, language: str | None) -> dict:
    view = table.view(0)
    other = (view["turn"] + 1) % 4
    headers = {} if language is None else {"Accept-Language": language}
    response = table.act(other, {"type": "pass"}, view["version"], **headers)
    assert response.status_code == 422
    return {"body": response.json(), "headers": response.headers}


def test_a_rule_refusal_in_english_and_in_french_has_one_code_and_two_wordings(table):
    english = _out_of_turn(table, "en")
    french = _out_of_turn(table, "fr-FR,fr;q=0.9,en;q=0.5")

    assert english["body"]["code"] == french["body"]["code"] == "not_your_turn"
    assert english["body"]["type"] == french["body"]["type"] == "urn:belote:problem:not_your_turn"
    assert english["body"]["title"] == "Not your turn"
    assert english["body"]["detail"] == "it is not your turn"
    assert french["body"]["title"] == "Ce n’est pas à vous de jouer"
    assert french["body"]["detail"] == (
        "C’est à un autre joueur de parler ou de jouer : attendez votre tour."
    )
    assert english["headers"]["Content-Language"] == "en"
    assert french["headers"]["Content-Language"] == "fr"
    assert "Accept-Language" in french["headers"]["Vary"]


def test_an_unsupported_language_falls_back_to_english(table):
    german = _out_of_turn(table, "de-DE,de;q=0.9")
    unspecified = _out_of_turn(table, None)

    assert german["body"] == unspecified["body"]
    assert german["body"]["title"] == "Not your turn"
    assert german["headers"]["Content-Language"] == "en"


def test_a_card_refusal_in_french_uses_belote_words(table):
    view = table.view(0)
    while view["phase"] != "playing":
        seat = view["turn"]
        own = table.view(seat)
        table.act(seat, own["legal_actions"][0], own["version"])
        view = table.view(0)
    seat = view["turn"]
    own = table.view(seat)
    card = next(
        f"{rank}{suit}"
        for rank in "789TJQKA"
        for suit in "SHDC"
        if f"{rank}{suit}" not in own["hand"]
    )
    response = table.act(
        seat, {"type": "play", "card": card}, own["version"], **{"Accept-Language": "fr"}
    )

    assert response.status_code == 422
    assert response.json()["code"] == "card_not_in_hand"
    assert response.json()["title"] == "Cette carte n’est pas dans votre main"


def test_invalid_options_name_the_option_in_french(auth_client):
    response = auth_client().post(
        GAMES, {"options": {"target": 0}}, format="json", headers={"Accept-Language": "fr"}
    )

    body = response.json()
    assert response.status_code == 422
    assert body["code"] == "invalid_options"
    assert body["title"] == "Options de table invalides"
    assert body["errors"] == [
        {
            "field": "options.target",
            "code": "out_of_range",
            "message": "L’option « target » prend une autre valeur (docs/rules.md, Table options).",
        }
    ]


def test_a_version_conflict_in_french_keeps_its_numbers(table):
    view = table.view(0)
    seat = view["turn"]
    response = table.act(seat, {"type": "pass"}, view["version"] + 5, **{"Accept-Language": "fr"})

    body = response.json()
    assert response.status_code == 409
    assert body["code"] == "version_conflict"
    assert body["current_version"] == view["version"]
    assert body["detail"] == (
        f"Vous avez joué sur la version {view['version'] + 5} ; "
        f"la partie en est à la version {view['version']}."
    )


def test_framework_messages_follow_the_language_too(auth_client, api_client):
    missing = auth_client().post(
        f"{GAMES}/{uuid.uuid4()}/actions", {}, format="json", headers={"Accept-Language": "fr"}
    )
    no_token = api_client.get(GAMES, headers={"Accept-Language": "fr"})
    no_route = api_client.get("/api/v1/nowhere", headers={"Accept-Language": "fr"})

    assert missing.status_code == 400
    assert missing.json()["code"] == "validation_failed"
    assert missing.json()["title"] == "Requête invalide"
    assert missing.json()["errors"][0]["message"] == "Ce champ est obligatoire."
    assert no_token.status_code == 401
    assert no_token.json()["code"] == "not_authenticated"
    assert no_token.json()["title"] == "Non authentifié"
    assert no_token.json()["detail"] == "Informations d'authentification non fournies."
    assert no_route.status_code == 404
    assert no_route.json()["title"] == "Introuvable"
    assert no_route.headers["Content-Language"] == "fr"


@pytest.mark.django_db(transaction=True)
def test_the_async_feed_answers_in_french(make_user):
    """Through the ASGI handler, where the feed's views are coroutines."""
    token = access_token_issue(user=make_user())
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "fr"}
    response = async_to_sync(AsyncClient().get)(f"{GAMES}/{uuid.uuid4()}/events", headers=headers)

    assert response.status_code == 404, response.content.decode()
    assert response.json()["code"] == "game_not_found"
    assert response.json()["title"] == "Cette partie n’existe pas"
    assert response.headers["Content-Language"] == "fr"


@pytest.mark.django_db(transaction=True)
def test_the_streams_own_refusal_is_in_french(make_user):
    token = access_token_issue(user=make_user())
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "fr", "Last-Event-ID": "x"}
    response = async_to_sync(AsyncClient().get)(f"{GAMES}/{uuid.uuid4()}/stream", headers=headers)

    body = response.json()
    assert response.status_code == 400
    assert body["code"] == "validation_failed"
    assert body["errors"] == [
        {
            "field": "Last-Event-ID",
            "code": "invalid",
            "message": "Envoyez l’`id` du dernier événement reçu (chiffres ASCII).",
        }
    ]
