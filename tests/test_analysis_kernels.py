"""The analysis's fast kernels agree with their plain one-row forms (issue 12 item 7: speed
must not change a figure)."""

from __future__ import annotations

import numpy as np

from twentyone.analysis.dealer import (
    BLOCK,
    dealer_dists,
    dealer_probs,
    dealer_table,
    standing_table,
    with_bust,
)
from twentyone.analysis.shoe_counts import fresh_counts, removed_sets


def test_dealer_rows_taken_in_blocks_equal_one_row_at_a_time_bit_for_bit() -> None:
    sets = removed_sets(2, (2,) * 10)
    fours = sets.keys[sets.keys[:, 3] >= 2][:2]  # more fours than the shoe below holds
    for up, h17, rows in ((0, False, 40 * BLOCK + 3), (9, True, 5), (5, True, BLOCK + 11)):
        # a last block that is not full; a block narrower than BLOCK
        keys = np.concatenate([sets.keys[: rows - 2], fours])
        t = dealer_table(up, h17)
        comp = fresh_counts(2)
        comp[up] -= 1
        comp[3] = 1  # some rows take more fours than the shoe holds
        out, valid = dealer_dists(comp, keys, t.parent, t.fac, t.ways, t.bucket)
        for i in range(keys.shape[0]):
            left = comp - keys[i]
            if (left < 0).any():
                assert not valid[i] and not out[i].any()
                continue
            one = np.zeros(7)
            dealer_probs(left, t.parent, t.fac, t.ways, t.bucket, one)
            assert valid[i] and (one == out[i]).all(), (up, i)
        assert valid.sum() > min(rows - 5, BLOCK) and (~valid).sum() > 1
        none, _ = dealer_dists(comp, keys[:0], t.parent, t.fac, t.ways, t.bucket)
        assert none.shape == (0, 7)


def test_the_dealer_distribution_of_one_shoe_is_the_one_row_kernels_bit_for_bit() -> None:
    # dealer_distribution takes dealer_dists with one row (one kernel fewer to compile on a
    # first run): the figures are dealer_probs's, to the last bit, on depleted shoes too
    from twentyone.analysis.dealer import dealer_distribution

    rng = np.random.default_rng(12)
    for decks, h17 in ((1, True), (6, False), (8, True)):
        for up in range(10):
            t = dealer_table(up, h17)
            for _ in range(20):
                shoe = np.maximum(fresh_counts(decks) - rng.integers(0, 3 * decks, 10), 0)
                one = np.zeros(7)
                dealer_probs(shoe, t.parent, t.fac, t.ways, t.bucket, one)
                assert (dealer_distribution(shoe, up, h17) == one).all(), (decks, up, shoe)


def test_dealer_tables_come_depth_first() -> None:
    """dealer_dists keeps only the current path's products: each node's parent must be the
    last node before it one level up."""
    tables = [f(u, u % 2 == 0) for u in range(10) for f in (dealer_table, standing_table)]
    for t in tables:
        last: dict[int, int] = {}
        depth = np.zeros(t.parent.shape[0], dtype=np.int64)
        for node, parent in enumerate(t.parent):
            depth[node] = 0 if parent < 0 else depth[parent] + 1
            if parent >= 0:
                assert last[int(depth[node]) - 1] == parent
            last[int(depth[node])] = node


def test_dealer_rows_without_the_busting_hands_agree_to_the_last_bits() -> None:
    """The stand values read the dealer's rows over the table without the hands that bust
    (about half its nodes), the bust's chance being what the other outcomes leave."""
    sets = removed_sets(6, (2,) * 10)
    keys = sets.keys[::7]
    for up, h17 in ((0, False), (1, True), (5, False), (9, False)):
        full, small = dealer_table(up, h17), standing_table(up, h17)
        assert small.parent.shape[0] < 0.65 * full.parent.shape[0]
        comp = fresh_counts(6)
        comp[up] -= 1
        want, ok = dealer_dists(comp, keys, full.parent, full.fac, full.ways, full.bucket)
        got, ok2 = dealer_dists(comp, keys, small.parent, small.fac, small.ways, small.bucket)
        assert (ok == ok2).all() and ok.all()
        assert not got[:, 5].any()  # no busting hand in the table
        got = with_bust(got, ok2)
        assert np.abs(got - want).max() < 1e-15
        assert (got[:, [0, 1, 2, 3, 4, 6]] == want[:, [0, 1, 2, 3, 4, 6]]).all()
