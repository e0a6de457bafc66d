"""Query parameters as plain values, for a serializer to validate strictly.

A DRF serializer given a QueryDict reads it as an HTML form: an empty value of an
optional field (``?status=``) counts as not sent, so a typo or a client bug is quietly
ignored. Given one plain value per name instead, the field validates ``""`` like any
other value (a blank or an invalid choice: 400), and a name sent twice is refused
rather than one of its values picked.
"""

from rest_framework import serializers
from rest_framework.request import Request


def query_values(request: Request) -> dict[str, str]:
    """One value per parameter name; ValidationError (400) for a repeated name."""
    params = request.query_params
    repeated = {
        name: [serializers.ErrorDetail("Send this parameter once.", code="repeated")]
        for name, values in params.lists()
        if len(values) > 1
    }
    if repeated:
        raise serializers.ValidationError(repeated)
    return params.dict()
