"""Query strings validated strictly, and a query's verdict remembered (belote_project/query.py)."""

from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework import serializers
from rest_framework.request import Request

from belote_project import query
from belote_project.query import validated_query


class Page(serializers.Serializer[Any]):
    after = serializers.IntegerField(min_value=0, default=0)
    wait = serializers.FloatField(min_value=0, max_value=30, default=0)


def _request(query_string: str) -> Request:
    return Request(RequestFactory().get(f"/somewhere?{query_string}"))


@pytest.fixture(autouse=True)
def _forget() -> None:
    query._remembered.cache_clear()


def test_a_remembered_verdict_is_the_serializers_own() -> None:
    first = validated_query(Page, _request("after=7&wait=2.5"))
    again = validated_query(Page, _request("wait=2.5&after=7"))  # the same query

    assert first == again == {"after": 7, "wait": 2.5}
    assert query._remembered.cache_info().hits == 1
    again["after"] = 8  # a caller's copy: the verdict itself does not change
    assert validated_query(Page, _request("after=7&wait=2.5"))["after"] == 7


@pytest.mark.parametrize("query_string", ["after=-1", "wait=31", "after=", "after=1&after=2"])
def test_an_invalid_query_is_refused_every_time(query_string: str) -> None:
    for _ in range(2):
        with pytest.raises(serializers.ValidationError):
            validated_query(Page, _request(query_string))
    assert query._remembered.cache_info().currsize == 0


def test_a_long_query_is_validated_but_not_remembered() -> None:
    long = "after=1&" + "x" * query.REMEMBERED_QUERY_CHARACTERS + "=1"

    assert validated_query(Page, _request(long)) == {"after": 1, "wait": 0.0}
    assert query._remembered.cache_info().currsize == 0
