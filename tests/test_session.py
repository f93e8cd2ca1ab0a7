"""The table session with no front end and no database: seats, the betting window and its
countdown, the decision clock on a fake time source, rebet, players taking turns, refusals
that change nothing, and the books of the in-memory ledger. Cards and money are worked out
by hand from the stacked shoes (the same shoes the web's socket tests deal)."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from twentyone.engine.ledger import InsufficientFundsError, MemoryLedger, RoundMove
from twentyone.engine.rulesets import load_rules
from twentyone.engine.session import (
    DefaultAction,
    SessionError,
    TableSession,
    box_bet,
    is_multi_player,
)
from twentyone.engine.shoe import Shoe, StackedShoe


class FakeClock:
    """A time source the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def table_at(
    preset: str,
    cards: str | None = None,
    *,
    players: tuple[str, ...] = ("ann", "bob"),
    balance: int = 100_000,
    clock: FakeClock | None = None,
) -> tuple[TableSession, MemoryLedger, FakeClock]:
    """A table of the preset with the players seated, each with ``balance``."""
    rules = load_rules(preset)
    ledger = MemoryLedger()
    clock = clock or FakeClock()
    table = TableSession(
        rules,
        ledger=ledger,
        clock=clock,
        shoe=StackedShoe(cards) if cards else Shoe.for_rules(rules, seed=7),
        table_id=preset,
        countdown_seconds=15,
        decision_seconds=20,
    )
    for name in players:
        table.sit(name, ledger.open_account(name, balance))
    return table, ledger, clock


def state(table: TableSession) -> Any:
    """Everything a refused intention must leave as it was."""
    return copy.deepcopy(
        (
            table.seq,
            {n: (s.ready, s.chips, s.last_bets, s.connections) for n, s in table.seats.items()},
            table.countdown,
            table.played.rnd.log if table.played else None,
            table.played.log if table.played else None,
            dict(table.ledger.balances(s.account for s in table.seats.values())),
        )
    )


def refused(table: TableSession, intention: Any, *args: Any, **kwargs: Any) -> SessionError:
    """Apply an intention that must be refused; the table must be unchanged."""
    before, notices = state(table), list(table.notices)
    with pytest.raises(SessionError) as info:
        intention(*args, **kwargs)
    assert state(table) == before
    assert table.notices == notices
    return info.value


# ---------------------------------------------------------------------------- seats
def test_seats_fill_up_and_a_single_player_table_takes_one() -> None:
    table, ledger, _ = table_at("pl-online", players=("ann",))
    assert not table.multi_player and table.free_boxes() == 0
    err = refused(table, table.sit, "bob", ledger.open_account("bob", 1000))
    assert "single-player" in str(err) and err.params == {"table": "pl-online", "other": "ann"}
    table.sit("ann", 1)  # sitting again is a no-op
    table.leave("ann")
    assert table.free_boxes() == 3
    table, ledger, _ = table_at("ro-casino", players=tuple("abcdefg"))
    assert table.multi_player and len(table.seats) == 7
    err = refused(table, table.sit, "h", ledger.open_account("h", 1000))
    assert str(err) == "table ro-casino is full (7 seats)"


def test_which_tables_seat_several_players() -> None:
    assert [is_multi_player(load_rules(p)) for p in ("ro-casino", "pt-casino", "hu-casino")] == [
        True,
        True,
        True,
    ]
    assert not is_multi_player(load_rules("pl-online"))
    assert not is_multi_player(load_rules("ru-online"))


def test_a_player_who_goes_away_leaves_after_their_round() -> None:
    # ru-online: ann TS 6S = 16 against 9D + hole 8D (17): the clock stands, ann loses 1000
    table, ledger, clock = table_at("ru-online", "TS 9D 6S 8D", players=("ann",))
    table.connect("ann")  # two connections (sit counted one)
    table.bet("ann", 0, 1000)
    table.ready("ann")
    table.disconnect("ann")
    table.disconnect("ann")
    assert "ann" in table.seats and table.in_round("ann")  # she plays on, by the clock
    err = refused(table, table.leave, "ann")
    assert str(err) == "you play in this round: leave after it"
    clock.now += 20
    assert table.tick(clock.now)
    assert table.played is None and "ann" not in table.seats
    assert table.last_played is not None and table.last_played.log[0]["by"] == "clock"
    assert ledger.balance(1) == 99_000


