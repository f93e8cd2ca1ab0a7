"""The live table: the web's front end of a :class:`~twentyone.engine.session.TableSession`.

The session is the table (seats, chips, the countdown or the deal, the round in play, the
decision clock); a :class:`LiveTable` gives it the web's players (an account's username and
id), the SQL :class:`~twentyone.web.ledger.Ledger`, and turns its refusals into
:class:`TableError` and its notices into the messages the server broadcasts. The server
calls :meth:`LiveTable.tick` with the clock's time (which also picks up the exact hint,
:mod:`twentyone.web.hint_worker`). The views players see are built by
:mod:`twentyone.web.views` from this state.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from typing import Any

from sqlalchemy.exc import DBAPIError

from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_house
from twentyone.engine.session import SessionError, TableSession
from twentyone.engine.session_parts import Played, Seat
from twentyone.engine.shoe import CardSource
from twentyone.i18n import N_
from twentyone.web.hint_worker import ExactHints, TableHint
from twentyone.web.ledger import Ledger
from twentyone.web.refusal import UNAVAILABLE, YOURS
from twentyone.web.refusal import TableError as TableError  # where it always was
from twentyone.web.storage.accounts import Player
from twentyone.web.storage.seats import SeatClaims
from twentyone.web.table_parts import Clock, DefaultAction, TableConfig
from twentyone.web.views import boxes_view, dealer_view

log = logging.getLogger(__name__)

__all__ = [
    "Clock",
    "DefaultAction",
    "LiveTable",
    "TableConfig",
    "TableError",
    "rules_house",
    "table_house",
]


@functools.lru_cache(maxsize=64)
def table_house(config: TableConfig) -> tuple[str, str | None]:
    """A table's name and country: its configuration's, else its rules file's ``[house]``
    (:mod:`twentyone.engine.house`), else its id and no country.

    >>> table_house(TableConfig(id="t1", rules="hu-casino"))
    ('Budapest Casino', 'HU')
    >>> table_house(TableConfig(id="t2", rules="6D S17", country="GB"))
    ('t2', 'GB')
    """
    house = load_house(config.rules)
    name = config.name or (house.name if house else config.id)
    return name, config.country or (house.country if house else None)


@functools.lru_cache(maxsize=64)
def rules_house(config: TableConfig) -> str | None:
    """The name of the house whose rules the table deals (its rules file's ``[house]``), or
    None for rules without one: what players read instead of the rules' file name.

    >>> rules_house(TableConfig(id="t1", rules="pt-casino", name="Sala 2"))
    'Lisbon Casino'
    >>> rules_house(TableConfig(id="t2", rules="6D S17")) is None
    True
    """
    house = load_house(config.rules)
    return house.name if house else None


def _refused(exc: SessionError) -> TableError:
    """The session's refusal as the client sees it: the same message, field and value, and
    the engine's error where the engine refused (a reason that names the refused player in
    the second person: :data:`~twentyone.web.refusal.YOURS`)."""
    yours = YOURS.get(exc.code or "")
    if yours is not None and exc.engine is not None:
        total, balance = exc.engine.params["total"], exc.engine.params["balance"]
        return TableError(
            yours, exc.field, exc.value, engine=exc.engine, total=total, balance=balance
        )
    message = exc.message if exc.plural is None else (exc.message, exc.plural)
    return TableError(
        message,
        exc.field,
        exc.value,
        detail=exc.detail,
        engine=exc.engine,
        counted=exc.counted,
        **exc.params,
    )


class LiveTable:
    """One table of the lobby, alive."""

    def __init__(
        self,
        config: TableConfig,
        rules: Rules,
        *,
        ledger: Ledger,
        shoe: CardSource,
        clock: Clock,
        default_action: DefaultAction,
        idle_seconds: float | None = None,
        exact_hints: ExactHints | None = None,
        claims: SeatClaims | None = None,
    ) -> None:
        self.config = config
        self.id = config.id
        self.rules = rules
        self.ledger = ledger
        self.shoe = shoe
        self.clock = clock
        self.default_action = default_action
        self.session = TableSession(
            rules,
            ledger=ledger,
            shoe=shoe,
            clock=clock,
            default_action=default_action,
            table_id=config.id,
            multi_player=config.multi_player,
            countdown_seconds=config.countdown_seconds,
            decision_seconds=config.decision_seconds,
            idle_seconds=idle_seconds,
        )
        self.multi_player = self.session.multi_player
        #: the seats in the database (one table at a time per account, every node): a table
        #: coming alive here frees what a previous holder left; a freed seat is let go
        self.claims = claims
        if claims is not None:
            claims.release_table(config.id)
            self.session.state.seat_released = self._seat_released
        #: the name players see and the house's country (ISO 3166-1 code, or None)
        self.name, self.country = table_house(config)
        #: the house whose rules these are (None: rules without a [house])
        self.house = rules_house(config)
        self._last_round: tuple[Played, dict[str, Any]] | None = None
        #: the exact hint of the question in play, worked out off the event loop for the
        #: players whose page shows it (``hint_wanted``, kept by the server's sockets)
        self.hint = TableHint(exact_hints)
        self.hint_wanted: set[str] = set()

    # ----------------------------------------------------------------- reading
    @property
    def seq(self) -> int:
        """Counts the table's changes (a view is due when it moves)."""
        return self.session.state.seq

    @property
    def seats(self) -> dict[str, Seat]:
        """The seated players by username."""
        return self.session.state.seats

    @property
    def played(self) -> Played | None:
        """The round in play."""
        return self.session.state.played

    @property
    def countdown(self) -> float | None:
        """When the betting window closes (multi-player, once someone bets)."""
        return self.session.state.countdown

    @property
    def notices(self) -> list[Any]:
        """The notices not broadcast yet."""
        return self.session.state.notices

    @property
    def last_round(self) -> dict[str, Any] | None:
        """The last round as the views show it (built once per round)."""
        last = self.session.last_played
        if last is None:
            return None
        if self._last_round is None or self._last_round[0] is not last:
            shown = {
                "id": last.id,
                "number": last.number,
                "dealer": dealer_view(last.rnd),
                "boxes": boxes_view(self, last, final=True),
                "net": last.rnd.net(),
                "log": last.log,
            }
            self._last_round = (last, shown)
        return self._last_round[1]

    def owner(self, box: int) -> str | None:
        """Who owns a table box: the round's player, or whoever has chips on it."""
        return self.session.owner(box)

    def pending(self, name: str) -> int:
        """The total of a player's chips not yet staked."""
        return self.session.pending(name)

    def free_boxes(self) -> int:
        """Boxes nobody bets on or plays (none while a single-player table is taken)."""
        return self.session.free_boxes()

    def in_round(self, name: str) -> bool:
        """Whether a player has a box in the round in play."""
        return self.session.in_round(name)

    # ----------------------------------------------------------------- intentions
    def connect(self, player: Player) -> None:
        """A connection of a player opened (seated or not)."""
        self.session.connect(player.username)

    def disconnect(self, player: Player) -> None:
        """A connection closed; a seated player with no connection left stands up unless
        they play in the round (then after it, and the decision clock plays for them)."""
        self.session.disconnect(player.username)

    def sit(self, player: Player, connections: int = 1) -> None:
        """Take a seat (a no-op for a seated player): claimed in the database first, so an
        account seated at another table (on any node) is refused."""
        claims = self.claims
        if claims is not None and player.username not in self.session.seats:
            try:
                elsewhere = claims.claim(player.id, self.id)
            except (DBAPIError, sqlite3.DatabaseError) as exc:
                raise TableError(UNAVAILABLE, "type", "sit", counted="seconds", seconds=5) from exc
            if elsewhere is not None:
                raise TableError(
                    N_("you are seated at table {table}: leave it first"),
                    "type",
                    "sit",
                    table=elsewhere,
                )
        try:
            self.session.sit(player.username, player.id, connections)
        except SessionError as exc:
            if claims is not None:
                claims.release(player.id, self.id)
            raise _refused(exc) from exc

    def _seat_released(self, seat: Seat) -> None:
        """A seat freed at the table: its claim goes (a database that cannot write now keeps
        it until this table next comes alive somewhere)."""
        assert self.claims is not None
        try:
            self.claims.release(seat.account, self.id)
        except (DBAPIError, sqlite3.DatabaseError):
            log.warning("table %s: the seat of account %s stays claimed", self.id, seat.account)

    def set_client_seed(self, player: Player, seed: Any) -> None:
        """A seated player's seed for the next provable shoe (``shuffle = "provable"``)."""
        shoe: Any = self.shoe
        if not hasattr(shoe, "set_client_seed"):
            raise TableError(N_("this table's shoe is not provable: it takes no seed"), "type")
        if player.username not in self.session.seats:
            raise TableError(N_("sit down first: you are not seated at this table"), "type")
        if not isinstance(seed, str) or not 1 <= len(seed) <= 64:
            raise TableError(
                N_("seed {seed!r}: expected text of 1 to 64 characters"), "seed", seed, seed=seed
            )
        shoe.set_client_seed(player.username, seed)
        self.session.seq += 1  # the view shows the seeds taken

    def leave(self, player: Player) -> None:
        """Stand up between rounds; chips go back."""
        try:
            self.session.leave(player.username)
        except SessionError as exc:
            raise _refused(exc) from exc

    def bet(self, player: Player, box: Any, amount: Any, side: Any = "main") -> None:
        """Add a chip to a box."""
        try:
            self.session.bet(player.username, box, amount, side)
        except SessionError as exc:
            raise _refused(exc) from exc

    def undo(self, player: Player) -> None:
        """Take back the player's last chip."""
        try:
            self.session.undo(player.username)
        except SessionError as exc:
            raise _refused(exc) from exc

    def clear(self, player: Player) -> None:
        """Take back all the player's chips."""
        try:
            self.session.clear(player.username)
        except SessionError as exc:
            raise _refused(exc) from exc

    def rebet(self, player: Player, factor: int = 1) -> None:
        """The bets of the player's last round again (``factor`` 2: doubled)."""
        try:
            self.session.rebet(player.username, factor)
        except SessionError as exc:
            raise _refused(exc) from exc

    def ready(self, player: Player) -> None:
        """Multi-player: ready (the round starts once all are); single-player: deal now."""
        try:
            self.session.ready(player.username)
        except SessionError as exc:
            raise _refused(exc) from exc

    def decide(self, player: Player, decision: Any, box: Any = None, hand: Any = None) -> None:
        """Answer the round's question (only the player whose turn it is)."""
        try:
            self.session.decide(player.username, decision, box, hand)
        except SessionError as exc:
            raise _refused(exc) from exc

    # ----------------------------------------------------------------- time
    def tick(self, now: float) -> bool:
        """Fire the countdown and the decision clock if their time has come; True when the
        table changed (an exact hint that arrived is a change: the views show it)."""
        changed = self.session.tick(now)
        if self.hint.follow(self.session.played, self.shoe, self.hint_wanted):
            self.session.seq += 1
            changed = True
        return changed

    def take_notices(self) -> list[dict[str, Any]]:
        """The notices since the last call, as messages (the server broadcasts them)."""
        return [n.as_message() for n in self.session.take_notices()]
