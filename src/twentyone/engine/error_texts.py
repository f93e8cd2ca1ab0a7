"""The English templates of every error code (:data:`TEMPLATES`), marked for translation:
the texts :mod:`twentyone.engine.errors` makes its messages from, and the catalogs translate
by code (:func:`twentyone.i18n.describe`).

>>> TEMPLATES["outside-limits"].english({"box": 1, "bet": 50, "min": 100, "max": 900})
'box 1: bet 50 is outside the table limits 100 to 900'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def N_(message: str) -> str:
    """Mark a message for extraction without translating it (it is translated where it is
    shown: the terminal by its catalog, the web page by the English msgid)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for extraction (``pybabel extract -k Nn_:1,2``)."""
    return singular, plural


@dataclass(frozen=True)
class Template:
    """An error code's English message (``{named}`` placeholders) and which of its parameters
    are money in minor units (formatted for the locale where the message is shown). A message
    with a ``plural`` form takes the form its ``count`` parameter asks for (gettext's
    ``ngettext``: "1 box", "2 boxes")."""

    text: str
    money: tuple[str, ...] = ()
    plural: str | None = None
    count: str = "n"

    def english(self, params: dict[str, Any]) -> str:
        """The English message with these parameters."""
        text = self.text
        if self.plural is not None and params.get(self.count) != 1:
            text = self.plural
        return text.format(**params)


def _t(text: str, *money: str) -> Template:
    return Template(text, money)


def _tn(forms: tuple[str, str], count: str) -> Template:
    """A template with a plural form chosen by the parameter ``count``."""
    return Template(forms[0], plural=forms[1], count=count)


#: Every error code and its English template. The web page formats the money parameters
#: named ``amount``, ``bet``, ``max``, ``min``, ``total`` and ``balance`` and counts ``box``
#: from 0: an engine error it shows has its ``box`` counted from 0 (see web/refusal.py).
TEMPLATES: dict[str, Template] = {
    # cards and the shoe
    "bad-rank": _t(N_("bad rank {rank!r}: expected one of {ranks}")),
    "bad-suit": _t(N_("bad suit {suit!r}: expected one of {suits}")),
    "bad-card": _t(
        N_("bad card {text!r}: expected rank (2-9 T J Q K A) then suit (C D H S), e.g. 'AS'")
    ),
    "shoe-empty": _t(N_("the stacked shoe is empty after {count} cards")),
    "stack-too-many": _tn(
        Nn_(
            "shoe: {card} is stacked {count} times, but {decks} deck holds {most}",
            "shoe: {card} is stacked {count} times, but {decks} decks hold {most}",
        ),
        "decks",
    ),
    "bad-hand": _t(N_("hand {text!r}: expected two cards or more, such as 'T 6' or 'TS 6D'")),
    "bad-shoe-text": _t(
        N_(
            "shoe {text!r}: expected ten counts (A, 2..9, ten-value), e.g. "
            "'24 24 24 24 20 22 24 24 24 96'"
        )
    ),
    "remove-too-many": _t(N_("remove {remove!r}: more {rank} than the shoe holds ({counts})")),
    "bad-shoe-counts": _t(
        N_("shoe {counts}: expected ten counts (A, 2..9, ten-value), none negative")
    ),
    "shoe-too-small": _t(N_("shoe {counts}: expected at least {least} cards to deal a round")),
    "shoe-lacks-hand": _t(N_("shoe {shoe}: it does not hold the hand and the up card ({cards})")),
    # rules: one field's value
    "not-one-of": _t(N_("{field}={value!r}: expected one of {choices}")),
    "not-true-or-false": _t(N_("{field}={value!r}: expected true or false")),
    "not-whole-number": _t(N_("{field}={value!r}: expected a whole number")),
    "out-of-range": _t(N_("{field}={value!r}: expected {lo} to {hi}")),
    "at-least": _t(N_("{field}={value!r}: expected at least {least}")),
    "not-a-fraction": _t(N_("{field}={value!r}: expected a fraction between 0 and 1")),
    "not-a-ratio": _t(N_("{field}={value!r}: expected a ratio such as '3:2', '2/3' or '0.75'")),
    "not-a-payout": _t(N_("{field}={value!r}: expected a payout such as '3:2' (3 to 2) or '6:5'")),
    "not-positive-ratio": _t(N_("{field}={value!r}: expected a positive ratio such as 3:2")),
    "bad-bonus-21-cards": _t(
        N_(
            "{field}={value!r}: expected the number of cards of a 21 (3 to 21) with its odds, "
            'e.g. {{ 5 = "3:2", 6 = "2:1", 7 = "3:1" }}'
        )
    ),
    "bad-bonus-21-678": _t(
        N_("{field}={value!r}: expected some of the lines {lines} with their odds")
    ),
    "bad-odds-table": _t(
        N_('{field}={value!r}: expected a table of odds, each line once, e.g. {{ 5 = "3:2" }}')
    ),
    "bad-insurance-upcards": _t(
        N_("{field}={value!r}: expected a list of 'A' (ace) and/or 'T' (ten-value card)")
    ),
    "bad-free-doubles": _t(
        N_("{field}={value!r}: expected a list of hard two-card totals from 4 to 20")
    ),
    "bad-free-splits": _t(
        N_("{field}={value!r}: expected a list of pairs among 'A', '2' to '9' and 'T'")
    ),
    "bad-max-hands": _t(
        N_("{field}={value!r}: expected 1 (no split) to 4 hands, or 'unlimited' (no limit)")
    ),
    # side bets: their ids, kinds and paytables
    "bad-side-bet-id": _t(N_("side bet id {id!r}: expected lower-case letters, digits, + or -")),
    "reserved-side-bet-id": _t(N_("side bet id {id!r}: expected an id other than {reserved}")),
    "unknown-side-bet-kind": _t(N_("side_bets.{id}: kind {kind!r}: expected one of {kinds}")),
    "bad-paytable": _t(
        N_("side_bets.{id}: paytable {paytable!r}: expected a table of lines and their odds")
    ),
    "unknown-paytable-line": _t(
        N_("side_bets.{id}: paytable line {line!r}: expected one of {lines}")
    ),
    "paytable-not-positive": _t(
        N_("side_bets.{id}: paytable line {line!r} pays {pays}: expected positive odds")
    ),
    "bad-side-bet-spec": _t(
        N_("side_bets.{key}={spec!r}: expected a table with kind and paytable")
    ),
    "bad-side-bets": _t(N_("side_bets={value!r}: expected a table of side bets by id")),
    "repeated-side-bet": _t(N_("side_bets: id repeated in {ids}: expected distinct ids")),
    "one-678-bonus": _t(
        N_(
            "side_bets: {ids}: expected at most one 678-777 bonus, paying the same odds on both "
            "lines (the exact analysis prices one multiple)"
        )
    ),
    "unknown-side-bet": _t(N_("side bet {side!r}: this table offers {offered}")),
    # rules: fields that do not go together
    "soft-17-cards-needs-h17": _t(
        N_(
            "dealer_hits_soft_17_min_cards={cards} needs dealer_hits_soft_17=True: a dealer "
            "who stands on soft 17 hits it with no number of cards"
        )
    ),
    "peek-needs-hole-card": _t(
        N_("peek=True needs hole_card=True: with no hole card there is nothing to peek at")
    ),
    "hole-up-needs-peek": _t(
        N_(
            "hole_card_up=True needs hole_card=True and peek=True: a dealer's second card dealt "
            "face up shows a dealer blackjack before play, which ends the round"
        )
    ),
    "original-needs-no-peek": _t(
        N_(
            "dealer_blackjack_takes='original' needs peek=False: a peeking dealer ends the "
            "round before any double or split"
        )
    ),
    "free-double-not-doubled": _t(
        N_(
            "free_doubles: hard {hard} may not be doubled at all under double_on={double_on!r}:"
            " expected totals the table lets a player double"
        )
    ),
    "switch-no-even-money": _t(
        N_(
            "switch=True needs even_money=False: a blackjack facing an ace may yet be switched "
            "away, so it cannot be paid even money before the switch"
        )
    ),
    "pair-bet-needs-switch": _t(
        N_(
            "side_bets {ids}: a bet on a switch pair's four cards needs switch=True (a table "
            "whose boxes play in pairs)"
        )
    ),
    "fast-path-refuses": _t(
        N_(
            "{field}={value!r}: {path} does not play this yet ({lacks}); the engine plays it "
            "(terminal, web table, replay)"
        )
    ),
    "resplit-aces-needs-hands": _t(
        N_("resplit_aces=True needs max_hands of 3 or more, got max_hands={max_hands}")
    ),
    "analysis-dealer-22": _t(
        N_(
            "dealer_22={value!r}: the exact analysis does not price a dealer's 22 that pushes "
            "yet; the simulator (twentyone simulate) plays it"
        )
    ),
    "analysis-refuses": _t(
        N_(
            "{field}={value!r}: the exact analysis does not price this yet ({lacks}); the "
            "engine plays it and the simulator plays a chart on it"
        )
    ),
    "analysis-ties": _t(
        N_(
            "{field}={value!r}: the exact analysis does not price a tie the dealer takes in "
            "{part} yet; the returns, the strategy and the simulator (twentyone simulate) do"
        )
    ),
    "analysis-free-stakes": _t(
        N_(
            "{field}={value!r}: the exact analysis does not price free stakes in {part} yet; "
            "the returns, the strategy and the simulator (twentyone simulate) do"
        )
    ),
    "max-below-min": _t(N_("table_max={max}: expected at least table_min={min}"), "max", "min"),
    "unknown-fields": _t(N_("unknown rules field(s) {unknown}: expected {known}")),
    # rule sets: presets, files and shorthand
    "bad-house": _t(N_("house.{field}={value!r}: expected {expected}")),
    "unknown-preset": _t(N_("unknown preset {name!r}: expected one of {presets}")),
    "bad-toml": _t(N_("{source}: not valid TOML: {reason}")),
    "bad-rules-file": _t(N_("{source}: {reason}; the fields are {fields}")),
    "unknown-rules-key": _t(N_("{source}: unknown key {key!r}: expected one of {fields}")),
    "rules-need-decks": _t(N_("{source}: no decks: a rule set needs decks = 1 to 8")),
    "unreadable-rules-file": _t(N_("cannot read rules file {path!r}: {reason}")),
    "unknown-token": _t(N_("unknown shorthand token {token!r} in {text!r}: expected {expected}")),
    "bad-split-token": _t(
        N_(
            "shorthand token {token!r}: expected SPL0 to SPL3 (up to 3 splits: 4 hands) or "
            "SPLU (no limit)"
        )
    ),
    "contradictory-tokens": _t(
        N_("shorthand {text!r} says both {first} and {second}: keep one of them")
    ),
    "png-needs-matplotlib": _t(
        N_("--format png needs matplotlib: pip install 'twentyone[png]' (or use text or html)")
    ),
    "unwritable-output": _t(
        N_("cannot write {path!r}: {reason}; expected a file in a folder that exists")
    ),
    "no-deck-count": _t(N_("shorthand {text!r} has no deck count: expected a token like 6D")),
    "empty-rules": _t(
        N_("empty rules: expected a preset name, a TOML file or shorthand such as '6D S17 DAS'")
    ),
    "bad-rules-spec": _t(
        N_(
            "rules {text!r}: expected a preset ({presets}), a path to a .toml file, or "
            "shorthand such as '6D S17 DAS SPL3 LS'"
        )
    ),
    # bets: the table's limits and the players' money (twentyone.engine.bets checks them)
    "no-bets": _t(N_("no bets: a round needs at least one box with a bet")),
    "too-many-boxes": _t(N_("{boxes} boxes: the table has {most}")),
    "not-whole-units": _t(N_("box {box}: bet {value!r} must be a whole number of minor units")),
    "outside-limits": _t(
        N_("box {box}: bet {bet} is outside the table limits {min} to {max}"), "bet", "min", "max"
    ),
    "no-side-bet": _t(N_("box {box}: side bet {side!r}: this table offers {offered}")),
    "side-bet-outside-limits": _t(
        N_("box {box}: side bet {side!r} {amount}: expected 0 to {max}"), "amount", "max"
    ),
    "switch-odd-boxes": _tn(
        Nn_(
            "player {player!r} bets {boxes} box: a switch table plays a player's boxes in "
            "pairs, so expected an even number",
            "player {player!r} bets {boxes} boxes: a switch table plays a player's boxes in "
            "pairs, so expected an even number",
        ),
        "boxes",
    ),
    "option-boxes-pairs": _t(
        N_(
            "--boxes {boxes}: {table} plays a player's boxes in switch pairs; expected an even "
            "number"
        )
    ),
    "switch-unequal-bets": _t(
        N_(
            "boxes {first} and {second} play as a switch pair: their bets must be equal, got "
            "{a} and {b}"
        ),
        "a",
        "b",
    ),
    "side-bet-alone": _t(N_("box {box}: a side bet {side!r} needs a main bet beside it")),
    "more-than-left": _t(
        N_("box {box}: bet {bet} is more than the {balance} left"), "bet", "balance"
    ),
    "over-boxes-per-player": _t(
        N_("player {player!r} bets on {boxes} boxes: at most {most} per player")
    ),
    "insufficient-funds": _t(
        N_("player {player!r} bets {total} but has {balance}"), "total", "balance"
    ),
    "boxes-per-player": _t(
        N_("boxes={boxes}: the {table} table allows 1 to {most} boxes per player")
    ),
    "negative-bankroll": _t(N_("bankroll={bankroll}: expected 0 or more minor units")),
    "bets-per-box": _t(N_("{count} bets: expected one per box ({boxes})")),
    "side-bets-per-box": _t(N_("{count} side bets: expected one per box ({boxes})")),
    "account-cannot-pay": _t(
        N_("account {account} has {balance}, cannot pay {amount}"), "balance", "amount"
    ),
    "stakes-cannot-pay": _t(N_("stakes {stakes}: a balance cannot pay its stake")),
    "bad-opening-balance": _t(N_("balance {balance!r}: expected 0 or more minor units")),
    "no-open-round": _t(N_("round {round}: no such open round")),
    # actions
    "round-over": _t(N_("{decision!r}: the round is over, no decision is asked")),
    "not-allowed": _t(N_("{decision!r} is not allowed: asked {asked}")),
    "no-more-doubles": _t(
        N_(
            "{decision!r} is not allowed: this hand has doubled as many times as the table "
            "allows (redoubles); asked {asked}"
        )
    ),
    "no-redouble": _t(
        N_("{decision!r} is not allowed: a doubled hand may not double again here; asked {asked}")
    ),
    "rescue-needs-double": _t(
        N_("{decision!r} is not allowed: only a doubled hand may be rescued; asked {asked}")
    ),
    "no-rescue": _t(
        N_("{decision!r} is not allowed: this table offers no double-down rescue; asked {asked}")
    ),
    "amount-not-whole": _t(
        N_(
            "{decision!r}: the amount must be a whole number of minor units (0-9, at most "
            "{digits} digits); asked {asked}"
        )
    ),
    "amount-outside": _t(
        N_("{decision!r}: amount {amount} outside {min} to {max}; asked {asked}"),
        "amount",
        "min",
        "max",
    ),
    "round-not-over": _t(N_("the round is not over: it still asks a question")),
    "nothing-asked": _t(N_("the round asks nothing: it is over")),
    "hand-bust": _t(N_("the hand is bust: no action left")),
    # replays
    "replay-rules": _t(N_("rules: {reason}")),
    "replay-rules-type": _t(
        N_("rules={value!r}: expected a preset name, a TOML path, shorthand or a table")
    ),
    "replay-not-object": _t(N_("a replay is a JSON object with rules, shoe, boxes and decisions")),
    "replay-missing": _t(N_("missing {key!r}: a replay has rules, shoe, boxes and decisions")),
    "replay-json": _t(N_("not valid JSON: {reason}")),
    "replay-boxes": _t(N_("boxes: expected a non-empty list of boxes, each a player and a bet")),
    "replay-box": _t(N_("boxes[{index}]={value!r}: expected a player's name and a bet")),
    "replay-box-amounts": _t(
        N_(
            "boxes[{index}]: bet {bet!r} must be a whole number and side_bets {sides!r} a "
            "table of whole numbers by side bet id"
        )
    ),
    "replay-decisions": _t(N_("decisions: expected a list of strings such as 'hit', 'double:50'")),
    "replay-bankrolls": _t(
        N_("bankrolls={value!r}: expected a whole amount of 0 or more for each player")
    ),
    "left-over-decision": _t(
        N_("left-over decision {text!r}: the round ended after {count} decisions")
    ),
    "missing-decision": _t(N_("missing decision: the round still asks {asked}")),
    "shoe-too-short-dealing": _t(N_("shoe too short: {reason} while dealing the round")),
    "shoe-too-short": _t(N_("shoe too short: {reason} while playing decision {index} {text!r}")),
    "replay-refused": _t(N_("{reason}")),
    # provable shoes: commitments and their verification
    "bad-client-seed": _t(N_("client seed {seed!r}: expected text of up to 64 characters")),
    "bad-shoe-record": _t(
        N_(
            "shoe record {record}: expected server_seed, commitment, shoe, decks and "
            "client_seeds ({reason})"
        )
    ),
    "shoe-version": _t(N_("version {version!r}: expected {expected!r}")),
    "commitment-mismatch": _t(
        N_("shoe {shoe}: sha256 of the revealed seed is {actual}, not the commitment {claimed}")
    ),
    "card-past-shoe": _t(N_("round {round}: card {index} {card} is past the shoe's {size}")),
    "card-mismatch": _t(
        N_(
            "round {round}: card {index} is {card}, but the committed order has {expected} at "
            "position {position}"
        )
    ),
    "cards-missing": _t(
        N_("shoe {shoe}: {dealt} cards were dealt from it, the rounds show {checked}")
    ),
    "commitment-not-seen": _t(
        N_("shoe {shoe}: commitment {claimed} is not the one you were shown ({seen})")
    ),
    "bad-shoe-entry": _t(N_("shoe entry {entry}: expected an object with a record and rounds")),
    "bad-shoe-rounds": _t(N_("shoe entry {entry}: rounds must be a list of replays")),
    "shoe-round-refused": _t(N_("shoe entry {entry}, round {round}: {reason}")),
    # strategies
    "strategy-rows-missing": _t(N_("strategy {table}: rows {rows} missing")),
    "strategy-bad-row": _t(N_("strategy {table}[{row}]={codes!r}: expected 10 codes from {known}")),
    "strategy-upcards": _t(N_("strategy upcards {upcards}: expected {expected}")),
    "strategy-dealer-total": _t(
        N_(
            "{table}: a chart by the dealer's two-card total needs both dealer cards face up "
            "(hole_card_up)"
        )
    ),
    "strategy-file": _t(
        N_(
            "strategy file: {reason}: expected an object with 'hard', 'soft' and 'pairs' "
            "tables of 10 codes per row"
        )
    ),
    "strategy-unreadable": _t(N_("--strategy {path!r}: cannot read it: {reason}")),
    "strategy-json": _t(N_("--strategy {path!r}: not valid JSON: {reason}")),
    "strategy-not-object": _t(N_("--strategy {path!r}: expected a JSON object with the tables")),
    "strategy-invalid": _t(N_("--strategy {path!r}: {reason}")),
    # the simulator's options
    "sim-max-hands": _t(
        N_("max_hands={max_hands}: the simulator plays at most {most} hands a box")
    ),
    "sim-rounds": _t(N_("--rounds {rounds}: expected at least 1 round")),
    "sim-rounds-day": _t(
        N_("--rounds {rounds}: more than a day of simulating here; expected at most {most}")
    ),
    "sim-workers": _t(N_("--workers {workers}: expected at least 1 worker")),
    "sim-boxes": _t(N_("--boxes {boxes}: {table} lets one player play 1 to {most} boxes")),
    "sim-switch-boxes": _t(
        N_(
            "--boxes {boxes}: {table} is a switch table, whose boxes switch in pairs: play an "
            "even number of boxes"
        )
    ),
    "needs-ray": _t(
        N_("--address needs Ray, which is not installed: pip install 'twentyone[cluster]'")
    ),
    "ray-connect": _t(N_("--address {address!r}: cannot connect to Ray: {reason}")),
    # card counting (twentyone.counting) and the counting simulation
    "count-tag": _t(N_('{where}={value!r}: expected a tag such as -1, 0.5 or "1/2"')),
    "count-tags": _t(
        N_("count {count!r}: {field}={tags}: expected a tag for each rank A, 2..9, T")
    ),
    "count-file": _t(N_("count file {source!r}: {reason}")),
    "count-key": _t(N_("count file {source!r}: unknown or misshapen key {key!r}; expected {keys}")),
    "count-unknown": _t(N_("--count {name!r}: no such count system or file; built in: {names}")),
    "ramp-pair": _t(
        N_("--ramp {text!r}: {pair!r} is not tc:units in whole numbers, units 0 or more (e.g. 2:4)")
    ),
    "ramp-order": _t(N_("--ramp {text!r}: the true counts must rise from pair to pair ({tcs})")),
    "ramp-empty": _t(N_('--ramp {text!r}: expected tc:units pairs, e.g. "0:1 1:2 2:4"')),
    "ramp-file": _t(N_("--ramp {source!r}: {reason}")),
    "index-file": _t(N_("--indices {source!r}: {reason}")),
    "index-unknown": _t(
        N_("--indices {source!r}: no such index set or file: expected {names} or a JSON file")
    ),
    "index-keys": _t(
        N_(
            "--indices {source!r}, entry {n}: expected an object with the keys hand, up, "
            "below, at_or_above, index; got {keys}"
        )
    ),
    "index-hand": _t(
        N_(
            '--indices {source!r}, entry {n}: hand {hand!r}: expected a hard total ("16"), '
            'a soft total ("soft 18"), a pair ("T,T") or "insurance"'
        )
    ),
    "index-up": _t(
        N_("--indices {source!r}, entry {n}: up {up!r}: expected one of 2 3 4 5 6 7 8 9 T A")
    ),
    "index-play": _t(
        N_("--indices {source!r}, entry {n}: {field}={play!r}: expected one of {plays}")
    ),
    "index-number": _t(
        N_("--indices {source!r}, entry {n}: index={index!r}: expected a whole number")
    ),
    "index-twice": _t(N_("--indices {source!r}: {hand} against {up} is given twice")),
    "count-needs": _t(N_("{option} needs --count (a counting system such as hilo)")),
    "count-wong": _t(N_("--wong-out {out} is above --wong-in {into}: expected at most {into}")),
    "count-players": _t(
        N_(
            "--players {players}: {table} seats {most} boxes; with the counter's {boxes} "
            "expected 1 to {most_players} players"
        )
    ),
    "audit-rounds": _t(N_("--rounds {rounds}: expected 0 (no simulation) or more rounds")),
    "count-bankroll": _t(N_("--bankroll {units}: expected more than 0 units")),
    # the reinforcement-learning environments (twentyone.gym)
    "gym-vector-only": _t(
        N_(
            "boxes={boxes}, episode={episode!r}, observe={observe!r}, ev_loss={ev_loss}: the "
            "vectorized environment plays one box, one round an episode, without observe or "
            "ev_loss (use gymnasium.make for those)"
        )
    ),
    "bad-bet-levels": _t(N_("bet_levels={levels}: expected whole numbers >= 1")),
    "gym-boxes": _t(N_("boxes={boxes}: expected 1 to {most} for {table}")),
    "gym-players": _t(N_("players={players}: expected 1 to {most} at {table}")),
    "shoe-episode-continuous": _t(
        N_(
            "episode='shoe' with {table}: a continuous shuffle has no shoe to play out; use "
            "episode='round'"
        )
    ),
    "gym-bet": _t(N_("bet={bet}: expected bets from {min} to {max} at every level"), "min", "max"),
    "action-not-open": _t(N_("action {action} ({name}) is not open: asked {asked}; open: {open}")),
    "action-not-open-phase": _t(N_("action {action}: not open in phase {phase!r}; open: {open}")),
    "action-settled": _t(
        N_("action {action} is not open: the round was settled at the deal; open: next")
    ),
    # the trainers (twentyone.counting.trainer, twentyone.counting.trainer_cards, twentyone train)
    "train-not-a-count": _t(N_("{text!r} is not a count: type a number such as 3, -2 or +1")),
    "train-cards": _t(N_("--cards {cards}: expected 1 to {most} cards a round")),
    "train-too-many": _t(N_("{cards} cards: the shoe holds {size}")),
    "train-card-repeated": _t(N_("card {card} appears more often than in {decks} decks")),
    "train-rounds": _t(N_("--rounds {rounds}: expected at least 1")),
    "train-speed": _t(N_("--speed {speed}: expected 0 to 10 seconds a card")),
    "train-rounding": _t(N_("--rounding {rounding!r}: expected one of {choices}")),
    "train-no-indices": _t(N_("--indices {source!r}: the list holds no index plays")),
    "train-not-a-play": _t(N_("{text!r} is not a play: expected one of {plays}")),
    # the terminal game's options and languages
    "option-boxes": _t(
        N_("--boxes {boxes}: the {table} table allows 1 to {most} boxes per player")
    ),
    "option-bankroll": _t(
        N_("--bankroll {amount}: below the table minimum {minimum}"), "amount", "minimum"
    ),
    "option-bankroll-money": _t(
        N_("--bankroll {text!r}: expected money such as 500 or {example}"), "example"
    ),
    "option-log": _t(N_("--log {path!r}: cannot write it: {why}")),
    "option-players": _t(
        N_("--players {players!r}: name two or more players, separated by commas (ann,bob)")
    ),
    "option-players-twice": _t(N_("--players: {name!r} is named twice")),
    "option-players-single": _t(
        N_(
            "--players: {table} is a single-player table (an online game): play it alone, "
            "without --players"
        )
    ),
    "option-players-boxes": _tn(
        Nn_(
            "--players: {n} players with {boxes} box each need {need} boxes, but the "
            "{table} table has {most}",
            "--players: {n} players with {boxes} boxes each need {need} boxes, but the "
            "{table} table has {most}",
        ),
        "boxes",
    ),
    "no-such-language": _t(N_("--lang {lang}: no such language; choose one of {names}")),
}
