"""Every answer carries a Content-Security-Policy and nosniff; the HTML pages still work
under theirs (every asset and script they name is a file of this origin)."""

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from belote_project.static_files import with_static_files
from tests.api.test_errors import post_raw

pytestmark = pytest.mark.django_db

API_POLICY = "default-src 'none'; frame-ancestors 'none'"


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    named = (part.strip().partition(" ") for part in policy.split(";"))
    return {name: value for name, _, value in named}


class _Page(HTMLParser):
    """The URLs a page loads, and the bodies of its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href"):
            if found.get(name) and tag in ("script", "link", "img"):
                self.urls.append(found[name] or "")
        self._in_inline_script = tag == "script" and not found.get("src")
        if self._in_inline_script:
            self.inline_scripts.append("")

    def handle_data(self, data: str) -> None:
        if self._in_inline_script:
            self.inline_scripts[-1] += data

    def handle_endtag(self, tag: str) -> None:
        self._in_inline_script = False


def page_of(response) -> _Page:
    page = _Page()
    page.feed(response.content.decode())
    return page


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/healthz"), ("get", "/api/v1/me"), ("get", "/nowhere"), ("get", "/api/v1/schema/")],
)
def test_answers_that_are_not_pages_forbid_every_resource(api_client, method, path):
    response = getattr(api_client, method)(path)

    assert response["Content-Security-Policy"] == API_POLICY
    assert response["X-Content-Type-Options"] == "nosniff"


def test_answers_made_before_the_security_middleware_get_the_headers_too(api_client, settings):
    settings.MAX_REQUEST_BODY_BYTES = 10
    response = post_raw(api_client, "/api/v1/auth/token", b"{}" * 10)

    assert response.status_code == 413
    assert response["Content-Security-Policy"] == API_POLICY
    assert response["X-Content-Type-Options"] == "nosniff"


def assert_page_policy(response) -> dict[str, str]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["X-Content-Type-Options"] == "nosniff"
    policy = directives(response)
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["object-src"] == "'none'"
    return policy


def assert_same_origin_files(urls: list[str]) -> None:
    assert urls
    for url in urls:
        parts = urlsplit(url)
        assert not parts.scheme, url
        assert not parts.netloc, url
        assert url.startswith("/static/"), url
        assert finders.find(parts.path.removeprefix("/static/")), url


def test_swagger_ui_loads_only_files_of_this_origin_and_no_inline_script(api_client):
    response = api_client.get("/api/v1/docs/")

    assert_page_policy(response)
    page = page_of(response)
    assert page.inline_scripts == []
    start_up = [url for url in page.urls if url.startswith("/api/v1/docs/")]
    assert_same_origin_files([url for url in page.urls if url not in start_up])
    assert len(start_up) == 1
    script = api_client.get(start_up[0])
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "/api/v1/schema/" in script.content.decode()  # what it loads: this origin's schema


def test_the_admin_login_page_loads_only_files_of_this_origin(admin_user):
    response = Client().get("/admin/login/")

    policy = assert_page_policy(response)
    assert policy["form-action"] == "'self'"
    page = page_of(response)
    assert page.inline_scripts == []
    assert_same_origin_files(page.urls)


def test_a_signed_in_admin_page_loads_only_files_of_this_origin(admin_user):
    client = Client()
    client.force_login(admin_user)
    response = client.get("/admin/")

    assert_page_policy(response)
    page = page_of(response)
    assert page.inline_scripts == []
    assert_same_origin_files([url for url in page.urls if not url.startswith("/admin/")])


def test_static_files_are_served_with_nosniff(settings, tmp_path):
    (tmp_path / "app.js").write_text("let answer = 42;")
    settings.STATIC_ROOT = tmp_path
    started: list[tuple[str, list[tuple[str, str]]]] = []
    serve = with_static_files(lambda environ, start_response: [])

    body = serve(
        {"REQUEST_METHOD": "GET", "PATH_INFO": "/static/app.js", "QUERY_STRING": ""},
        lambda status, headers: started.append((status, headers)),
    )

    status, headers = started[0]
    assert status.startswith("200")
    assert ("X-Content-Type-Options", "nosniff") in headers
    assert b"".join(body) == b"let answer = 42;"
