"""The shoe an analysis deals from, as the user writes it: ten counts, or the cards taken out
of the rules' full shoe.

>>> from twentyone import load_rules
>>> r = load_rules("6D S17 DAS SPL1 NS")
>>> shoe_of(r, remove="5 5 5 5 6 6")
(24, 24, 24, 24, 20, 22, 24, 24, 24, 96)
>>> shoe_of(r, shoe="24 24 24 24 20 22 24 24 24 96") == shoe_of(r, remove="5 5 5 5 6 6")
True
>>> shoe_of(r)[9]
96
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from twentyone.analysis.context import check_shoe, full_shoe
from twentyone.engine.cards import RANKS as CARD_RANKS
from twentyone.engine.errors import CardError
from twentyone.engine.rules import Rules

#: Count index of each rank a user may type (``T``, ``10``, ``J``, ``Q``, ``K``: ten-value).
RANK_INDEX = {
    "A": 0,
    **{str(v): v - 1 for v in range(2, 10)},
    **dict.fromkeys(("T", "10", "J", "Q", "K"), 9),
}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def parse_counts(text: str | Sequence[int]) -> tuple[int, ...]:
    """Ten counts (A, 2..9, ten-value) from ``"24 24 ... 96"`` or a sequence.

    >>> parse_counts("4,4,4,4,4,4,4,4,4,16")[0]
    4
    """
    if not isinstance(text, str):
        return check_shoe(text)
    tokens = _tokens(text)
    if len(tokens) != 10 or not all(t.isdigit() for t in tokens):
        raise CardError("bad-shoe-text", text=text)
    return check_shoe([int(t) for t in tokens])


def parse_ranks(text: str | Sequence[str]) -> list[int]:
    """Count indexes of ranks written ``"A 5 T"`` (a card such as ``5H`` counts as its rank).

    >>> parse_ranks("A 5H T K")
    [0, 4, 9, 9]
    """
    tokens = _tokens(text) if isinstance(text, str) else list(text)
    out = []
    for t in tokens:
        key = t.upper()
        if key not in RANK_INDEX and len(key) >= 2 and key[-1] in "SHDC":
            key = key[:-1]
        if key not in RANK_INDEX:  # worded as every command words a bad rank
            raise CardError("bad-rank", rank=key, ranks=" ".join(CARD_RANKS))
        out.append(RANK_INDEX[key])
    return out


def shoe_of(
    rules: Rules,
    *,
    shoe: str | Sequence[int] | None = None,
    remove: str | Sequence[str] | None = None,
) -> tuple[int, ...]:
    """The counts of A, 2..9, ten-value to deal from: ``shoe`` as given (default the rules'
    full shoe), less the cards in ``remove``."""
    counts = list(full_shoe(rules) if shoe is None else parse_counts(shoe))
    for v in parse_ranks(remove) if remove is not None else []:
        if counts[v] == 0:
            raise CardError("remove-too-many", remove=remove, rank=RANKS[v], counts=list(counts))
        counts[v] -= 1
    return check_shoe(counts)
