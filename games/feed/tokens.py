"""Who a feed's token belongs to, and whether it still authenticates: one query for every
follower asking at once.

Followers come and go together: a move wakes every follower of a game in the same turn
of the event loop, each one due a token recheck (waiting.py's `TokenClock`), and a
long-poll's followers come back with their next poll within the same few milliseconds,
each to be authenticated (games/api/feed_hot.py). Here the questions asked in one turn
of the loop wait for the next turn and are answered by one statement on the thread
pool. Measured on 200 spectators of one game by SSE (`./scripts/bench load`, quiet
machine, alternating): delivery p99 103-113 ms with the rechecks batched, 144-151 ms
with one query each.

One batch of each kind runs at a time per event loop; it is detached from the followers
(a follower that leaves does not cancel the others' answer).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Collection, Hashable, Mapping
from typing import Generic, TypeVar

from accounts.selectors import TokenHolder, access_token_holders, access_tokens_alive
from games.feed.threads import detached, in_pool_thread

Key = TypeVar("Key", bound=Hashable)
Answer = TypeVar("Answer")


class _Asked(Generic[Key, Answer]):
    """The questions asked since the last statement, and that statement's task."""

    def __init__(self) -> None:
        self.asked: dict[Key, asyncio.Future[Answer | None]] = {}
        self.task: asyncio.Task[None] | None = None


class LoopBatch(Generic[Key, Answer]):
    """Questions asked in one turn of an event loop, answered together by `answer_all`
    (a sync read of many keys at once, run on the loop's thread pool); a key it leaves
    out is answered None."""

    def __init__(self, answer_all: Callable[[list[Key]], Mapping[Key, Answer]]) -> None:
        self._answer_all = in_pool_thread(answer_all)
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Asked[Key, Answer]]
        self._loops = weakref.WeakKeyDictionary()

    async def ask(self, key: Key) -> Answer | None:
        loop = asyncio.get_running_loop()
        batch = self._loops.get(loop)
        if batch is None:
            batch = self._loops[loop] = _Asked()
        answer = batch.asked.get(key)
        if answer is None:
            answer = batch.asked[key] = loop.create_future()
        if batch.task is None:
            batch.task = detached(loop, self._answer(batch))
        return await asyncio.shield(answer)

    async def _answer(self, batch: _Asked[Key, Answer]) -> None:
        await asyncio.sleep(0)  # the others asking in this turn of the loop come first
        asked, batch.asked = batch.asked, {}
        batch.task = None  # questions asked from now on go to the next statement
        try:
            answers = await self._answer_all(list(asked))
        except asyncio.CancelledError:
            for answer in asked.values():
                answer.cancel()
            raise
        except Exception as error:
            for answer in asked.values():
                if not answer.done():
                    answer.set_exception(error)
            return
        for key, answer in asked.items():
            if not answer.done():
                answer.set_result(answers.get(key))


def _alive(token_ids: Collection[int]) -> dict[int, bool]:
    return dict.fromkeys(access_tokens_alive(token_ids=token_ids), True)


def _holders(tokens: Collection[str]) -> dict[str, TokenHolder]:
    return access_token_holders(tokens=tokens)


_alive_batch: LoopBatch[int, bool] = LoopBatch(_alive)
_holder_batch: LoopBatch[str, TokenHolder] = LoopBatch(_holders)


async def token_alive(token_id: int) -> bool:
    """Whether the token record `token_id` would still authenticate a request."""
    return bool(await _alive_batch.ask(token_id))


async def token_holder(token: str) -> TokenHolder | None:
    """Whose the presented `token` is, if it would authenticate a request now
    (accounts' `access_token_find` rule); None if it would not."""
    return await _holder_batch.ask(token)
