"""On PostgreSQL a round's steps wait for the server only a couple of times each (issue 27,
item 10): the ledger's round transaction runs in psycopg's pipeline mode. Counted on the wire:
the database is reached through a loopback proxy that counts the client's turns (bytes from
the client after the server last answered), each of which is one round trip."""

from __future__ import annotations

import os
import select
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from twentyone.engine.ledger import LedgerUnavailableError
from twentyone.web import ledger as ledger_module
from twentyone.web.ledger import InsufficientFundsError, Ledger, RoundMove
from twentyone.web.storage.accounts import Accounts
from twentyone.web.storage.db import make_engine, migrate
from web_support import POSTGRES_ENV, database_url

pytestmark = pytest.mark.skipif(not os.environ.get(POSTGRES_ENV), reason=f"{POSTGRES_ENV} unset")


class TurnCounter:
    """A TCP proxy to ``target`` counting the client's turns over all its connections."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.turns = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        last = "server"
        with client, server:
            while True:
                ready, _, _ = select.select([client, server], [], [])
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        if last == "server":
                            with self._lock:
                                self.turns += 1
                        last = "client"
                        server.sendall(data)
                    else:
                        last = "server"
                        client.sendall(data)

    def count(self) -> int:
        with self._lock:
            return self.turns

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def counted(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Ledger, TurnCounter]]:
    monkeypatch.setattr(ledger_module, "PING_AFTER_IDLE", 3600.0)  # no ping between the steps
    for url in database_url("postgresql", tmp_path):
        parts = urlsplit(url)
        proxy = TurnCounter((parts.hostname or "127.0.0.1", parts.port or 5432))
        netloc = parts.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}"
        engine = make_engine(urlunsplit(parts._replace(netloc=netloc)))
        migrate(engine)
        ledger = Ledger(engine)
        yield ledger, proxy
        ledger.close()
        engine.dispose()
        proxy.close()


def test_a_round_start_payment_and_settlement_take_two_round_trips_each(
    counted: tuple[Ledger, TurnCounter],
) -> None:
    ledger, proxy = counted
    accounts = Accounts(ledger, 10_000)
    ann, bob = (accounts.create_player(n, "x") for n in ("ann", "bob"))
    # a first round makes the round connection (its connect and set-up are not counted)
    first = ledger.start_round("t", "ru-online", {}, [ann.id], [RoundMove(0, ann.id, -100)])
    before = proxy.count()
    stakes = [RoundMove(0, ann.id, -1_000), RoundMove(1, bob.id, -500)]
    round_id = ledger.start_round("t", "ru-online", {}, [ann.id, bob.id], stakes)
    started = proxy.count()
    ledger.record_moves(round_id, [RoundMove(2, bob.id, 250)], {"so": "far"})
    paid = proxy.count()
    # ann's box wins 1000 (paid 2000), bob surrendered (250 back, above): their first round
    # each, so the settlement makes their statistics rows too
    result = {
        "boxes": [
            {"player": "ann", "hands": [{"result": "win"}]},
            {"player": "bob", "hands": [{"result": "surrender"}]},
        ],
        "net": {"ann": 1_000, "bob": -250},
    }
    per_player = {ann.id: (1_000, 1_000), bob.id: (500, -250)}
    assert ledger.settle_round(round_id, [RoundMove(3, ann.id, 2_000)], {}, result, per_player)
    settled = proxy.count()
    assert (started - before, paid - started, settled - paid) == (2, 2, 2)
    # what they wrote: balances moved once each, the books balance, the statistics
    assert ledger.balances([ann.id, bob.id]) == {ann.id: 10_900, bob.id: 9_750}
    assert ledger.audit() == [] and ledger.total() == 0
    assert (ledger.stats(ann.id)["won"], ledger.stats(ann.id)["net"]) == (1, 1_000)
    assert (ledger.stats(bob.id)["lost"], ledger.stats(bob.id)["net"]) == (1, -250)
    assert ledger.stats(ann.id)["rounds"] == 1 and first != round_id


def test_a_failed_step_in_the_pipeline_rolls_back_and_the_next_one_works(
    counted: tuple[Ledger, TurnCounter],
) -> None:
    ledger, _proxy = counted
    accounts = Accounts(ledger, 1_000)
    ann, bob = (accounts.create_player(n, "x") for n in ("ann", "bob"))
    with pytest.raises(InsufficientFundsError):  # bob cannot pay: nothing is recorded
        ledger.start_round("t", "ru-online", {}, [ann.id, bob.id],
                           [RoundMove(0, ann.id, -500), RoundMove(1, bob.id, -1_001)])  # fmt: skip
    assert ledger.balances([ann.id, bob.id]) == {ann.id: 1_000, bob.id: 1_000}
    round_id = ledger.start_round("t", "ru-online", {}, [ann.id], [RoundMove(0, ann.id, -500)])
    assert ledger.balance(ann.id) == 500 and ledger.audit() == []
    assert ledger.refund_open_rounds() == [round_id]
    assert ledger.balance(ann.id) == 1_000 and ledger.audit() == []


def test_an_error_answered_with_the_commit_posts_nothing(
    counted: tuple[Ledger, TurnCounter],
) -> None:
    # a payment to an account that does not exist: its entry's insert fails only when the
    # pipeline's last batch (with the COMMIT) is answered; nothing of the step is posted
    ledger, _proxy = counted
    ann = Accounts(ledger, 1_000).create_player("ann", "x")
    round_id = ledger.start_round("t", "ru-online", {}, [ann.id], [RoundMove(0, ann.id, -500)])
    house = ledger.balance(ledger.house_id)
    with pytest.raises(LedgerUnavailableError):
        ledger.record_moves(round_id, [RoundMove(1, ann.id, 100), RoundMove(2, 10**9, 100)], {})
    assert ledger.balance(ledger.house_id) == house and ledger.balance(ann.id) == 500
    ledger.record_moves(round_id, [RoundMove(1, ann.id, 100)], {})  # the next step works
    assert ledger.balance(ann.id) == 600 and ledger.audit() == [] and ledger.total() == 0
