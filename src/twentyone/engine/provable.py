"""Provably fair shoes: the house commits to each shoe before a card is dealt, the players
add their own seeds, and anyone can check afterwards that every card came from the committed
order.

The method (version ``twentyone-provable-v1``):

1. Before each shoe the server draws a 32-byte ``server_seed`` from the operating system's
   cryptographic RNG and publishes ``commitment = sha256(server_seed)`` (hex).
2. Seated players may set client seeds (any text). When the shoe's first round begins the
   seeds are frozen as the sorted list of ``"player:seed"`` strings.
3. The card order is a Fisher-Yates shuffle of ``decks`` fresh decks in the order of
   :func:`twentyone.engine.cards.full_deck` (Spanish decks, a record's ``"deck": "spanish"``:
   the same order without the ten-spots), deck after deck: for ``i`` from ``n - 1`` down to 1,
   swap card ``i`` with card ``j``, a uniform integer in ``0..i``. The integers come from a
   stream of 32-bit big-endian words, the blocks
   ``HMAC-SHA256(server_seed, "twentyone-provable-v1|<client seeds as JSON>|<shoe number>|
   <block number>")`` one after the other; ``j`` is drawn by rejection sampling: a word
   ``u`` is used only if ``u < 2**32 - 2**32 % (i + 1)`` (then ``j = u % (i + 1)``), so every
   ``j`` is exactly equally likely.
4. When the shoe ends (the cut card came out, or after every round under continuous
   shuffling) the server seed is revealed. :func:`verify` (``twentyone verify FILE
   --commitment HEX``) checks that the commitment is the one the player was shown before the
   shoe, that the seed is its preimage, and that the rounds' cards, in the order they left the
   shoe, are the shuffled order's first cards, every one of them: as many as the record says
   were dealt (no round and no card may be missing).

A :class:`ShoeKeeper` (the web server's database) is told of each commitment with its seed,
the client seeds as they freeze, each round's cards and each revealed record as they happen,
so they outlive the process; the shoe itself keeps only the live shoe and the last
``keep`` revealed ones in memory.

>>> from twentyone.engine.cards import full_deck
>>> order = shoe_order(bytes(32), ["ann:lucky"], 1, decks=1)
>>> len(order), sorted(map(str, order)) == sorted(map(str, full_deck()))
(52, True)
>>> order == shoe_order(bytes(32), ["ann:lucky"], 1, decks=1)
True
>>> order == shoe_order(bytes(32), ["ann:lucky!"], 1, decks=1)
False
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from twentyone.engine.cards import DECK_KINDS, Card, deck_cards, deck_size, parse_cards
from twentyone.engine.errors import ReplayError, RulesError

VERSION = "twentyone-provable-v1"


class WordStream:
    """The 32-bit words of the HMAC blocks of one shoe (step 3 above)."""

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str], shoe_number: int) -> None:
        self._prefix = f"{VERSION}|{json.dumps(list(client_seeds))}|{shoe_number}|".encode()
        self._key = server_seed
        self._block = 0
        self._words: list[int] = []

    def next_word(self) -> int:
        if not self._words:
            digest = hmac.new(
                self._key, self._prefix + str(self._block).encode(), hashlib.sha256
            ).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[k : k + 4], "big") for k in range(28, -1, -4)]
        return self._words.pop()

    def below(self, k: int) -> int:
        """A uniform integer in ``0..k-1`` by rejection sampling.

        >>> s = WordStream(bytes(32), [], 1)
        >>> all(0 <= s.below(3) < 3 for _ in range(100))
        True
        """
        limit = 2**32 - 2**32 % k
        while True:
            u = self.next_word()
            if u < limit:
                return u % k


def shoe_order(
    server_seed: bytes,
    client_seeds: Sequence[str],
    shoe_number: int,
    *,
    decks: int,
    deck: str = "standard",
) -> list[Card]:
    """The committed card order of one shoe (step 3 above) of ``decks`` decks of the kind
    ``deck``.

    >>> len(shoe_order(bytes(32), [], 1, decks=2, deck="spanish"))
    96
    """
    cards = list(deck_cards(deck)) * decks
    stream = WordStream(server_seed, client_seeds, shoe_number)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def commitment_of(server_seed: bytes) -> str:
    """``sha256(server_seed)`` in hex, published before the shoe."""
    return hashlib.sha256(server_seed).hexdigest()


class ShoeKeeper(Protocol):
    """Where a provable shoe's records go as they happen (the web keeps them in its database:
    they survive a restart or a failover, and a shoe left live by a stopped process can still
    be revealed and checked)."""

    def committed(self, shoe: int, commitment: str, server_seed: str) -> None:
        """A new shoe's commitment, with its (still secret) seed in hex."""
        ...

    def frozen(self, shoe: int, client_seeds: Sequence[str]) -> None:
        """The shoe's first round began: its client seeds are these."""
        ...

    def round_dealt(self, shoe: int, round_id: int | None, cards: str) -> None:
        """A finished round's cards, in the order they left the shoe."""
        ...

    def revealed(self, record: Mapping[str, Any]) -> None:
        """The shoe is over: its record, seed included, is public."""
        ...


