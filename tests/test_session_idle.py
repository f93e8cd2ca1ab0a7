"""Idle seats (issue 11, item 4 and row 2): a player who does nothing is warned, then stood
up, and the lobby's free boxes are the real free boxes."""

from __future__ import annotations

import pytest

from twentyone.engine.ledger import MemoryLedger
from twentyone.engine.rulesets import load_rules
from twentyone.engine.session import SessionError, TableSession
from twentyone.engine.shoe import Shoe


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table(preset: str, players: tuple[str, ...], clock: Clock) -> TableSession:
    rules = load_rules(preset)
    ledger = MemoryLedger()
    session = TableSession(
        rules,
        ledger=ledger,
        clock=clock,
        shoe=Shoe.for_rules(rules, seed=3),
        table_id=preset,
        idle_seconds=120,
    )
    for name in players:
        session.sit(name, ledger.open_account(name, 100_000), connections=1)
    return session


def kinds(session: TableSession) -> list[str]:
    return [n.kind for n in session.take_notices()]


def test_row_2_an_idle_player_at_a_single_player_table_is_warned_then_stood_up() -> None:
    clock = Clock()
    session = table("pl-online", ("ann",), clock)
    assert session.free_boxes() == 0  # taken
    clock.now += 60
    session.bet("ann", 0, 100)  # a move: the idle time starts again
    session.take_notices()
    clock.now += 89
    assert not session.tick(clock.now) and "ann" in session.seats
    clock.now += 2  # 91 s: three quarters of 120
    assert session.tick(clock.now) and kinds(session) == ["idle-warning"]
    clock.now += 29  # 120 s
    assert session.tick(clock.now)
    assert "ann" not in session.seats and kinds(session) == ["stood-up"]
    assert session.free_boxes() == session.rules.table_boxes  # the seat is free
    session.sit("bob", 2, connections=1)  # and somebody else may take it
    assert "bob" in session.seats


def test_a_player_in_a_round_is_not_stood_up_by_the_clock() -> None:
    clock = Clock()
    session = table("pl-online", ("ann",), clock)
    for _ in range(10):  # (a round settled at the deal, a blackjack, asks nothing)
        session.bet("ann", 0, 100)
        session.ready("ann")
        if session.played is not None:
            break
    assert session.played is not None
    clock.now += 500
    session.tick(clock.now)  # the decision clock plays for her; she keeps her seat
    assert "ann" in session.seats


def test_row_2_at_a_multi_player_table_three_rounds_without_a_bet_stand_a_player_up() -> None:
    clock = Clock()
    session = table("pt-casino", ("ann", "bob"), clock)
    for number in range(1, 4):
        session.bet("bob", 0, 100)
        session.ready("bob")  # ann sits and never bets: the countdown runs out
        clock.now += 16
        session.tick(clock.now)
        while session.played is not None:  # the clock plays the rounds out
            clock.now += 21
            session.tick(clock.now)
        got = kinds(session)
        if number == 2:
            assert "idle-warning" in got and "ann" in session.seats
        if number == 3:
            assert "stood-up" in got
    assert "ann" not in session.seats and "bob" in session.seats


def test_row_2_free_boxes_count_free_seats_too() -> None:
    clock = Clock()
    names = tuple(f"p{i}" for i in range(7))
    session = table("pt-casino", names, clock)
    assert session.free_boxes() == 0  # seven sit at seven boxes: nobody else can play
    session.leave("p0")
    assert session.free_boxes() == 1


# ----------------------------------------------- issue 27, item 1: idle means not playing
def test_refused_intentions_do_not_keep_an_idle_seat() -> None:
    # pl-online: ann sends undo every 5 s with no chips down (refused each time): at 120 s
    # without an accepted bet she is stood up all the same.
    clock = Clock()
    session = table("pl-online", ("ann",), clock)
    for _ in range(23):  # 115 s
        clock.now += 5
        with pytest.raises(SessionError, match="no chips"):
            session.undo("ann")
        session.tick(clock.now)
        assert "ann" in session.seats
    clock.now += 5
    session.tick(clock.now)
    assert "ann" not in session.seats and "stood-up" in kinds(session)


def test_an_accepted_bet_or_decision_keeps_the_seat() -> None:
    clock = Clock()
    session = table("pl-online", ("ann",), clock)
    clock.now += 100
    session.bet("ann", 0, 100)  # accepted: the idle time starts again
    clock.now += 100
    session.tick(clock.now)
    assert "ann" in session.seats
    session.clear("ann")  # taking chips back is not playing
    clock.now += 20
    session.tick(clock.now)
    assert "ann" not in session.seats


def test_a_seat_at_a_multi_player_table_with_no_round_is_stood_up_when_idle() -> None:
    # ro-casino: seven players sit and nobody ever bets (no round starts, so "rounds without
    # a bet" never count): after idle_seconds every seat is free again.
    clock = Clock()
    names = tuple(f"p{i}" for i in range(7))
    session = table("ro-casino", names, clock)
    assert session.free_boxes() == 0
    clock.now += 90
    session.tick(clock.now)
    assert kinds(session) == ["idle-warning"] * 7
    clock.now += 30
    session.tick(clock.now)
    assert session.seats == {} and session.free_boxes() == 7


def test_a_round_the_player_waits_out_is_not_idle_time() -> None:
    # pt-casino: ann sits; bob plays a round that takes 100 s of decision clock. ann's idle
    # time is the betting time only: 20 s before and 90 s after the round keep her seated.
    clock = Clock()
    session = table("pt-casino", ("ann", "bob"), clock)
    clock.now += 20
    session.bet("bob", 0, 100)
    session.ready("bob")
    clock.now += 16  # ann does not bet: the countdown runs out and bob's round starts
    session.tick(clock.now)
    assert session.played is not None
    while session.played is not None:
        clock.now += 21  # bob lets the decision clock play for him
        session.tick(clock.now)
    clock.now += 70  # 20 + 16 + 70 = 106 s of open betting
    session.tick(clock.now)
    assert "ann" in session.seats
    clock.now += 14
    session.tick(clock.now)
    assert "ann" not in session.seats
