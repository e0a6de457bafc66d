"""The HTTP scope an ASGI server hands the application, for code that drives it directly
(the floor benchmark, and tests)."""

from typing import Any


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]], query: str = ""
) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
