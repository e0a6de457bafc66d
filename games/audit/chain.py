"""The hash chain over a game's stored events, and the canonical bytes it hashes.

    hash(seq) = SHA-256( raw hash(seq - 1) || canonical(record(seq)) ),  hash(0) = 32 zero bytes

where `record` is the JSON object `{"payload", "schema_version", "seq", "type"}` of the
event as stored and `canonical` its RFC 8785 (JCS) serialisation, UTF-8. Stored event
payloads hold no floating-point numbers (they are checked): for such values RFC 8785 is
exactly the JSON below, keys sorted by UTF-16 code units, no whitespace, strings escaped
as ECMAScript's JSON.stringify does, integers in decimal. Hand-written on the standard
library, not the `rfc8785` package, so that the offline verifier needs nothing installed;
tests/audit/test_chain.py checks it byte for byte against that package.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, NamedTuple

#: the link before the first event: 32 zero bytes, as 64 hex digits
GENESIS = "0" * 64
#: I-JSON's (RFC 7493) exact integers: what an IEEE double holds, as RFC 8785 requires
MAX_SAFE_INTEGER = 2**53 - 1


class NotCanonicalError(ValueError):
    """A value RFC 8785 cannot encode exactly here (a float, a huge integer, a lone
    surrogate, a key that is not a string)."""


def _checked(value: Any) -> bool:
    """Raise NotCanonicalError unless `value` is integer-only JSON; whether every object
    key is ASCII (then code-point order, what `sort_keys` gives, is RFC 8785's order)."""
    ascii_keys = True
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is str:
            _check_text(item)
        elif kind is int:
            if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                raise NotCanonicalError(f"integer out of the exact range: {item}")
        elif kind is dict:
            for key in item:
                if type(key) is not str:
                    raise NotCanonicalError(f"object key is not a string: {key!r}")
                if not key.isascii():
                    _check_text(key)
                    ascii_keys = False
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        elif item is not None and kind is not bool:
            raise NotCanonicalError(f"not an integer-only JSON value: {kind.__name__}")
    return ascii_keys


def _check_text(text: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate has no UTF-8 form
        raise NotCanonicalError("a string holds a lone surrogate") from error


def _sorted(value: Any) -> Any:
    """`value` with every object's keys in UTF-16 code-unit order (RFC 8785, 3.2.3)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
        return {key: _sorted(value[key]) for key in keys}
    if isinstance(value, list | tuple):
        return [_sorted(item) for item in value]
    return value


def canonical_bytes(value: Any) -> bytes:
    """RFC 8785 bytes of an integer-only JSON value; NotCanonicalError otherwise."""
    plain = _checked(value)
    # Only a non-ASCII key can sort otherwise in UTF-16 than in code points.
    value = value if plain else _sorted(value)
    # ensure_ascii=False: JSON.stringify leaves non-ASCII as is and escapes only `"`, `\`
    # and the controls below U+0020 (as \b \t \n \f \r or \u00xx), like json.dumps does.
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=plain)
    return text.encode("utf-8")


def record(seq: int, event_type: str, schema_version: int, payload: Any) -> dict[str, Any]:
    """What a link hashes: the event as stored, its place in the stream included."""
    return {"payload": payload, "schema_version": schema_version, "seq": seq, "type": event_type}


def link(previous: str, seq: int, event_type: str, schema_version: int, payload: Any) -> str:
    """The hash of event `seq` (lowercase hex) after the one whose hash is `previous`."""
    body = canonical_bytes(record(seq, event_type, schema_version, payload))
    return hashlib.sha256(bytes.fromhex(previous) + body).hexdigest()


class Link(NamedTuple):
    """One stored event as the chain sees it."""

    seq: int
    type: str
    schema_version: int
    payload: Any
    hash: str


class Break(NamedTuple):
    """The first place a stored chain differs from the one its events give."""

    seq: int
    expected: str
    found: str


def first_break(links: Iterable[Link]) -> Break | None:
    """Where the stored hashes (or the seqs, 1, 2, 3 ...) stop matching, or None."""
    previous = GENESIS
    for expected_seq, item in enumerate(links, start=1):
        if item.seq != expected_seq:
            return Break(expected_seq, f"seq {expected_seq}", f"seq {item.seq}")
        try:
            computed = link(previous, item.seq, item.type, item.schema_version, item.payload)
        except NotCanonicalError as error:
            return Break(item.seq, "an integer-only JSON payload", str(error))
        if computed != item.hash:
            return Break(item.seq, computed, item.hash)
        previous = item.hash
    return None
