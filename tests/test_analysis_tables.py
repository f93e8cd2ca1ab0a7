"""The analysis's tables built with numpy, and the split joints' kernels, against the plain
Python they replace (issue 12 item 7: a new process's first analysis must be cheaper, and no
figure may move): the same arrays, element for element, in the same order."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from twentyone.analysis.dealer import BLACKJACK, BUST, MAX_RUN, dealer_table, standing_table
from twentyone.analysis.shoe_counts import (
    ACE,
    GROUP_OF,
    FloatArray,
    IntArray,
    best_total,
    fresh_counts,
    player_nodes,
    removed_sets,
)
from twentyone.analysis.split_joint import (
    FREE,
    KEY_BASE,
    STATES,
    Atoms,
    DealerRows,
    accumulate_kernel,
    key_rows_kernel,
    pair_joint,
    pair_rows_kernel,
    split_atoms,
)
from twentyone.engine.predicates import dealer_draws


def _built(table: Any) -> Any:
    """The builder under a table's caches (the memory's and the disk's): built here."""
    return table.__wrapped__.__wrapped__


def _dealer_total(up: int, counts: tuple[int, ...]) -> tuple[int, bool]:
    hard = up + 1 + sum((v + 1) * m for v, m in enumerate(counts))
    return best_total(hard, int(up == ACE or counts[ACE] > 0))


def _plain_dealer_table(
    up: int, h17_from: int
) -> tuple[list[int], list[int], list[float], list[int]]:
    """The trie as the Python loops built it: final multisets by breadth-first walk, sorted
    by their (value, count) steps from ten down, prefixes made in that order."""
    finals: dict[tuple[int, ...], float] = {}
    frontier: dict[tuple[int, ...], float] = {(0,) * 10: 1.0}
    while frontier:
        nxt: dict[tuple[int, ...], float] = {}
        for key, ways in frontier.items():
            for v in range(10):
                t = tuple(m + (u == v) for u, m in enumerate(key))
                total, soft = _dealer_total(up, t)
                into = nxt if dealer_draws(total, soft, 1 + sum(t), h17_from) else finals
                into[t] = into.get(t, 0.0) + ways
        frontier = nxt
    nodes: dict[tuple[tuple[int, int], ...], int] = {(): -1}
    parent: list[int] = []
    fac: list[int] = []
    ways_out: list[float] = []
    bucket: list[int] = []
    steps_of = {k: tuple((v, k[v]) for v in range(9, -1, -1) if k[v]) for k in finals}
    for key in sorted(finals, key=lambda k: steps_of[k]):
        steps, n = steps_of[key], sum(key)
        total, _ = _dealer_total(up, key)
        code = BLACKJACK if n == 1 and total == 21 else BUST if total > 21 else total - 17
        for j in range(1, len(steps) + 1):
            if steps[:j] not in nodes:
                nodes[steps[:j]] = len(parent)
                parent.append(nodes[steps[: j - 1]])
                fac.append(steps[j - 1][0] * MAX_RUN + steps[j - 1][1])
                ways_out.append(0.0)
                bucket.append(-1)
        ways_out[nodes[steps]] = finals[key]
        bucket[nodes[steps]] = n * 7 + code
    return parent, fac, ways_out, bucket


@pytest.mark.parametrize("h17_from", [0, 2, 3, 4])  # S17, H17, H17 with 3 or 4 cards or more
def test_the_dealer_tables_are_the_plain_walks_node_for_node(h17_from: int) -> None:
    for up in range(10):
        t = _built(dealer_table)(up, h17_from)
        parent, fac, ways, bucket = _plain_dealer_table(up, h17_from)
        assert t.parent.tolist() == parent and t.fac.tolist() == fac, up
        assert t.ways.tolist() == ways and t.bucket.tolist() == bucket, up
        assert t.finals == sum(b >= 0 for b in bucket)
        assert t.parent.dtype == t.fac.dtype == t.bucket.dtype == np.int64
        assert t.ways.dtype == np.float64