class ProvableShoe:
    """A shoe (a :class:`~twentyone.engine.shoe.CardSource`) whose every order is committed to.

    ``shuffle`` and ``penetration`` are the rules' (``continuous``: a new shoe every round).
    :attr:`commitment` is the coming (or current) shoe's; :meth:`set_client_seed` takes a
    player's seed for the next shoe not yet begun; :attr:`revealed` lists the last ``keep``
    finished shoes' records (what :func:`verify` reads), :attr:`rounds` their rounds' cards and
    the live shoe's. ``keeper`` is told of everything as it happens (:class:`ShoeKeeper`);
    ``first_number`` numbers the first shoe (a table that already dealt shoes goes on).

    >>> shoe = ProvableShoe(decks=1, shuffle="continuous")
    >>> first = shoe.commitment
    >>> shoe.set_client_seed("ann", "my seed")
    >>> shoe.begin_round(); card = shoe.draw(); shoe.finish_round()
    >>> record = shoe.revealed[-1]
    >>> record["commitment"] == first, record["client_seeds"], record["dealt"]
    (True, ['ann:my seed'], 1)
    >>> shoe.commitment != first
    True
    """

    def __init__(
        self,
        *,
        decks: int,
        shuffle: str = "cut-card",
        penetration: Fraction = Fraction(3, 4),
        keeper: ShoeKeeper | None = None,
        first_number: int = 1,
        keep: int = 20,
        deck: str = "standard",
    ) -> None:
        if not 1 <= decks <= 8:
            raise RulesError("out-of-range", field="decks", value=decks, lo=1, hi=8)
        if shuffle not in ("continuous", "cut-card"):
            raise RulesError(
                "not-one-of", field="shuffle", value=shuffle, choices="'continuous', 'cut-card'"
            )
        if deck not in DECK_KINDS:
            choices = ", ".join(repr(d) for d in DECK_KINDS)
            raise RulesError("not-one-of", field="deck", value=deck, choices=choices)
        self.decks = decks
        self.deck = deck
        self.size = deck_size(deck) * decks
        self.continuous = shuffle == "continuous"
        self.cut_position = int(self.size * penetration)
        self.keeper = keeper
        self.keep = keep
        self.number = first_number - 1
        self.client_seeds: dict[str, str] = {}
        self.revealed: list[dict[str, Any]] = []
        self.rounds: dict[int, list[dict[str, Any]]] = {}  # per shoe: its rounds' cards
        self._new_shoe()

    def _new_shoe(self) -> None:
        self.number += 1
        self._seed = secrets.token_bytes(32)
        self.commitment = commitment_of(self._seed)
        self._order: list[Card] | None = None
        self._frozen: list[str] = []
        self._next = 0
        if self.keeper is not None:
            self.keeper.committed(self.number, self.commitment, self._seed.hex())

    def attach(self, keeper: ShoeKeeper, first_number: int) -> None:
        """Give the shoe its keeper before a card is dealt: the coming shoe is committed
        afresh as number ``first_number`` (a table that already dealt shoes goes on)."""
        if self._order is not None:
            raise RulesError("not-one-of", field="shoe", value="dealing", choices="'not dealt'")
        self.keeper = keeper
        self.number = first_number - 1
        self._new_shoe()

    def note_round(self, round_id: int | None, cards: str) -> None:
        """Remember a finished round's cards (in the order they left the shoe) under the
        shoe they came from, for :meth:`verification` (``round_id`` None: cards dealt to a
        round that could not start, which a check must see all the same)."""
        self.rounds.setdefault(self.number, []).append({"id": round_id, "shoe": cards})
        if self.keeper is not None:
            self.keeper.round_dealt(self.number, round_id, cards)

    def verification(self, last: int = 20) -> list[dict[str, Any]]:
        """The ``twentyone verify`` file of the last revealed shoes: each record with its
        rounds' cards."""
        return [
            {"record": r, "rounds": self.rounds.get(r["shoe"], [])} for r in self.revealed[-last:]
        ]

    def set_client_seed(self, player: str, seed: str) -> None:
        """``player``'s seed for the next shoe to begin (at most 64 characters)."""
        if not isinstance(seed, str) or len(seed) > 64:
            shown = str(seed)[:64]
            raise RulesError("bad-client-seed", seed=shown)
        self.client_seeds[player] = seed

    @property
    def cut_card_out(self) -> bool:
        return self._next >= self.cut_position

    def _deal_order(self) -> list[Card]:
        if self._order is None:
            self._frozen = sorted(f"{p}:{s}" for p, s in self.client_seeds.items())
            self._order = shoe_order(
                self._seed, self._frozen, self.number, decks=self.decks, deck=self.deck
            )
            if self.keeper is not None:
                self.keeper.frozen(self.number, list(self._frozen))
        return self._order

    def _reveal(self) -> None:
        record = {
            "version": VERSION,
            "shoe": self.number,
            "decks": self.decks,
            "commitment": self.commitment,
            "server_seed": self._seed.hex(),
            "client_seeds": list(self._frozen),
            "dealt": self._next,
        }
        if self.deck != "standard":  # a standard shoe's record stays as it always was
            record["deck"] = self.deck
        self.revealed.append(record)
        if self.keeper is not None:
            self.keeper.revealed(record)
        while len(self.revealed) > self.keep:  # in memory: the last few (the keeper has all)
            gone = self.revealed.pop(0)
            self.rounds.pop(gone["shoe"], None)
        self._new_shoe()

    def begin_round(self) -> None:
        if self._order is not None and (self.continuous or self.cut_card_out):
            self._reveal()
        self._deal_order()

    def finish_round(self) -> None:
        """After a round: a shoe that is over (continuous shuffling, or the cut card out) is
        revealed at once and the next shoe's commitment published."""
        if self._order is not None and (self.continuous or self.cut_card_out):
            self._reveal()

    def draw(self) -> Card:
        if self._next >= self.size:  # a round that empties the shoe: the next shoe
            self._reveal()
        order = self._deal_order()
        card = order[self._next]
        self._next += 1
        return card

    @property
    def remaining(self) -> int:
        return self.size - self._next


