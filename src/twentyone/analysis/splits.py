"""The return of a split to any number of hands: the layer above the one-hand play
(:mod:`~twentyone.analysis.hands`) and the split's moments
(:mod:`~twentyone.analysis.split_moments`), so that neither imports the other.
"""

from __future__ import annotations

import numpy as np

from twentyone.analysis.context import Context, shoe_after
from twentyone.analysis.hands import (
    SplitPlay,
    farmer_split_value,
    free_split_value,
    split_decisions,
    split_value_weighted,
)
from twentyone.analysis.shoe_counts import IntArray
from twentyone.analysis.split_moments import split_moments_of


def split_value(
    ctx: Context,
    up: int,
    shoe: IntArray,
    pair: int,
    play: SplitPlay,
    max_hands: int,
    *,
    free_hand: bool = False,
) -> float:
    """Return of splitting ``pair`` (in the values' space), ``shoe`` = cards left after the
    up card (the two pair cards still in it), hands made up to ``max_hands``.

    Up to four hands this is Eric Farmer's exact CDZ- method
    (:func:`~twentyone.analysis.hands.farmer_split_value`). Beyond four hands it is the mean of
    :mod:`~twentyone.analysis.split_moments`, exact for any number of hands (the same figure
    as Farmer's to 1e-15 up to four); a ten-value pair split by rank, whose cards of its rank
    the shoe's counts do not tell, takes the approximation of
    :func:`~twentyone.analysis.split.split_weights`, to
    :data:`~twentyone.analysis.context.TABLE_HANDS` hands at most. ``free_hand``: the hand
    split is one a free split made, its stake the house's
    (:func:`~twentyone.analysis.hands.free_split_value`)."""
    if (ctx.split_is_free(pair) or free_hand) and max_hands > 1:
        if max_hands > 4 or ctx.rules.split_second_card == "at-once":
            ctx.refuse_free("split moments")
        stakes = (free_hand, ctx.split_is_free(pair))
        return free_split_value(ctx, up, shoe, pair, play, max_hands, stakes=stakes)
    if max_hands > 4:
        got = None
        if np.array_equal(shoe, shoe_after(ctx, up)):
            dec, decs, _ = split_decisions(ctx, up, pair, play)
            got = split_moments_of(ctx, up, pair, dec, max_hands, second=False, decs=decs)
        if got is not None:
            return got.first
        return split_value_weighted(ctx, up, shoe, pair, play, max_hands)
    return farmer_split_value(ctx, up, shoe, pair, play, max_hands)