# ---------------------------------------------------------------------------- betting
def test_bets_are_checked_as_they_are_placed() -> None:
    table, _, _ = table_at("ro-casino", balance=2000)
    err = refused(table, table.bet, "cy", 0, 100)
    assert "sit" in str(err) and err.field == "type"
    err = refused(table, table.bet, "ann", 0, 600_000)
    assert (err.field, err.value) == ("amount", 600_000)
    # the limits and the balance are the engine's check (twentyone.engine.bets): its code and words
    assert str(err) == "box 0: bet 600000 is outside the table limits 100 to 500000"
    assert err.code == "outside-limits"
    err = refused(table, table.bet, "ann", 0, 2500)
    assert str(err) == "player 'ann' bets 2500 but has 2000" and err.code == "insufficient-funds"
    assert (refused(table, table.bet, "ann", 9, 100).field, err.field) == ("box", "amount")
    assert refused(table, table.bet, "ann", 0, "lots").value == "lots"
    assert refused(table, table.bet, "ann", 0, 0).field == "amount"
    assert refused(table, table.bet, "ann", True, 100).field == "box"
    assert refused(table, table.bet, "ann", 0, 100, "jackpot").field == "side"  # ro: none
    assert refused(table, table.bet, "ann", 0, 100, "tips").field == "side"
    table.bet("ann", 0, 50)
    err = refused(table, table.bet, "bob", 0, 100)
    assert str(err) == "box 0 is ann's" and err.params == {"box": 0, "owner": "ann"}
    err = refused(table, table.ready, "ann")
    assert (
        err.field == "box" and str(err) == "box 0: bet 50 is outside the table limits 100 to 500000"
    )
    assert err.code == "outside-limits" and err.params["bet"] == 50
    assert refused(table, table.ready, "bob").message == "place a bet first"


def test_boxes_per_player_and_the_jackpot_side() -> None:
    table, _, _ = table_at("pl-online", players=("ann",))
    for box in range(3):
        table.bet("ann", box, 100)
    table.bet("ann", 2, 100)  # more on a box already hers is fine
    assert table.stakes("ann") == {0: {"main": 100}, 1: {"main": 100}, 2: {"main": 200}}
    pt, _, _ = table_at("pt-casino", players=("ann",))
    pt.bet("ann", 0, 1000)
    pt.bet("ann", 0, 100, "jackpot")
    assert pt.stakes("ann") == {0: {"main": 1000, "jackpot": 100}} and pt.pending("ann") == 1100
    assert box_bet("ann", pt.stakes("ann")[0]).side_bets == {"jackpot": 100}
    err = refused(pt, pt.bet, "ann", 0, 100, "tips")
    assert str(err) == "side 'tips': expected 'main' or a side bet of the table (jackpot)"


def test_undo_clear_rebet_and_double_rebet() -> None:
    # ru-online, ann's two boxes stand: box0 TS 8S = 18, box1 9S 9H = 18, dealer 7D + TD = 17
    table, ledger, _ = table_at("ru-online", "TS 9S 7D 8S 9H TD", players=("ann",))
    table.bet("ann", 0, 100)
    table.bet("ann", 0, 200)
    table.bet("ann", 3, 999)
    table.undo("ann")
    assert table.stakes("ann") == {0: {"main": 300}}
    table.clear("ann")
    assert table.pending("ann") == 0
    assert refused(table, table.undo, "ann").value == "undo"
    err = refused(table, table.rebet, "ann", 2)
    assert str(err) == "double-rebet: you have no last round to repeat here"
    table.bet("ann", 0, 300)
    table.bet("ann", 1, 300)
    table.ready("ann")  # single-player: deals at once
    assert table.turn is not None and table.turn.box == 0
    table.decide("ann", "stand")
    assert table.turn is not None and table.turn.box == 1
    table.decide("ann", "stand")
    assert table.last_played is not None and table.last_played.rnd.net() == {"ann": 600}
    table.rebet("ann", 2)
    assert table.stakes("ann") == {0: {"main": 600}, 1: {"main": 600}}
    table.rebet("ann")
    assert table.stakes("ann") == {0: {"main": 300}, 1: {"main": 300}}
    assert ledger.balance(1) == 100_600


