"""The API's own OpenAPI schema as a test oracle: every answer a test receives must match it.

`strict_schema()` is the schema the server publishes with every object closed
(`additionalProperties: false` where it lists properties), so that an undocumented
field fails as surely as an undocumented status. `check_answer` validates one answer
with openapi-core; `schema_checked_answers` (autouse in tests/api and tests/games)
runs it on every response of DRF's test client.
"""

import copy
import functools
import json
import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from openapi_core import Config, OpenAPI
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
from openapi_core.testing import MockRequest, MockResponse
from rest_framework.test import APIClient

HOST = "http://testserver"


def _close(node: Any) -> None:
    if isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for value in node.values():
            _close(value)
    elif isinstance(node, list):
        for value in node:
            _close(value)


@functools.cache
def published_schema() -> dict[str, Any]:
    """The schema /api/v1/schema/ serves, as plain JSON values."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(schema, default=str))


@functools.cache
def strict_schema() -> dict[str, Any]:
    schema = copy.deepcopy(published_schema())
    _close(schema["components"])
    return schema


def _ndjson_lines(body: bytes | str) -> list[Any]:
    text = body.decode() if isinstance(body, bytes) else body
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@functools.cache
def _openapi() -> OpenAPI:
    # openapi-core reads only application/json as JSON; a problem document is JSON too,
    # and an NDJSON log (games/api/audit.py) is documented as the array of its lines.
    config = Config(
        extra_media_type_deserializers={
            "application/problem+json": json.loads,
            "application/x-ndjson": _ndjson_lines,
        }
    )
    return OpenAPI.from_dict(strict_schema(), config=config)


def prepare() -> None:
    """Build the schema and its validator now: drf-spectacular's generation is not safe to
    run first in several threads at once, as tests reading answers in threads would."""
    _openapi()


def check_answer(
    *, method: str, path: str, status: int, content_type: str, body: bytes, query: Any = None
) -> None:
    """Raise if this answer is not one the schema documents for this request.

    Requests to paths the schema does not describe (Django's 404s, the admin, the docs)
    and 405s for methods no path has are not the schema's to judge.
    """
    request = MockRequest(HOST, method, path, args=dict(query or {}))
    media_type = content_type.split(";", maxsplit=1)[0].strip()
    response = MockResponse(body, status_code=status, content_type=media_type)
    try:
        _openapi().validate_response(request, response)
    except PathNotFound:
        return
    except OperationNotFound:
        if status == 405:
            return
        raise


def check_stream_answer(*, method: str, path: str, status: int, content_type: str) -> None:
    """Raise unless the schema documents this status with this media type for the request:
    a stream's frames are not a JSON document openapi-core could read, but its status and
    type are the schema's to say."""
    media_type = content_type.split(";", maxsplit=1)[0].strip()
    for template, operations in published_schema()["paths"].items():
        pattern = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in operations:
            responses = operations[method.lower()]["responses"]
            documented = responses.get(str(status), {}).get("content", {})
            assert media_type in documented, f"{method} {path}: {status} {media_type} undocumented"
            return


def check_django_response(response: Any) -> None:
    request = response.wsgi_request
    content_type = response.get("Content-Type", "")
    if response.status_code in (204, 304):
        assert not content_type, f"a {response.status_code} has no body to type: {content_type}"
    streaming = getattr(response, "streaming", False)
    if streaming and content_type.startswith("text/event-stream"):
        check_stream_answer(
            method=request.method,
            path=request.path,
            status=response.status_code,
            content_type=content_type,
        )
        return
    body = b"" if streaming else response.content
    check_answer(
        method=request.method,
        path=request.path,
        status=response.status_code,
        content_type=content_type if body or streaming else "",
        body=body,
        query=request.GET,
    )


@pytest.fixture(autouse=True)
def schema_checked_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer DRF's test client receives is checked against the schema."""
    original = APIClient.request

    def request(self: APIClient, *args: Any, **kwargs: Any) -> Any:
        response = original(self, *args, **kwargs)
        check_django_response(response)
        return response

    monkeypatch.setattr(APIClient, "request", request)
