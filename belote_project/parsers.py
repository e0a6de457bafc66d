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

# A whole string, escapes included, so that brackets inside strings do not count. The
# unrolled form is linear in the length of the text.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# Depth does not depend on the kind of bracket; json itself refuses "[}".
_ONE_KIND = str.maketrans("{}", "[]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_nesting(text: str, limit: int) -> None:
    """ParseError unless the arrays and objects of `text` pair up and nest at most
    `limit` deep (brackets inside strings do not count).

    Strings and everything but brackets are dropped; each pass then removes the
    innermost empty pairs, so what nests `d` deep is gone after `d` passes. A pair left
    after `limit` passes nested deeper; brackets that stop pairing up are no JSON (and
    json would recurse into ``"[" * 100_000`` before finding that out). A pass is one
    str.replace, never a Python loop over the characters.
    """
    if text.count("[") + text.count("{") <= limit:
        return  # the usual small body: json recurses at most `limit` deep
    # After the strings, a quote left opens one never closed: the rest is inside it.
    outside_strings = _STRING.sub("", text).partition('"')[0]
    skeleton = _NOT_BRACKET.sub("", outside_strings).translate(_ONE_KIND)
    for _ in range(limit):
        reduced = skeleton.replace("[]", "")
        if reduced == skeleton:
            break
        skeleton = reduced
    if "[]" in skeleton:
        raise ParseError(f"Arrays and objects may nest at most {limit} deep.", code="json_too_deep")
    if skeleton:
        raise ParseError("JSON parse error - brackets do not pair up.")


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
        check_nesting(text, MAX_JSON_DEPTH)
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