# ---------------------------------------------------------------------------- the countdown
def test_the_countdown_starts_with_the_first_bet_and_deals_when_it_runs_out() -> None:
    # ro-casino: ann TS 7C = 17, bob 9H 2S = 11, dealer 6D
    table, _, clock = table_at("ro-casino", "TS 9H 6D 7C 2S 9C TD 8H")
    assert table.countdown is None
    table.bet("ann", 0, 1000)
    assert table.countdown == clock.now + 15
    clock.now += 5
    table.bet("bob", 1, 1000)
    assert table.countdown == clock.now + 10  # the window does not restart
    table.ready("ann")
    assert table.played is None and table.seats["ann"].ready
    clock.now += 9
    assert not table.tick(clock.now)
    clock.now += 1
    assert table.tick(clock.now)
    assert table.played is not None and table.countdown is None
    assert [n.kind for n in table.take_notices()] == ["round-start"]
    assert table.owner(0) == "ann" and table.owner(1) == "bob" and table.owner(2) is None


def test_clearing_every_bet_stops_the_countdown_and_everyone_ready_deals_at_once() -> None:
    # hu-casino deals box by box: box 3 TS 9H, box 4 8C 7C, dealer 6D
    table, _, _ = table_at("hu-casino", "TS 9H 8C 7C 6D")
    table.bet("ann", 3, 100)
    table.clear("ann")
    assert table.countdown is None
    table.bet("ann", 3, 100)
    table.ready("ann")
    assert table.played is None  # bob is not ready
    table.bet("bob", 4, 200)
    table.ready("bob")
    played = table.played
    assert played is not None and played.box_map == [3, 4]
    assert [str(c) for c in played.rnd.boxes[0].hands[0].cards] == ["TS", "9H"]
    assert table.free_boxes() == 5


def test_a_bet_below_the_minimum_sits_out_when_the_countdown_ends() -> None:
    table, ledger, clock = table_at("ro-casino", "TS 9H 6D 7C 2S 9C TD 8H")
    table.bet("ann", 0, 50)
    table.bet("bob", 1, 1000)
    clock.now += 15
    table.tick(clock.now)
    played = table.played
    assert played is not None and list(played.accounts) == ["bob"]
    dropped, start = table.take_notices()
    assert dropped.kind == "bets-dropped" and dropped.extra == {"player": "ann"}
    assert dropped.text == (
        "ann: box 1 is below the table minimum 1.00; ann's bets are not in this round"
    )
    assert start.as_message()["round"] == played.id
    assert ledger.balances([1, 2]) == {1: 100_000, 2: 99_000}


def test_a_round_the_ledger_cannot_pay_is_not_dealt() -> None:
    class Broke(MemoryLedger):
        def start_round(self, *args: Any, **kwargs: Any) -> int:
            raise InsufficientFundsError("account-cannot-pay", account=1, balance=0, amount=1000)

    ledger = Broke()
    table = TableSession(load_rules("ru-online"), ledger=ledger, clock=FakeClock())
    table.sit("ann", ledger.open_account("ann", 5000))
    table.bet("ann", 0, 1000)
    table.ready("ann")
    assert table.played is None and table.pending("ann") == 0
    (notice,) = table.take_notices()
    # the table is told, without the ledger's reason (it names an account and its balance)
    assert notice.kind == "table-error"
    assert notice.text == "the round could not start: the bets are taken back"
    assert "account" not in str(notice.as_message()) and "1000" not in str(notice.as_message())