def _plain_nodes(decks: int) -> list[tuple[int, ...]]:
    limit = fresh_counts(decks)
    found: list[tuple[int, ...]] = []

    def grow(start: int, counts: list[int], hard: int) -> None:
        for v in range(start, 10):
            if hard + v + 1 <= 21 and counts[v] < limit[v]:
                counts[v] += 1
                found.append(tuple(counts))
                grow(v, counts, hard + v + 1)
                counts[v] -= 1

    grow(0, [0] * 10, 0)
    return found


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_the_player_hands_are_the_plain_depth_first_walks(decks: int) -> None:
    nodes = _built(player_nodes)(decks)
    found = _plain_nodes(decks)
    assert [tuple(r) for r in nodes.counts.tolist()] == found
    assert list(nodes.index) == found and all(nodes.index[k] == i for i, k in enumerate(found))
    for i, key in enumerate(found):
        total, soft = best_total(sum((v + 1) * m for v, m in enumerate(key)), key[ACE])
        assert (nodes.total[i], bool(nodes.soft[i])) == (total, soft)
        assert nodes.group[i] == GROUP_OF[(soft, total)]
        for v in range(10):
            k = tuple(m + (u == v) for u, m in enumerate(key))
            assert nodes.child[i, v] == nodes.index.get(k, -1)
    assert nodes.order.tolist() == sorted(range(len(found)), key=lambda i: nodes.group[i])
    for arr in (nodes.counts, nodes.hard, nodes.total, nodes.child, nodes.order, nodes.bounds):
        assert arr.dtype == np.int64


@pytest.mark.parametrize(
    ("decks", "most"), [(1, (2,) * 10), (2, (2, 4, 4, 4, 4, 4, 4, 4, 4, 1)), (6, (16,) * 10)]
)
def test_the_removed_sets_are_the_plain_loops_row_for_row(
    decks: int, most: tuple[int, ...]
) -> None:
    nodes = player_nodes(decks)
    index = dict(nodes.index)
    keys = [tuple(r) for r in nodes.counts.tolist()]
    where = np.full((10, max(*most, 2), nodes.size), -1, dtype=np.int64)
    where[:, 0, :] = np.arange(nodes.size)
    for p in range(10):
        for j in range(1, most[p]):
            for i in np.nonzero(nodes.counts[:, p] >= 1)[0]:
                t = tuple(m + j * (v == p) for v, m in enumerate(keys[i]))
                if t not in index:
                    index[t] = len(keys)
                    keys.append(t)
                where[p, j, i] = index[t]
    got = _built(removed_sets)(decks, most)
    assert [tuple(r) for r in got.keys.tolist()] == keys
    assert np.array_equal(got.where, where) and got.where.dtype == np.int64


def test_the_tables_without_busting_hands_keep_every_parent() -> None:
    for up in range(10):
        t, s = dealer_table(up, False), standing_table(up, False)
        assert s.finals == int(((t.bucket >= 0) & (t.bucket % 7 != BUST)).sum())
        assert ((s.parent < np.arange(s.parent.size)) | (s.parent == -1)).all()


def _atoms(decks: int, pair: int, up: int) -> tuple[Atoms, IntArray]:
    """A split hand's atoms played by the optimum over the full shoe, and the shoe the pair
    draws from (the up card and the two pair cards out)."""
    from twentyone import load_rules
    from twentyone.analysis.context import Context
    from twentyone.analysis.optimal import optimal_solved

    ctx = Context.of(load_rules(f"{decks}D S17 DAS SPL1 NS"))
    atoms = split_atoms(ctx.nodes, optimal_solved(ctx, up).dec, pair, aces=pair == ACE)
    shoe = ctx.fresh()
    shoe[up] -= 1
    shoe[pair] -= 2
    return atoms, shoe


def test_the_pair_rows_number_each_set_where_first_met_and_survive_growing() -> None:
    slots = np.full(2 * 4, FREE, dtype=np.int64)  # tiny: grown several times on the way
    cards = np.zeros(20, dtype=np.int64)  # room for two sets' counts
    seen: dict[tuple[int, ...], int] = {}
    count = 0
    for pair, up in ((7, 6), (2, 6), (ACE, 6), (7, 6)):  # the last: every set known
        atoms, _ = _atoms(1, pair, up)
        out = np.zeros(10, dtype=np.int64)
        out[pair] = 2
        before = count
        row, slots, cards, count = pair_rows_kernel(atoms.drawn, out, slots, cards, count)
        want = []
        d = atoms.drawn.tolist()
        for a in range(len(d)):
            for b in range(a, len(d)):
                key = tuple(x + y + z for x, y, z in zip(d[a], d[b], out.tolist(), strict=True))
                want.append(seen.setdefault(key, len(seen)))
        assert row.tolist() == want and count == len(seen)
        new = list(seen)[before:]  # the sets met in this call, in order
        assert [tuple(r) for r in cards[: 10 * len(new)].reshape(-1, 10).tolist()] == new
    assert 4 * count <= slots.shape[0]  # at most half full
    # the sets as keys: the same rows, and new ones numbered on
    more = [(1,) * 10, next(iter(seen))]
    keys = np.array([sum(c * KEY_BASE ** (9 - v) for v, c in enumerate(k)) for k in more])
    row, slots, cards, count2 = key_rows_kernel(keys, slots, cards, count)
    assert row.tolist() == [count, 0] and count2 == count + 1
    assert cards[:10].tolist() == [1] * 10


