"""What reaches the application from a real server (tests/live_server.py): bodies over
the limit are refused unread, and the client address is the peer's, whatever
X-Forwarded-For says."""

import json
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from tests.live_server import live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LIMIT = 1000
REGISTERS_AN_HOUR = 3
# Generous: a working server answers in milliseconds.
SOCKET_TIMEOUT = 30.0


@pytest.fixture(scope="module")
def base_url(django_db_setup: None) -> Iterator[str]:
    with live_server(
        MAX_REQUEST_BODY_BYTES=str(LIMIT), THROTTLE_REGISTER=f"{REGISTERS_AN_HOUR}/hour"
    ) as server:
        yield server.url


def _answer_to(base_url: str, request: bytes) -> tuple[int, dict]:
    """Send `request` (a head and maybe a body that never ends) and read the answer."""
    address = urlsplit(base_url)
    with socket.create_connection((address.hostname, address.port), SOCKET_TIMEOUT) as conn:
        conn.sendall(request)
        answer = b""
        while not answer.rstrip().endswith(b"}"):
            more = conn.recv(65536)
            if not more:
                break
            answer += more
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), json.loads(rest.split(b"\r\n\r\n", 1)[1])


def _post_head(headers: str) -> bytes:
    return (
        "POST /api/v1/auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n{headers}\r\n"
    ).encode()


def test_a_40_mib_content_length_is_answered_413_with_no_byte_of_body_sent(base_url):
    # No body is ever sent: an answer can only come before reading it.
    status, problem = _answer_to(base_url, _post_head(f"Content-Length: {40 * 2**20}\r\n"))

    assert status == 413
    assert problem["code"] == "request_too_large"


def test_a_chunked_body_past_the_limit_is_answered_413_before_it_ends(base_url):
    chunk = b"x" * 512
    # Past the limit, and never ended (no last, empty chunk): the answer cannot wait
    # for the end of the body.
    body = b"%x\r\n%s\r\n" % (len(chunk), chunk) * (LIMIT // len(chunk) + 1)

    status, problem = _answer_to(base_url, _post_head("Transfer-Encoding: chunked\r\n") + body)

    assert status == 413
    assert problem["code"] == "request_too_large"


def test_x_forwarded_for_from_loopback_does_not_change_the_throttled_address(base_url):
    statuses = []
    with httpx.Client(base_url=base_url, timeout=SOCKET_TIMEOUT) as client:
        for attempt in range(REGISTERS_AN_HOUR + 1):
            response = client.post(
                "/api/v1/auth/register",
                json={"username": f"forwarded{attempt}", "password": "a-long-enough-password-1"},
                headers={"X-Forwarded-For": f"203.0.113.{attempt + 1}"},
            )
            statuses.append(response.status_code)

    assert statuses == [201] * REGISTERS_AN_HOUR + [429]
