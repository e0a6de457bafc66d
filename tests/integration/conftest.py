"""Every answer the test client receives here is checked against the API's schema."""

from tests.openapi_contract import schema_checked_answers

__all__ = ["schema_checked_answers"]