def _per_pair(
    shoe: IntArray, drawn: IntArray, weight: FloatArray, row_of_pair: Any, rows: FloatArray
) -> FloatArray:
    """The joint as the kernel computed it before, in Python: each pair's chance by its own
    product of falling factorials."""
    n0, size = int(shoe.sum()), drawn.sum(axis=1).tolist()
    top = 2 * max(size) + 1
    ff: list[list[float]] = []
    for v in range(10):
        ff.append([])
        x = 1.0
        for j in range(top):
            ff[v].append(x)
            x *= max(int(shoe[v]) - j, 0)
    inv, x = [], 1.0
    for j in range(top):
        inv.append(1.0 / x if x > 0 else 0.0)
        x *= max(n0 - j, 0)
    states = [[(s, w) for s, w in enumerate(ws) if w != 0.0] for ws in weight.tolist()]
    d, r_of = drawn.tolist(), row_of_pair.tolist()
    joint = np.zeros((STATES, STATES, 7))
    j = 0
    for a in range(len(d)):
        for b in range(a, len(d)):
            f = inv[size[a] + size[b]] * (2.0 if b != a else 1.0)
            for v in range(10):
                f *= ff[v][d[a][v] + d[b][v]]
            if f != 0.0:
                dealer = rows[r_of[j]].tolist()
                for s1, w1 in states[a]:
                    for s2, w2 in states[b]:
                        g = f * w1 * w2
                        for o in range(7):
                            joint[s1, s2, o] += g * dealer[o]
            j += 1
    return joint


@pytest.mark.parametrize(("decks", "pair", "up"), [(1, 7, 6), (1, 2, 1), (6, 0, 9)])
def test_the_joint_takes_each_sets_chance_once_bit_for_bit(decks: int, pair: int, up: int) -> None:
    atoms, shoe = _atoms(decks, pair, up)
    out = np.zeros(10, dtype=np.int64)
    out[pair] = 2
    rows = DealerRows(shoe + out, up, False)
    row = rows.pair_rows(atoms, out)
    got = accumulate_kernel(shoe, atoms.drawn, atoms.weight, row, rows.rows)
    want = _per_pair(shoe, atoms.drawn, atoms.weight, row, rows.rows)
    assert np.array_equal(got, want) and got.any()
    assert np.array_equal(pair_joint(shoe, atoms, DealerRows(shoe + out, up, False), out), got)


@pytest.mark.parametrize("rules", ["1D S17 DAS SPL1 NS", "6D H17 NDAS SPL3 LS"])
def test_a_splits_atoms_are_those_of_a_solve_of_its_own(rules: str) -> None:
    """The exact distribution reads a split's decisions off the split value's table (solved
    only where a split hand reaches): the atoms are those of the table and solve it made for
    itself before."""
    from twentyone import load_rules
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.context import Context, base_table, run_solve
    from twentyone.analysis.hands import SplitPlay, split_decisions, split_needs
    from twentyone.analysis.optimal import optimal_solved
    from twentyone.analysis.player import CHART, FIXED

    ctx = Context.of(load_rules(rules))
    for up in (1, 6, 9):
        solved = optimal_solved(ctx, up)
        plays = (
            SplitPlay(FIXED, dec=(solved.dec, solved.decs)),
            SplitPlay(CHART, chart=basic_column(ctx, up).chart),
        )
        for pair in range(10):
            aces = pair == ACE and not ctx.hsa
            for play in plays:
                base = base_table(ctx, up, pair, 1, split_needs(ctx, up, pair, play))
                own = run_solve(
                    ctx, up, base, play.mode, split=True, force_stand2=aces,
                    chart=play.chart, dec=play.dec,
                )  # fmt: skip
                dec, _, kept = split_decisions(ctx, up, pair, play)
                assert all(
                    np.array_equal(x, y)
                    for x, y in zip(kept.__dict__.values(), base.__dict__.values(), strict=True)
                )
                for two in (False, True):
                    a = split_atoms(ctx.nodes, own.dec, pair, aces=aces, two_hands=two)
                    b = split_atoms(ctx.nodes, dec, pair, aces=aces, two_hands=two)
                    assert np.array_equal(a.drawn, b.drawn), (up, pair, play.mode)
                    assert np.array_equal(a.weight, b.weight), (up, pair, play.mode)


