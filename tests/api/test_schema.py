"""The OpenAPI document: generated without a warning, every error a problem with its codes,
one tag per resource, and the shapes clients rely on (pages, version conflicts, 429s)."""

from io import StringIO

import pytest
import yaml
from django.core.management import call_command

from games.rules.wire import SCHEMAS

pytestmark = pytest.mark.django_db


def test_schema_generates_and_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    schema = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        out = StringIO()
        call_command("spectacular", stdout=out)
    return yaml.safe_load(out.getvalue())


def test_every_problem_component_is_an_rfc_9457_document(schema):
    problems = {
        name: component
        for name, component in schema["components"]["schemas"].items()
        if name.endswith("Problem") and "oneOf" not in component
    }
    assert len(problems) > 10
    for name, problem in problems.items():
        assert {"type", "title", "status", "detail", "code"} <= set(problem["required"]), name
        assert "errors" in problem["properties"], name


def test_bearer_scheme_is_documented(schema):
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "An opaque token from /api/v1/auth/register or /api/v1/auth/token.",
    }


def test_every_error_answer_is_a_problem_with_its_codes_as_an_enum(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "default" not in responses, (method, path)
            for status in [status for status in responses if status.startswith(("4", "5"))]:
                content = responses[status]["content"]
                assert list(content) == ["application/problem+json"], (method, path, status)
                for problem in _alternatives(schema, content["application/problem+json"]):
                    code = _component(schema, _ref(problem["properties"]["code"]))
                    assert code["enum"], (method, path, status)


def _alternatives(schema, media):
    component = _component(schema, media["schema"])
    return (
        [_component(schema, ref) for ref in component["oneOf"]]
        if "oneOf" in component
        else [component]
    )


def test_a_version_conflict_carries_the_game_and_its_version(schema):
    responses = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    conflicts = _alternatives(schema, responses["409"]["content"]["application/problem+json"])
    (stale,) = [p for p in conflicts if "game" in p["properties"]]
    assert {"game", "current_version"} <= set(stale["required"])
    assert _ref(stale["properties"]["game"])["$ref"].endswith("/GameView")


def test_a_429_says_how_long_to_wait(schema):
    answer = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]["429"]
    assert answer["headers"]["Retry-After"]["schema"]["type"] == "integer"
    problem = _component(schema, answer["content"]["application/problem+json"]["schema"])
    assert problem["properties"]["retry_after"]["type"] == "integer"


def test_events_are_one_component_per_type_told_apart_by_type(schema):
    event = schema["components"]["schemas"]["Event"]
    assert event["discriminator"]["propertyName"] == "type"
    assert set(event["discriminator"]["mapping"]) == {name for name, _, _ in SCHEMAS.values()}
    assert len(event["oneOf"]) == len(SCHEMAS)


def test_the_schema_says_messages_follow_accept_language_and_where_the_rules_are(schema):
    assert "Accept-Language" in schema["info"]["description"]
    assert "docs/rules.md" in schema["info"]["description"]
    problems = [
        component
        for name, component in schema["components"]["schemas"].items()
        if name.endswith("Problem") and "oneOf" not in component
    ]
    for problem in problems:
        for member in ("title", "detail"):
            assert "Accept-Language" in problem["properties"][member]["description"]


def test_one_tag_per_resource(schema):
    tags = {
        path: {tag for operation in operations.values() for tag in operation["tags"]}
        for path, operations in schema["paths"].items()
    }
    assert tags["/api/v1/auth/token"] == {"auth"}
    assert tags["/api/v1/me"] == {"me"}
    assert tags["/api/v1/games/{game_id}"] == {"games"}
    assert tags["/api/v1/games/{game_id}/stream"] == {"feed"}
    assert all(len(names) == 1 for names in tags.values())


def test_login_documents_401_and_429(schema):
    responses = schema["paths"]["/api/v1/auth/token"]["post"]["responses"]
    assert {"200", "400", "401", "429"} <= set(responses)


def test_schema_and_docs_are_served_without_a_cdn(api_client):
    assert api_client.get("/api/v1/schema/").status_code == 200
    docs = api_client.get("/api/v1/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower()


def _ref(prop):
    """A property's reference, through the allOf that a description wraps it in."""
    return prop["allOf"][0] if "allOf" in prop else prop


def _component(schema, reference):
    return schema["components"]["schemas"][reference["$ref"].rsplit("/", 1)[-1]]


def test_the_game_list_is_documented_as_the_page_it_answers(schema):
    listing = schema["paths"]["/api/v1/games"]["get"]
    page = _component(schema, listing["responses"]["200"]["content"]["application/json"]["schema"])
    assert set(page["properties"]) == {"next", "previous", "results"}
    parameters = {p["name"]: p["schema"] for p in listing["parameters"]}
    assert parameters["page_size"] == {"type": "integer", "minimum": 1, "maximum": 200}
    assert parameters["cursor"]["pattern"] == "^[A-Za-z0-9+/=]+$"
    assert "404" in listing["responses"]


def test_idempotency_keys_are_documented_as_the_api_checks_them(schema):
    create = schema["paths"]["/api/v1/games"]["post"]
    (key,) = [p for p in create["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["schema"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": "^[!-~]([ -~]*[!-~])?$",
    }


def test_bodies_the_rules_parse_refuse_unknown_keys_in_the_schema_too(schema):
    components = schema["components"]["schemas"]
    assert components["OptionsRequest"]["additionalProperties"] is False
    assert components["ActionRequest"]["additionalProperties"] is False
    assert "additionalProperties" not in components["Options"]