# ---------------------------------------------------------------------------- turns and clock
def test_players_take_turns_and_the_clock_plays_for_the_slow_one() -> None:
    # ro-casino (no hole card; surrender asked before play): ann TS 7C = 17, bob 9H 2S = 11,
    # dealer 6D. bob lets the clock decline surrender; ann stands; bob hits 9C (20) and lets the
    # clock stand. The dealer draws TD (16) then 8H: 24, bust. Both win 1000.
    table, ledger, clock = table_at("ro-casino", "TS 9H 6D 7C 2S 9C TD 8H")
    table.bet("ann", 0, 1000)
    table.bet("bob", 1, 1000)
    table.ready("bob")
    table.ready("ann")
    turn = table.turn
    assert turn is not None and (turn.player, turn.kind, turn.box) == ("ann", "surrender", 0)
    err = refused(table, table.decide, "bob", "no-surrender")
    assert str(err) == "decision 'no-surrender': it is ann's turn, not yours"
    table.decide("ann", "no-surrender")
    turn = table.turn
    assert turn is not None and turn.player == "bob" and turn.deadline == clock.now + 20
    assert turn.default == "no-surrender"
    clock.now += 19
    assert not table.tick(clock.now)
    clock.now += 1
    table.take_notices()
    assert table.tick(clock.now)
    (notice,) = table.take_notices()
    assert notice.kind == "default-action" and notice.extra["decision"] == "no-surrender"
    assert notice.params == {"player": "bob", "decision": "no-surrender", "default": "stand"}
    played = table.played
    assert played is not None
    assert played.log[-1] == {
        "box": 1,
        "hand": 0,
        "decision": "no-surrender",
        "player": "bob",
        "by": "clock",
    }
    assert refused(table, table.decide, "ann", "stand", box=1).field == "box"
    table.decide("ann", "stand", box=0, hand=0)
    assert refused(table, table.decide, "bob", "stand", box=0).field == "box"
    assert refused(table, table.decide, "bob", "stand", hand=1).field == "hand"
    assert (
        refused(table, table.decide, "bob", 7).message == "decision {decision!r}: expected a string"
    )
    err = refused(table, table.decide, "bob", "split")
    assert err.message == "decision {decision!r}: the game does not allow it now"
    assert err.detail is not None and str(err) == err.detail
    table.decide("bob", "hit")
    clock.now += 20
    table.tick(clock.now)
    last = table.last_played
    assert table.played is None and last is not None
    assert [str(c) for c in last.rnd.dealer] == ["6D", "TD", "8H"]
    assert last.rnd.net() == {"ann": 1000, "bob": 1000} and last.clock_decisions == [1, 4]
    assert ledger.balances([1, 2]) == {1: 101_000, 2: 101_000}
    assert ledger.rounds[last.id].status == "settled"
    assert ledger.rounds[last.id].per_player == {1: (1000, 1000), 2: (1000, 1000)}
    assert refused(table, table.decide, "ann", "hit").message.endswith("no round is asking")


def test_turns_follow_the_boxes_not_the_seating() -> None:
    # hu-casino: bob bets box 1, ann box 4; bob's box is dealt and asked first
    table, _, _ = table_at("hu-casino", "TS 9H 8C 7C 6D 5S 5D", players=("ann", "bob"))
    table.bet("ann", 4, 100)
    table.bet("bob", 1, 100)
    table.ready("ann")
    table.ready("bob")
    turn = table.turn
    assert turn is not None and (turn.player, turn.box) == ("bob", 1)
    assert refused(table, table.bet, "ann", 0, 100).message == "bets are closed: a round is in play"


def test_a_chosen_default_action_and_a_failing_one() -> None:
    # ru-online hard 11 (6S 5C) against a 5: the chooser doubles; a chooser that fails stands
    def boom(_rnd: Any) -> str:
        raise RuntimeError("no strategy")

    for chooser, expected in ((lambda _rnd: "double", "double"), (boom, "stand")):
        ledger = MemoryLedger()
        table = TableSession(
            load_rules("ru-online"),
            ledger=ledger,
            clock=FakeClock(),
            shoe=StackedShoe("6S 5D 5C 9H 8D 7H"),
            default_action=DefaultAction("mine", chooser),
        )
        table.sit("ann", ledger.open_account("ann", 5000))
        table.bet("ann", 0, 1000)
        table.ready("ann")
        assert table.turn is not None and table.turn.default == expected