def _plain_atom_weights(
    nodes: Any, one: int, pair: int, dec: IntArray, aces: bool, two_hands: bool
) -> FloatArray:
    """The weights as the kernel made them before: every hand of each size, in index order."""
    from twentyone.analysis.player import DOUBLE, STAND
    from twentyone.analysis.split_joint import BUST_STATE
    from twentyone.analysis.variance import hand_state

    ways = [0.0] * nodes.size
    ways[one] = 1.0
    w = np.zeros((nodes.size, STATES))
    for size in range(1, int(nodes.ncards.max()) + 1):
        for i in range(nodes.size):
            if nodes.ncards[i] != size or ways[i] == 0.0:
                continue
            t = int(nodes.total[i])
            if size >= 2 and (t == 21 or (size == 2 and aces) or dec[i] == STAND):
                w[i, hand_state(t)] += ways[i]
                continue
            part = 1 if (size == 2 and dec[i] == DOUBLE) else 0
            w[i, part * 7 + BUST_STATE] += ways[i]
            for v in range(10):
                c = int(nodes.child[i, v])
                if c >= 0:
                    w[c, part * 7 + BUST_STATE] -= ways[i]
                    if part == 1:
                        w[c, 7 + hand_state(int(nodes.total[c]))] += ways[i]
                    elif not (size == 1 and two_hands and v == pair):
                        ways[c] += ways[i]
    return w


def test_the_atoms_weights_walk_only_the_hands_reached_and_sum_the_same() -> None:
    from twentyone.analysis.split_joint import atom_weights

    nodes = player_nodes(2)
    rng = np.random.default_rng(7)
    for pair in (0, 1, 5, 7, 9):
        one = nodes.index[tuple(int(v == pair) for v in range(10))]
        for _ in range(3):
            dec = rng.integers(0, 3, nodes.size).astype(np.int64)  # STAND, HIT or DOUBLE
            for aces, two in ((False, False), (False, True), (pair == ACE, True)):
                got = atom_weights(nodes, dec, pair, aces=aces, two_hands=two)
                want = _plain_atom_weights(nodes, one, pair, dec, aces, two)
                assert np.array_equal(got, want), (pair, aces, two)


def _plain_hand_distributions(args: tuple[Any, ...]) -> tuple[FloatArray, ...]:
    """The hands' distributions as the kernel made them before: a row of every hand for each
    of stand, hit and double."""
    (comp_base, counts, total, ncards, child, order, bounds, mask, valid, nb, pbj, push, bj,
     peek, f1, f2, dec, force_stand2, size, off) = args  # fmt: skip
    from twentyone.analysis.player import DOUBLE, HIT

    n = counts.shape[0]
    stand, hit, dbl, played = (np.zeros((n, size)) for _ in range(4))
    l1, l2 = int(2.0 * f1 + 0.5), int(2.0 * f2 + 0.5)
    for j in range(int(bounds[-1])):
        i = int(order[j])
        if not mask[i] or not valid[i]:
            continue
        comp = comp_base - counts[i]
        nn = int(comp.sum())
        t = int(total[i])
        rest = 1.0 - push[i] - pbj[i]
        stand[i, off + 2] += (rest + nb[i]) / 2.0
        stand[i, off - 2] += (rest - nb[i]) / 2.0
        stand[i, off] += push[i]
        if not peek:
            stand[i, off - l1] += pbj[i]
        if t < 21:
            for v in range(10):
                if comp[v] == 0:
                    continue
                p = comp[v] / nn
                c = int(child[i, v])
                if c < 0:
                    keep = 1.0
                    if peek and bj >= 0:
                        keep = 1.0 - (comp[bj] - (1 if v == bj else 0)) / (nn - 1.0)
                    hit[i, off - 2] += p * keep
                    dbl[i, off - 4] += p * keep
                else:
                    for k in range(size):
                        hit[i, k] += p * played[c, k]
                    rc = 1.0 - push[c] - pbj[c]
                    dbl[i, off + 4] += p * (rc + nb[c]) / 2.0
                    dbl[i, off - 4] += p * (rc - nb[c]) / 2.0
                    dbl[i, off] += p * push[c]
                    if not peek:
                        dbl[i, off - l2] += p * pbj[c]
        plays = t < 21 and not (ncards[i] == 2 and force_stand2)
        a = dec[i]
        src = (
            hit
            if plays and a == HIT
            else dbl
            if plays and a == DOUBLE and ncards[i] == 2
            else stand
        )
        played[i] = src[i]
    return stand, hit, dbl, played


