"""The one request-body parser: JSON, refused whole unless every part of it is sane.

Python's json module decodes recursively (100,000 nested brackets raise RecursionError,
a 500), turns escapes such as ``"\\ud800"`` into strings no UTF-8 encoder accepts, and
raises ValueError on integers past ``sys.get_int_max_str_digits()``. Each of these is
refused here with a 400 problem, so no view ever sees such a value:

- nesting deeper than ``MAX_JSON_DEPTH`` (``json_too_deep``), found by a scan of the text
  before anything decodes it recursively;
- a string or key holding a lone surrogate, i.e. not a sequence of Unicode scalar values
  (``invalid_unicode``);
- anything else json refuses, NaN and Infinity, and numbers that overflow a float or
  exceed the integer digit limit (``parse_error``).
"""

import json
import math
import re
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

#: Deepest nesting of arrays and objects a body may have; our requests need four.
MAX_JSON_DEPTH = 32

# Tokens of the depth scan: a whole string (escapes included, so brackets inside it do
# not count), an opening or closing bracket, or a quote that opens a string never closed.
# The string alternative is the unrolled form, linear in the length of the text.
_DEPTH_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]|[\]}]|"', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether arrays and objects in `text` nest deeper than `limit` (strings skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return False  # the usual small body: no scan needed
    depth = 0
    for match in _DEPTH_TOKENS.finditer(text):
        lexeme = match.group()
        if lexeme in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif lexeme in ("]", "}"):
            depth -= 1
        elif lexeme == '"':
            break  # the rest is inside an unterminated string: json will refuse it
    return False


def holds_lone_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value has a string or key that is not valid Unicode."""
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(holds_lone_surrogate(key) or holds_lone_surrogate(v) for key, v in value.items())
    if isinstance(value, list):
        return any(holds_lone_surrogate(item) for item in value)
    return False


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]}... does not fit a floating-point number")
    return number


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONParser(BaseParser):
    """``application/json`` in UTF-8 (RFC 8259), with the refusals of the module docstring."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            text = stream.read().decode("utf-8")
        except UnicodeDecodeError as error:
            raise ParseError(f"The body is not UTF-8: {error.reason}.") from error
        if json_depth_exceeds(text, MAX_JSON_DEPTH):
            raise ParseError(
                f"Arrays and objects may nest at most {MAX_JSON_DEPTH} deep.", code="json_too_deep"
            )
        try:
            data = json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
        except ValueError as error:  # JSONDecodeError, or a number json cannot hold
            raise ParseError(f"JSON parse error - {error}") from error
        if holds_lone_surrogate(data):
            raise ParseError(
                "A string holds a lone surrogate (\\ud800-\\udfff): not valid Unicode.",
                code="invalid_unicode",
            )
        return data