def verify(
    record: Mapping[str, Any],
    rounds: Sequence[Mapping[str, Any]],
    commitments: Sequence[str] | None = None,
) -> int:
    """Check a revealed shoe against the replays of the rounds dealt from it, in order:
    its commitment is one of ``commitments`` (those the player was shown before the shoes;
    None: not checked), the seed is the commitment's preimage, and the rounds' cards are the
    committed order's first ``dealt`` cards, every one (none missing, none extra).

    Returns the number of cards checked; raises :class:`ReplayError` naming the first thing
    that does not match (the commitment, the round and card that differ, the cards missing).
    """
    try:
        seed = bytes.fromhex(str(record["server_seed"]))
        claimed = str(record["commitment"])
        number = int(record["shoe"])
        decks = int(record["decks"])
        dealt = int(record["dealt"])
        seeds = [str(s) for s in record.get("client_seeds", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(
            "bad-shoe-record", record=f"{dict(record)!r:.200}", reason=str(exc)
        ) from exc
    if record.get("version", VERSION) != VERSION:
        raise ReplayError("shoe-version", version=record.get("version"), expected=VERSION)
    if commitments is not None and claimed.lower() not in {c.lower() for c in commitments}:
        seen = ", ".join(commitments) or "none"
        raise ReplayError("commitment-not-seen", shoe=number, claimed=claimed, seen=seen)
    if commitment_of(seed) != claimed:
        raise ReplayError(
            "commitment-mismatch", shoe=number, actual=commitment_of(seed), claimed=claimed
        )
    order = shoe_order(seed, seeds, number, decks=decks, deck=str(record.get("deck", "standard")))
    position = 0
    for r, data in enumerate(rounds):
        cards = list(parse_cards(str(data.get("shoe", ""))))
        for k, card in enumerate(cards):
            if position >= len(order):
                raise ReplayError(
                    "card-past-shoe", round=r, index=k, card=str(card), size=len(order)
                )
            if order[position] != card:
                raise ReplayError(
                    "card-mismatch",
                    round=r,
                    index=k,
                    card=str(card),
                    expected=str(order[position]),
                    position=position,
                )
            position += 1
    if position != dealt:
        raise ReplayError("cards-missing", shoe=number, dealt=dealt, checked=position)
    return position


def verify_file(data: Any, commitments: Sequence[str] | None = None) -> dict[str, Any]:
    """Check a verification file: ``{"record": {...}, "rounds": [replay, ...]}`` for one
    shoe, or a list of them, against the ``commitments`` the player saw (see :func:`verify`).
    Each round is also replayed (its decisions must fit its cards). Returns
    ``{"shoes": n, "rounds": n, "cards": n, "commitments": [...]}``; raises
    :class:`ReplayError`."""
    from twentyone.engine.replay import replay

    shoes = data if isinstance(data, list) else [data]
    total: dict[str, Any] = {"shoes": 0, "rounds": 0, "cards": 0, "commitments": []}
    for s, entry in enumerate(shoes):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("record"), Mapping):
            raise ReplayError("bad-shoe-entry", entry=s)
        rounds = entry.get("rounds", [])
        if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
            raise ReplayError("bad-shoe-rounds", entry=s)
        for r, data_r in enumerate(rounds):
            if not {"rules", "boxes", "decisions"} <= set(data_r):
                continue  # the round's cards only (a table's verification file)
            try:
                replay(data_r)
            except ReplayError as exc:
                raise ReplayError(
                    "shoe-round-refused", decision=exc.decision, entry=s, round=r, reason=exc
                ) from exc
        total["cards"] += verify(entry["record"], rounds, commitments)
        total["commitments"].append(str(entry["record"].get("commitment")))
        total["shoes"] += 1
        total["rounds"] += len(rounds)
    return total