@pytest.mark.parametrize(("rules", "up"), [("1D S17 DAS SPL1 NS", 6), ("1D H17 NDAS SPL1 LS", 0)])
def test_the_hands_distributions_keep_the_two_card_rows_bit_for_bit(rules: str, up: int) -> None:
    from twentyone import load_rules
    from twentyone.analysis.context import Context, up_base
    from twentyone.analysis.dealer import blackjack_card
    from twentyone.analysis.grid import Grid
    from twentyone.analysis.optimal import optimal_solved
    from twentyone.analysis.outcomes import hand_distributions

    ctx = Context.of(load_rules(rules))
    nodes, grid, base = ctx.nodes, Grid(ctx), up_base(ctx, up)
    args = (
        base.comp, nodes.counts, nodes.total, nodes.ncards, nodes.child, nodes.order,
        nodes.bounds, base.mask, base.valid, base.nb, base.pbj, base.push, blackjack_card(up),
        ctx.peek, ctx.f1, ctx.f2, optimal_solved(ctx, up).dec, False, grid.size, grid.off,
    )  # fmt: skip
    from twentyone.analysis.outcomes import DistRules

    stand, hit, dbl, played, two = hand_distributions(
        base.comp,
        nodes.table,
        base.mask & base.valid,
        base.stand,
        DistRules(blackjack_card(up), ctx.peek, ctx.f1, ctx.f2, False),
        optimal_solved(ctx, up).dec,
        grid.size,
        grid.off,
    )
    want = _plain_hand_distributions(args)
    assert np.array_equal(played, want[3])
    pairs = np.nonzero(nodes.ncards == 2)[0]
    assert (two[pairs] == np.arange(pairs.size)).all() and (two[nodes.ncards != 2] == -1).all()
    for got, plain in zip((stand, hit, dbl), want[:3], strict=True):
        assert np.array_equal(got[two[pairs]], plain[pairs])


def test_a_chart_and_the_optimum_playing_a_split_alike_share_its_tables() -> None:
    """``hands.play_key``: the chart's split tables are made from its decisions in the fixed
    mode and shared with the optimum where the two play the split hands alike; every table
    so made is the one its own mode makes, array for array, bit for bit."""
    from twentyone import load_rules
    from twentyone.analysis import hands
    from twentyone.analysis.basic import basic_column
    from twentyone.analysis.context import Context
    from twentyone.analysis.optimal import optimal_solved
    from twentyone.analysis.player import CHART, FIXED

    ctx = Context.of(load_rules("2D H17 DAS SPL3 LS"), 1, None)
    same = differ = 0
    for up in (0, 5, 9):
        solved = optimal_solved(ctx, up)
        plays = (
            hands.SplitPlay(mode=CHART, chart=basic_column(ctx, up).chart),
            hands.SplitPlay(mode=FIXED, dec=(solved.dec, solved.decs)),
        )
        for pair in (0, 1, 5, 7, 9):
            keys = [hands.play_key(ctx, pair, play) for play in plays]
            same += keys[0] == keys[1]
            differ += keys[0] != keys[1]
            for play in plays:
                for k in (2, 3):
                    kept = hands.split_table(ctx, up, pair, play, k)
                    own = hands._make_split_table(ctx, up, pair, play, k)
                    arrays = [
                        (getattr(kept.base, f.name), getattr(own.base, f.name))
                        for f in dataclasses.fields(own.base)
                    ]
                    arrays += [*zip(kept.solved, own.solved, strict=True)]
                    arrays.append((kept.reach, own.reach))
                    for x, y in arrays:
                        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
    assert same > 0 and differ > 0


def test_the_kept_split_values_hold_a_few_shoes_and_the_same_bits() -> None:
    from twentyone.analysis import analyze, clear_caches, hands, shoe_of
    from twentyone.engine.rulesets import load_rules

    rules = load_rules("6D S17 DAS SPL3 NS")
    kept = hands._kept_by_context
    limit = kept.cache_parameters()["maxsize"]
    reports = []
    for k in range(limit + 4):  # more shoes than are kept
        shoe = list(shoe_of(rules, remove="5 5 6"))
        shoe[k % 9] -= 1
        reports.append((shoe, analyze(rules, shoe=shoe, outcomes=False)))
        assert kept.cache_info().currsize <= limit
    assert kept.cache_info().currsize == limit  # every shoe's values went there, the last kept
    shoe, first = reports[0]  # its values forgotten by now: the same bits again
    again = analyze(rules, shoe=shoe, outcomes=False)
    clear_caches()
    fresh = analyze(rules, shoe=shoe, outcomes=False)
    assert again.ev_optimal == first.ev_optimal == fresh.ev_optimal
    assert again.ev_basic == first.ev_basic == fresh.ev_basic
