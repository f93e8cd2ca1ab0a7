"""One analysis on two cores: a copy of this process (``os.fork``, its kernels and tables
loaded) computes half of the up cards' parts (:func:`~twentyone.analysis.up_piece`) while this
one computes the others; :func:`~twentyone.analysis.analyze` then adds the parts in its fixed
order, so the figures are those of one process to the last bit.

``twentyone edge`` uses it for a query never asked, where the analysis (about 0.45 s on one
core for a six-deck shoe with the exact distributions) is most of a new process's time. The
second process takes the up cards 7, 8, 9, ten and ace (the 7 holds the costliest splits; on
the rule sets measured either half is 45 to 55% of the work). Off Linux, where one core is
free to this process, another thread runs (a fork would copy its locks), or the second
process fails in any way, this process computes every part itself.

>>> from twentyone.analysis import analyze
>>> a = analyze_forked("1D S17 DAS SPL1 NS").to_json()
>>> b = analyze("1D S17 DAS SPL1 NS").to_json()
>>> a["ev_optimal"] == b["ev_optimal"], a["outcomes_basic"] == b["outcomes_basic"]
(True, True)
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable, Sequence

from twentyone.analysis.report import EdgeReport
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules

#: The up cards (value indexes: 7, 8, 9, ten, ace) whose parts the second process computes.
ASIDE = (6, 7, 8, 9, 0)


def cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a second process can share the work: on Linux (where ``fork`` is the usual
    way to start one; macOS advises against forking a process that has loaded system
    frameworks), two cores free to this process, no other thread running."""
    linux = sys.platform.startswith("linux") and hasattr(os, "fork")
    return linux and cores() >= 2 and threading.active_count() == 1


def analyze_forked(
    rules: Rules | str,
    boxes: int = 1,
    shoe: Sequence[int] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> EdgeReport:
    """:func:`~twentyone.analysis.analyze` (with the exact distributions), half of the up
    cards computed by a second process where :func:`can_fork`. ``meanwhile``: work for this
    process once its half is done, while the other may still compute (``edge`` imports its
    table's printing there); called once in any case."""
    from twentyone.analysis import analyze, up_piece
    from twentyone.analysis.context import UPS, Context

    r = rules if isinstance(rules, Rules) else load_rules(rules)
    if not can_fork():
        report = analyze(r, boxes, shoe)
        if meanwhile is not None:
            meanwhile()
        return report
    ctx = Context.of(r, boxes, shoe)
    ctx.refuse_push22("outcomes")
    ctx.refuse_free("outcomes")  # before a fork: one clean error
    ctx.refuse_ties("outcomes")
    full = ctx.fresh()
    _shared_tables(ctx)
    aside = [u for u in ASIDE if full[u] > 0]
    here = [u for u in UPS if u not in aside and full[u] > 0]
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        report = analyze(r, boxes, shoe)
        if meanwhile is not None:
            meanwhile()
        return report
    if pid == 0:  # pragma: no cover - the second process (coverage does not follow a fork)
        status = 1
        try:
            os.close(read)
            data = pickle.dumps({u: up_piece(ctx, u) for u in aside})
            with os.fdopen(write, "wb") as fh:
                fh.write(data)
            status = 0
        finally:
            os._exit(status)  # no exit handlers, no buffers of the parent's flushed twice
    os.close(write)
    mine = {u: up_piece(ctx, u) for u in here}
    if meanwhile is not None:
        meanwhile()
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    try:
        theirs = pickle.loads(data)  # from our own copy, through a pipe only it held
    except Exception:  # it failed: this process computes its parts
        theirs = {}
    return analyze(r, boxes, shoe, pieces={**mine, **theirs})


def _shared_tables(ctx: object) -> None:
    """Build before the fork what both processes read (else each would build it), and import
    every module a part needs (a fork must not import: another copy's lock could be held)."""
    from twentyone.analysis import basic, optimal, outcomes, side_bets  # noqa: F401
    from twentyone.analysis.context import Context
    from twentyone.analysis.hands import two_card_nodes
    from twentyone.analysis.shoe_counts import removed_sets

    assert isinstance(ctx, Context)
    for c in (ctx, ctx.full()):
        removed_sets(c.decks, c.hands_by_pair)
        two_card_nodes(c)