# ---------------------------------------------------------------------------- the books
@pytest.mark.parametrize("preset", ["ro-casino", "pt-casino", "hu-casino"])
def test_many_rounds_keep_the_books(preset: str) -> None:
    """Three players bet at random on a shuffled shoe; the clock plays every decision. After
    each round the money is all there, nobody is below zero, and each balance moved by
    exactly the engine's net."""
    table, ledger, clock = table_at(preset, players=("ann", "bob", "cy"), balance=5_000)
    accounts = {n: s.account for n, s in table.seats.items()}
    start = ledger.total()
    rng = random.Random(3)
    rounds = 0
    for _ in range(12):
        before = ledger.balances(accounts.values())
        for n, (name, acct) in enumerate(accounts.items()):
            if before[acct] >= 200 and rng.random() < 0.8:
                table.bet(name, n * 2, rng.choice([100, 200, min(before[acct], 1000)]))
        for name in accounts:
            if table.seats[name].chips:
                table.ready(name)
        for _ in range(200):
            if table.played is None and table.countdown is None:
                break
            clock.now += 2
            table.tick(clock.now)
        after = ledger.balances(accounts.values())
        assert all(v >= 0 for v in after.values()) and ledger.total() == start
        ended = [n for n in table.take_notices() if n.kind == "round-end"]
        if ended:
            rounds += 1
            net = ended[0].extra["net"]
            for name, acct in accounts.items():
                assert after[acct] - before[acct] == net.get(name, 0)
        else:
            assert after == before
    assert rounds >= 10
    assert sum(ledger.balances(accounts.values()).values()) + ledger.house == start


def test_the_memory_ledger_posts_each_move_once_and_never_below_zero() -> None:
    ledger = MemoryLedger()
    ann, bob = ledger.open_account("ann", 1000), ledger.open_account("bob", 500)
    with pytest.raises(InsufficientFundsError):
        ledger.start_round(
            "t", "r", {}, [ann, bob], [RoundMove(0, ann, -500), RoundMove(1, bob, -600)]
        )
    assert ledger.balances([ann, bob]) == {ann: 1000, bob: 500} and not ledger.rounds
    rid = ledger.start_round("t", "r", {}, [ann], [RoundMove(0, ann, -500)])
    ledger.record_moves(rid, [RoundMove(0, ann, -500), RoundMove(4, ann, -500)], {})
    assert ledger.balance(ann) == 0 and ledger.house == 1000
    with pytest.raises(InsufficientFundsError):
        ledger.record_moves(rid, [RoundMove(6, ann, -1)], {})
    assert ledger.settle_round(rid, [RoundMove(9, ann, 2000)], {}, {}, {ann: (1000, 1000)})
    assert not ledger.settle_round(rid, [RoundMove(10, ann, 2000)], {}, {}, {})
    assert ledger.balance(ann) == 2000 and ledger.total() == 1500
    with pytest.raises(KeyError):
        ledger.balance(99)


