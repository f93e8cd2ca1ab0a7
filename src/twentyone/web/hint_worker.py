"""The web table's hint: the exact best play over the cards the players know, worked out off
the event loop.

A question's exact answer (:func:`twentyone.analysis.hints.best_play`: ``twentyone advise``'s
returns on the shoe as the players know it — with a cut-card shoe the full shoe less every card seen
since the shuffle, the dealer's hole card excepted; with a continuous shuffler the full shoe
less the cards in sight this round) takes a few milliseconds of CPU for a new shoe
composition, tens for some pairs. The server's event loop must not wait for it, so:

- :class:`HintPool` runs the work on one worker thread with a bounded number of questions
  waiting (a question that finds the queue full keeps the chart's hint);
- :class:`ExactHints` keeps the answers per question and shoe composition (a bounded LRU);
- :class:`TableHint` follows one table's round from the event loop: the page is shown the
  chart's move at once and the exact one once it is ready (the table's tick picks it up and
  the table's view goes out again). A question is sent to the worker only for a player
  whose page shows the hint (it says so with a ``hints`` message, :func:`hints_on`), at the
  table's first tick after it is asked, so a question answered at once costs nothing.

The decision clock does not wait for any of this: when a player does not act in time the
table plays its default action, the basic-strategy chart, chosen when the question is asked.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Set
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from twentyone.analysis.hints import HandQuestion, best_play, hand_question
from twentyone.engine.rules import Rules
from twentyone.engine.session_parts import Played
from twentyone.i18n import N_
from twentyone.web.refusal import TableError

log = logging.getLogger(__name__)
_MISSING: Any = object()


class HintPool:
    """One worker thread for the exact hints of every table, at most ``max_pending``
    questions waiting or running (a bound on the work queued, whatever the load).

    >>> pool = HintPool(max_pending=1)
    >>> pool.submit(lambda: 6 * 7).result()
    42
    >>> pool.shutdown()
    """

    def __init__(self, max_pending: int = 16) -> None:
        self.max_pending = max_pending
        self._slots = threading.BoundedSemaphore(max_pending)
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, work: Any) -> Future[Any] | None:
        """Run ``work()`` on the worker; ``None`` when ``max_pending`` are already queued."""
        if not self._slots.acquire(blocking=False):
            return None
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="twentyone-hints")
            future = self._executor.submit(work)
        future.add_done_callback(lambda _f: self._slots.release())
        return future

    def shutdown(self) -> None:
        """Stop the worker (what is queued is dropped); a later submit starts a new one."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class ExactHints:
    """The exact best plays of one rule set, remembered per question and shoe composition
    (the last ``cache_size``); ``ready`` once the analysis is known to work here."""

    def __init__(self, rules: Rules, pool: HintPool, cache_size: int = 4096) -> None:
        self.rules = rules
        self.pool = pool
        self.cache_size = cache_size
        self.ready = False
        self._cache: OrderedDict[tuple[Any, ...], str | None] = OrderedDict()
        self._lock = threading.Lock()

    def cached(self, hq: HandQuestion) -> Any:
        """The answer already worked out for this question, else ``_MISSING``."""
        with self._lock:
            found = self._cache.get(hq.key, _MISSING)
            if found is not _MISSING:
                self._cache.move_to_end(hq.key)
            return found

    def compute(self, hq: HandQuestion) -> str | None:
        """Work the answer out (on the worker) and remember it."""
        best = best_play(self.rules, hq)
        with self._lock:
            self._cache[hq.key] = best
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return best

    def submit(self, hq: HandQuestion) -> Future[str | None] | None:
        """Queue the question on the pool (``None``: the queue is full)."""
        return self.pool.submit(lambda: self.compute(hq))


class TableHint:
    """The hint of one table's current question, followed from the event loop: the exact
    best play once :class:`ExactHints` has it, else ``None`` (the page shows the chart's)."""

    def __init__(self, exact: ExactHints | None) -> None:
        self.exact = exact
        self.key: tuple[Any, ...] | None = None
        self.question: HandQuestion | None = None
        self.decision: str | None = None
        self.known = False  # the exact answer to the question of ``key`` is in ``decision``
        self.future: Future[str | None] | None = None

    def for_question(self, played: Played | None) -> str | None:
        """The exact best play for the round's current question, if known yet."""
        if played is None or not self.known or self.key != _key(played):
            return None
        return self.decision

    def follow(self, played: Played | None, shoe: Any, wanted: Set[str]) -> bool:
        """Catch up with the round (called on the table's tick): take a new question's
        snapshot and ask the worker (only where the player whose turn it is is in
        ``wanted``: their page shows the hint), or take the worker's answer. True when an
        exact answer arrived for the question in play (the table's view is due again)."""
        exact = self.exact
        if exact is None or not exact.ready:
            return False
        q = played.rnd.question if played is not None else None
        if played is None or q is None:
            self._forget(None)
            return False
        key = _key(played)
        if key != self.key and played.rnd.boxes[q.box].player not in wanted:
            return False  # nobody looks: no work (asked again at the next tick)
        if key != self.key:
            self._forget(key)
            try:
                dealt = shoe.dealt() if _tells_dealt(exact.rules, shoe) else None
                self.question = hand_question(exact.rules, played.rnd, dealt)
            except Exception:  # the chart's hint stays; the table goes on
                log.exception("no exact hint for table question %s", key)
                return False
            assert self.question is not None
            found = exact.cached(self.question)
            if found is not _MISSING:
                self.decision, self.known = found, True
                return True
            self.future = exact.submit(self.question)
            return False
        future = self.future
        if future is None or not future.done():
            return False
        self.future = None
        try:
            self.decision = future.result()
        except Exception:  # the chart's hint stays
            return False
        self.known = True
        return True

    def _forget(self, key: tuple[Any, ...] | None) -> None:
        if self.future is not None:
            self.future.cancel()  # not started yet: dropped; running: its answer is kept
        self.key, self.question, self.decision, self.known, self.future = (
            key,
            None,
            None,
            False,
            None,
        )


def hints_on(on: Any) -> bool:
    """A ``hints`` message's ``on``: whether the page shows the hint.

    >>> hints_on(True), hints_on(False)
    (True, False)
    >>> hints_on("yes")
    Traceback (most recent call last):
    ...
    twentyone.web.refusal.TableError: on 'yes': expected true or false
    """
    if not isinstance(on, bool):
        raise TableError(N_("on {on!r}: expected true or false"), "on", on, on=on)
    return on


def _key(played: Played) -> tuple[Any, ...]:
    return (played.id, played.question_key)


def _tells_dealt(rules: Rules, shoe: Any) -> bool:
    """Whether the players know every card dealt since the shuffle: a cut-card shoe that
    lists them (a continuous shuffler tells only the round in sight)."""
    return rules.shuffle == "cut-card" and hasattr(shoe, "dealt")
