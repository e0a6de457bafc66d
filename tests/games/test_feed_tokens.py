"""The feed's token lookups, batched: the rechecks that fall due and the polls that arrive in
one turn of the event loop are answered together (games/feed/tokens.py)."""

import asyncio
from collections.abc import Callable

import pytest
from django.utils import timezone

from accounts.models import AccessToken, User
from accounts.selectors import TokenHolder
from accounts.services import access_token_issue
from accounts.tokens import token_digest
from games.feed import tokens
from games.feed.tokens import token_alive, token_holder
from tests.games.feed_support import run_closing_connections

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _tokens(make_user: Callable[..., User], count: int) -> list[AccessToken]:
    return [
        AccessToken.objects.get(digest=token_digest(access_token_issue(user=make_user())))
        for _ in range(count)
    ]


def test_checks_asked_together_each_get_their_own_answer(make_user: Callable[..., User]) -> None:
    tokens = _tokens(make_user, 6)
    ids = [token.pk for token in tokens]
    tokens[1].delete()  # logged out
    AccessToken.objects.filter(pk=tokens[4].pk).update(expires_at=timezone.now())

    async def scenario() -> list[bool]:
        # Twice the same token too: two feeds of one user share its answer.
        asked = [*ids, ids[0]]
        return list(await asyncio.gather(*(token_alive(token_id) for token_id in asked)))

    answers = run_closing_connections(scenario)

    assert answers == [True, False, True, True, False, True, True]


def test_a_follower_that_leaves_does_not_take_the_others_answer(
    make_user: Callable[..., User],
) -> None:
    leaving, staying = _tokens(make_user, 2)

    async def scenario() -> bool:
        gone = asyncio.ensure_future(token_alive(leaving.pk))
        kept = asyncio.ensure_future(token_alive(staying.pk))
        await asyncio.sleep(0)
        gone.cancel()  # its client disconnected while the query ran
        return await kept

    assert run_closing_connections(scenario) is True


def test_checks_asked_after_a_query_started_get_the_next_one(
    make_user: Callable[..., User],
) -> None:
    early, late = (token.pk for token in _tokens(make_user, 2))

    async def scenario() -> tuple[bool, bool]:
        first = asyncio.ensure_future(token_alive(early))
        await asyncio.sleep(0.05)  # the first query is on its way
        await asyncio.to_thread(AccessToken.objects.filter(pk=late).delete)
        return await first, await token_alive(late)

    assert run_closing_connections(scenario) == (True, False)


def test_holders_asked_together_are_found_by_one_statement(
    make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [make_user() for _ in range(4)]
    presented = [access_token_issue(user=user) for user in users]
    AccessToken.objects.filter(digest=token_digest(presented[1])).delete()  # logged out
    AccessToken.objects.filter(digest=token_digest(presented[2])).update(expires_at=timezone.now())
    statements: list[list[str]] = []
    counted = tokens.access_token_holders

    def counting(*, tokens: list[str]) -> dict[str, TokenHolder]:
        statements.append(tokens)
        return counted(tokens=tokens)

    monkeypatch.setattr(tokens, "access_token_holders", counting)

    async def scenario() -> list[TokenHolder | None]:
        # A token asked twice (two polls of one user) is asked once.
        asked = [*presented, presented[0]]
        return list(await asyncio.gather(*(token_holder(token) for token in asked)))

    answers = run_closing_connections(scenario)

    first, fourth = (
        TokenHolder(
            token_id=AccessToken.objects.get(digest=token_digest(token)).pk, user_id=user.pk
        )
        for token, user in ((presented[0], users[0]), (presented[3], users[3]))
    )
    assert answers == [first, None, None, fourth, first]
    assert [sorted(asked) for asked in statements] == [sorted(presented)]