def test_the_session_loads_no_front_end() -> None:
    code = (
        "import sys, twentyone.engine.session, twentyone.engine.ledger; "
        "print([m for m in sys.modules if m.startswith(('twentyone.web', 'twentyone.terminal', "
        "'twentyone.cli', 'sqlalchemy', 'fastapi', 'asyncio'))])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("seed", range(4))
def test_random_intentions_keep_the_books_and_refusals_change_nothing(seed: int) -> None:
    """Three players send random intentions (good and bad) while the clock runs: every refusal
    leaves the table as it was, the money is all there and no balance goes below zero."""
    rng = random.Random(seed)
    preset = rng.choice(["ro-casino", "pt-casino", "hu-casino"])
    table, ledger, clock = table_at(preset, players=("ann", "bob", "cy"), balance=3_000)
    start = ledger.total()
    names = ["ann", "bob", "cy", "dee"]  # dee never sat down
    for _ in range(400):
        name = rng.choice(names)
        kind = rng.choice(["bet", "bet", "undo", "clear", "rebet", "ready", "decide", "tick"])
        turn = table.turn
        if kind == "tick":
            clock.now += rng.choice([1, 5, 16, 21])
            table.tick(clock.now)
            continue
        args: tuple[object, ...]
        if kind == "decide" and turn is not None and rng.random() < 0.7:
            name, args = turn.player, (rng.choice(turn.actions),)
        elif kind == "decide":
            args = (rng.choice(["hit", "stand", "split", 3]),)
        elif kind == "bet":
            side = "jackpot" if rng.random() < 0.1 else "main"
            args = (rng.choice([0, 1, 2, 3, 9, "x"]), rng.choice([0, 50, 100, 500, 5000]), side)
        elif kind == "rebet":
            args = (rng.choice([1, 2]),)
        else:
            args = ()
        before, notices = state(table), list(table.notices)
        try:
            getattr(table, kind)(name, *args)
        except SessionError:
            assert state(table) == before and table.notices == notices
        balances = ledger.balances(s.account for s in table.seats.values())
        assert ledger.total() == start and all(v >= 0 for v in balances.values())
    assert ledger.total() == start


def test_a_table_seats_several_players_by_its_rules_not_its_name(tmp_path: Path) -> None:
    # issue 26 item 5: Rules.multi_player, not a guess from the name ("*-online")
    from twentyone.engine.rulesets import preset_text

    renamed = tmp_path / "my-house.toml"
    renamed.write_text(preset_text("pl-online").replace('name = "pl-online"', 'name = "mine"'))
    assert not is_multi_player(load_rules(str(renamed)))  # was multi-player by its new name
    called_online = load_rules("ro-casino").replace(name="home-online")
    assert is_multi_player(called_online)  # was single-player by its name
    assert [is_multi_player(load_rules(p)) for p in ("ro-casino", "pl-online", "ru-online")] == [
        True,
        False,
        False,
    ]


def test_issue_27_3_a_player_whose_money_went_elsewhere_sits_out_and_the_others_play() -> None:
    # ro-casino: ann and bob bet 1000 each; before the bets close, ann's money leaves her
    # account (a withdrawal, another table of an old session): her bets are dropped, told
    # without her balance, and bob's round is dealt.
    table, ledger, _ = table_at("ro-casino", "TS 9H 6D 7C 2S 9C TD 8H")
    table.bet("ann", 0, 1000)
    table.bet("bob", 1, 1000)
    ledger.accounts[1] = 500  # ann's balance, changed behind the table's back
    table.close_betting()
    played = table.played
    assert played is not None and list(played.accounts) == ["bob"]
    notices = table.take_notices()
    dropped = next(n for n in notices if n.kind == "bets-dropped")
    assert dropped.extra == {"player": "ann"} and "500" not in dropped.text
    assert "table-error" not in [n.kind for n in notices]
    assert table.pending("ann") == 0 and ledger.balances([1]) == {1: 500}


def test_issue_27_7_a_closing_table_plays_its_round_out_and_starts_no_other() -> None:
    # ro-casino: ann and bob's round is in play when the table closes: it is played out, new
    # bets are refused and no round starts after it
    table, _, clock = table_at("ro-casino", "TS 9H 6D 7C 2S 9C TD 8H")
    table.bet("ann", 0, 1000)
    table.ready("ann")
    table.bet("bob", 1, 1000)
    table.close_betting()
    assert table.played is not None and table.busy
    table.close_for_new_rounds()
    assert [n.kind for n in table.take_notices()][-1] == "table-closing"
    while table.played is not None:
        clock.now += 21  # the decision clock plays the round out
        table.tick(clock.now)
    assert not table.busy and table.last_played is not None
    err = refused(table, table.bet, "bob", 1, 1000)
    assert str(err) == "the table is closing: no new rounds"
    assert table.pending("bob") == 0 and table.countdown is None
    clock.now += 100
    table.tick(clock.now)
    assert table.played is None  # nothing starts again
