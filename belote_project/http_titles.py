"""The title of a problem that has none of its own: its HTTP status phrase, translated."""

from http import HTTPStatus

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

# The phrases of the statuses this service answers with (RFC 9110), as msgids.
_PHRASES: dict[int, StrOrPromise] = {
    400: _("Bad Request"),
    401: _("Unauthorized"),
    403: _("Forbidden"),
    404: _("Not Found"),
    405: _("Method Not Allowed"),
    406: _("Not Acceptable"),
    409: _("Conflict"),
    412: _("Precondition Failed"),
    413: _("Content Too Large"),
    415: _("Unsupported Media Type"),
    422: _("Unprocessable Content"),
    428: _("Precondition Required"),
    429: _("Too Many Requests"),
    500: _("Internal Server Error"),
    503: _("Service Unavailable"),
}


def status_title(status: int) -> str:
    """The status's phrase in the active language (English for one not listed above)."""
    if status in _PHRASES:
        return str(_PHRASES[status])
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
