from io import StringIO

import pytest
import yaml
from django.core.management import call_command

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


def test_problem_is_a_reusable_component(schema):
    problem = schema["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code"} <= set(problem["required"])
    assert "errors" in problem["properties"]


def test_bearer_scheme_is_documented(schema):
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "An opaque token from /api/v1/auth/register or /api/v1/auth/token.",
    }


def test_every_operation_documents_problem_answers(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "default" in responses, (method, path)
            errors = [status for status in responses if status.startswith(("4", "5"))]
            for status in [*errors, "default"]:
                content = responses[status]["content"]
                assert list(content) == ["application/problem+json"], (method, path, status)


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
