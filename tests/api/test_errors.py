"""Every error answer is application/problem+json in one shape, never HTML, never a 5xx
for a malformed request."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"
REGISTER = "/api/v1/auth/register"


def assert_problem(response, status, code):
    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == f"urn:belote:problem:{code}"
    assert body["title"]
    assert body["detail"]
    return body


def post_raw(client, path, body, content_type="application/json", **extra):
    return client.generic("POST", path, body, content_type=content_type, **extra)


def test_invalid_json_is_400_parse_error(api_client):
    body = assert_problem(post_raw(api_client, REGISTER, b'{"username": '), 400, "parse_error")
    assert body["instance"] == REGISTER


def test_body_that_is_not_utf8_is_400(api_client):
    assert_problem(post_raw(api_client, REGISTER, b'{"username": "\xff"}'), 400, "parse_error")


def test_missing_fields_are_listed_with_code_required(api_client):
    body = assert_problem(api_client.post(REGISTER, {}, format="json"), 400, "validation_failed")

    assert {(e["field"], e["code"]) for e in body["errors"]} == {
        ("username", "required"),
        ("password", "required"),
    }


def test_fields_of_the_wrong_type_are_invalid(api_client):
    response = api_client.post(REGISTER, {"username": ["a"], "password": {}}, format="json")

    body = assert_problem(response, 400, "validation_failed")
    assert {(e["field"], e["code"]) for e in body["errors"]} == {
        ("username", "invalid"),
        ("password", "invalid"),
    }


def test_a_json_array_instead_of_an_object_is_a_non_field_error(api_client):
    response = api_client.post(REGISTER, [1, 2], format="json")

    body = assert_problem(response, 400, "validation_failed")

    assert body["errors"][0]["field"] == "non_field_errors"


def test_form_encoded_body_is_415(api_client):
    response = post_raw(api_client, REGISTER, b"username=a", "application/x-www-form-urlencoded")

    assert_problem(response, 415, "unsupported_media_type")


def test_oversized_body_is_413_before_parsing(api_client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 1000

    assert_problem(post_raw(api_client, REGISTER, b"x" * 1001), 413, "request_too_large")


def test_unreadable_content_length_is_400(api_client):
    response = post_raw(api_client, REGISTER, b"{}", CONTENT_LENGTH="lots")

    assert_problem(response, 400, "malformed_request")


def test_html_only_accept_header_is_406(api_client):
    response = api_client.get("/api/v1/me", HTTP_ACCEPT="text/html")

    assert_problem(response, 406, "not_acceptable")


def test_unknown_api_path_is_404(api_client):
    assert_problem(api_client.get("/api/v1/no-such-thing"), 404, "not_found")


def test_unknown_path_outside_the_api_is_404(api_client):
    assert_problem(api_client.get("/nowhere"), 404, "not_found")


def test_unknown_path_is_json_even_with_debug_on(api_client, settings):
    settings.DEBUG = True

    assert_problem(api_client.get("/nowhere"), 404, "not_found")


def test_wrong_method_is_405_with_allow(api_client):
    response = api_client.get(REGISTER)

    assert_problem(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


def test_malformed_authorization_header_is_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer two words")

    assert_problem(api_client.get("/api/v1/me"), 401, "malformed_token")


def test_disallowed_host_is_400(api_client):
    assert_problem(api_client.get("/api/v1/me", HTTP_HOST="evil.example"), 400, "bad_request")


@pytest.mark.urls("tests.api.failing_urls")
def test_application_error_carries_its_code_errors_and_extra(api_client):
    response = api_client.post("/test/raising-api", {}, format="json")

    body = assert_problem(response, 409, "seat_taken")

    assert body["title"] == "Seat taken"
    assert body["detail"] == "Seat 2 is taken."
    assert body["errors"] == [{"field": "seat", "code": "taken", "message": "Seat 2 is taken."}]
    assert body["current_version"] == 7


@pytest.mark.urls("tests.api.failing_urls")
@pytest.mark.parametrize("path", ["/test/raising-api", "/test/raising-view"])
def test_a_crash_is_a_500_problem_without_internals(path):
    client = APIClient(raise_request_exception=False)

    body = assert_problem(client.get(path), 500, "server_error")
    assert "a bug" not in str(body)


@pytest.mark.urls("tests.api.failing_urls")
def test_a_crash_is_json_even_with_debug_on(settings):
    settings.DEBUG = True
    client = APIClient(raise_request_exception=False)

    assert_problem(client.get("/test/raising-view"), 500, "server_error")
