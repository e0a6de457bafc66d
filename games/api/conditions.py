"""Conditional request headers (RFC 9110 section 13): entity tags parsed strictly.

A game's ETag is its version, quoted (``"42"``; while seats still change, the version
and a digest, ``"0-1a2b..."``). An action may name the version it was decided on with
``If-Match: "42"`` instead of ``expected_version``. The header is checked against the
entity-tag grammar and a length bound before any of it is used:

- not a list of entity tags (or longer than ``MAX_HEADER_LENGTH``): 400 ``invalid_if_match``;
- ``*``: 428 ``version_required`` (it names no version);
- no strong tag holds a version (ASCII digits without leading zeros, at most
  ``MAX_VERSION``): 412 ``precondition_failed``, since no version of a game could match;
- two different versions, or another than the body's ``expected_version``: 400
  ``invalid_if_match`` (an action is decided on one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from belote_project.errors import ApplicationError, PreconditionFailedError
from games.errors import VersionRequiredError

#: Versions are stored in 32-bit columns (games.version, events.seq).
MAX_VERSION = 2**31 - 1
#: A condition naming one version needs a few bytes; nothing longer is read.
MAX_HEADER_LENGTH = 256
#: The syntax of If-Match for the schema: `*`, or a list of entity tags (RFC 9110).
IF_MATCH_PATTERN = r'^\s*(\*|(W/)?"[\x21\x23-\x7e]*"(\s*,\s*(W/)?"[\x21\x23-\x7e]*")*)\s*$'

# entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE ; etagc = %x21 / %x23-7E / obs-text
# (Django hands header bytes over decoded as latin-1, so obs-text is \x80-\xff.)
_ENTITY_TAG = r'(W/)?"([\x21\x23-\x7e\x80-\xff]*)"'
_TAG_LIST = re.compile(rf"[ \t]*{_ENTITY_TAG}(?:[ \t]*,[ \t]*{_ENTITY_TAG})*[ \t]*")
_ONE_TAG = re.compile(_ENTITY_TAG)
_VERSION = re.compile(r"0|[1-9][0-9]{0,9}")  # [0-9]: ASCII digits only, unlike isdigit()


class InvalidIfMatchError(ApplicationError):
    status = HTTPStatus.BAD_REQUEST
    code = "invalid_if_match"
    title = _('If-Match must be one entity tag naming a version, e.g. "42"')


@dataclass(frozen=True)
class EntityTag:
    opaque: str  # between the quotes
    weak: bool


def entity_tags(header: str) -> tuple[EntityTag, ...] | None:
    """The tags of an If-Match / If-None-Match value; () for ``*``, None if malformed."""
    if len(header) > MAX_HEADER_LENGTH:
        return None
    if header.strip(" \t") == "*":
        return ()
    if _TAG_LIST.fullmatch(header) is None:
        return None
    return tuple(
        EntityTag(opaque=match[2], weak=bool(match[1])) for match in _ONE_TAG.finditer(header)
    )


def _version(tag: EntityTag) -> int | None:
    if tag.weak or _VERSION.fullmatch(tag.opaque) is None:
        return None  # If-Match compares strongly: a weak tag never matches
    version = int(tag.opaque)
    return version if version <= MAX_VERSION else None


def if_match_version(header: str) -> int:
    """The version an If-Match header names; raises as the module docstring says."""
    tags = entity_tags(header)
    if tags is None:
        raise InvalidIfMatchError(gettext("If-Match is not a list of entity tags (RFC 9110)."))
    if not tags:
        raise VersionRequiredError(
            gettext('If-Match: * names no version; send If-Match: "<version>".')
        )
    versions = {version for version in map(_version, tags) if version is not None}
    if not versions:
        raise PreconditionFailedError(
            gettext('No game version matches this If-Match; send the game\'s ETag, e.g. "42".')
        )
    if len(versions) > 1:
        raise InvalidIfMatchError(
            gettext("If-Match names several versions; an action is decided on one.")
        )
    return versions.pop()


def expected_version(*, body: int | None, if_match: str | None) -> int:
    """The version an action was decided on: the body's ``expected_version`` or If-Match.

    If-Match is checked even beside the body's version (a malformed header is refused),
    and must then name the same version; with neither, 428 ``version_required``.
    """
    from_header = None if if_match is None else if_match_version(if_match)
    if body is not None and from_header is not None and body != from_header:
        raise InvalidIfMatchError(gettext("If-Match and expected_version name different versions."))
    version = body if body is not None else from_header
    if version is None:
        raise VersionRequiredError(
            gettext('Send expected_version in the body or If-Match: "<version>".')
        )
    return version


def if_none_match_hits(header: str | None, etag: str) -> bool:
    """Whether If-None-Match names `etag` (weak comparison); a malformed value never does."""
    tags = entity_tags(header) if header else None
    if tags is None:
        return False
    return not tags or etag.strip('"') in {tag.opaque for tag in tags}
