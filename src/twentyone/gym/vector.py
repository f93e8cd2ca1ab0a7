"""``gymnasium.make_vec("twentyone/Blackjack-v0", num_envs=N, rules=...)``: N environments
stepped together by one numba kernel (:mod:`twentyone.gym.vector_kernel`), not N Python
environments.

Each environment plays one box of the rules, one round an episode, with the single
environment's actions, observation and rewards (:mod:`twentyone.gym.env`).
``infos["action_mask"]`` has shape ``(N, actions)``. A finished round's reward comes with
``terminations[i]`` and the next episode's first observation in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``); an action outside the mask is refused (nothing changes,
``infos["illegal_action"][i]`` is ``True``). Not here: several boxes, ``episode="shoe"``,
``observe`` and ``ev_loss`` (use the single environment for those).

>>> import gymnasium, twentyone.gym
>>> envs = gymnasium.make_vec("twentyone/Blackjack-v0", num_envs=4, rules="ru-online")
>>> obs, infos = envs.reset(seed=0)
>>> obs["total"].shape, infos["action_mask"].shape
((4,), (4, 12))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from twentyone.engine.cards import Card
from twentyone.engine.errors import RulesError
from twentyone.engine.rules import Rules
from twentyone.gym.core import BET, asks_doubled
from twentyone.gym.env import observation_space, parse_rules
from twentyone.gym.vector_kernel import vec_reset, vec_step
from twentyone.gym.vector_state import (
    D_DONE_N,
    D_NREC,
    D_SIZE,
    OBS,
    Q_BJ_AT_ONCE,
    Q_EVEN_MONEY,
    Q_INS_ACE,
    Q_INS_TEN,
    Q_SIZE,
    EnvArrays,
    StepOut,
    Tables,
)
from twentyone.sim.encode import (
    MAX_HANDS,
    encode_rules,
    index_card,
    max_cards,
    refuse_switch,
    shoe_indices,
)
from twentyone.sim.hands import H_FIELDS

_FIELDS = (("phase", 0), ("total", 1), ("soft", 2), ("pair", 3))
_TAIL = (("up", 14), ("split", 15), ("box", 16), ("insured", 17))


def encode_questions(rules: Rules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The side questions' parameters (``Q_*``) the simulator's vector leaves out.

    >>> from twentyone import load_rules
    >>> [int(x) for x in encode_questions(load_rules("ru-online"))]
    [1, 1, 0, 1]
    """
    q = np.zeros(Q_SIZE, dtype=np.int64)
    q[Q_INS_ACE] = "A" in rules.insurance_upcards
    q[Q_INS_TEN] = "T" in rules.insurance_upcards
    q[Q_EVEN_MONEY] = rules.even_money
    q[Q_BJ_AT_ONCE] = rules.blackjack_paid_at_once
    return q


class BlackjackVectorEnv(VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` rounds of ``rules`` at once (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        num_envs: int = 1,
        rules: Rules | str = "ru-online",
        boxes: int = 1,
        *,
        bet_levels: Sequence[int] | None = None,
        episode: str = "round",
        observe: str | None = None,
        ev_loss: bool = False,
        bet: int | None = None,
        render_mode: str | None = None,
        max_episode_steps: int | None = None,
    ) -> None:
        self.rules = parse_rules(rules)
        if boxes != 1 or episode != "round" or observe is not None or ev_loss:
            raise RulesError(
                "gym-vector-only", boxes=boxes, episode=episode, observe=observe, ev_loss=ev_loss
            )
        if num_envs < 1:
            raise RulesError("at-least", field="num_envs", value=num_envs, least=1)
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.bet = int(bet) if bet is not None else self.rules.table_min
        self.levels = np.array([int(x) for x in (bet_levels or ())], dtype=np.int64)
        if (self.levels < 1).any():
            raise RulesError("bad-bet-levels", levels=list(bet_levels or ()))
        self.n_actions = BET + len(self.levels)
        self.single_action_space = spaces.Discrete(self.n_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.n_actions))
        self.single_observation_space = observation_space(self.rules, 1, None)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        refuse_switch(self.rules, "the gym's vectorized environment")  # one box, no pair
        self._p, self._f = encode_rules(self.rules)
        self._q = encode_questions(self.rules)
        self._hm = MAX_HANDS if self.rules.hand_limit is None else self.rules.hand_limit
        width = max_cards(self.rules, 1)
        n = num_envs
        self._shoe = np.tile(shoe_indices(self.rules.decks, self.rules.deck), (n, 1))
        self._pos = np.zeros(n, dtype=np.int64)
        self._rng = np.ones((n, 4), dtype=np.uint64)
        self._d = np.zeros((n, D_SIZE), dtype=np.int64)
        self._money = np.zeros(n, dtype=np.float64)
        self._hands = np.zeros((n * self._hm, H_FIELDS), dtype=np.int64)
        self._hc = np.zeros((n * self._hm, 10), dtype=np.int64)
        self._nh = np.zeros(n, dtype=np.int64)
        self._rec = np.zeros((n, width), dtype=np.uint8)
        self._done = np.zeros((n, width), dtype=np.uint8)
        self._mask = np.zeros((n, self.n_actions), dtype=np.int8)
        self._obs = np.zeros((n, OBS), dtype=np.int64)
        self._reward = np.zeros(n, dtype=np.float64)
        self._term = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._seeded = False
        self._asks_doubled = asks_doubled(self.rules)  # the observation's ``doubles``

    def _state(self) -> tuple[Tables, EnvArrays, StepOut]:
        """The kernel's arguments: the same arrays every call (numba named tuples)."""
        tables = Tables(self._p, self._f, self._q)
        arrays = EnvArrays(
            self._shoe, self._pos, self._rng, self._d, self._money, self._hands, self._hc,
            self._nh, self._rec, self._done,
        )  # fmt: skip
        out = StepOut(self._mask, self._obs, self._reward, self._term, self._illegal)
        return tables, arrays, out

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Fresh shoes and a first episode in every environment; ``seed`` (an integer)
        reproduces every card and every step."""
        if isinstance(seed, list):
            seed = seed[0]
        if seed is not None or not self._seeded:
            gen = np.random.default_rng(seed)
            self._rng[:] = gen.integers(1, 2**63, size=self._rng.shape, dtype=np.uint64)
            self._seeded = True
        tables, arrays, out = self._state()
        vec_reset(tables, arrays, self._hm, len(self.levels), out)
        return self._observation(), {"action_mask": self._mask.copy()}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """One step of every environment (``actions``: one action number each)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        tables, arrays, out = self._state()
        vec_step(tables, arrays, self._hm, self.levels, acts, out)
        infos = {"action_mask": self._mask.copy(), "illegal_action": self._illegal.copy()}
        return (
            self._observation(),
            self._reward.copy(),
            self._term.copy(),
            np.zeros(self.num_envs, dtype=np.bool_),
            infos,
        )

    def _observation(self) -> dict[str, Any]:
        o = self._obs.copy()
        out: dict[str, Any] = {name: o[:, k] for name, k in _FIELDS}
        out["cards"] = o[:, 4:14]
        out.update({name: o[:, k] for name, k in _TAIL})
        if self._asks_doubled:
            out["doubles"] = o[:, 18]
        return out

    def last_round_cards(self, i: int) -> list[Card]:
        """The cards of environment ``i``'s last finished round, in the order they left the
        shoe (a :class:`~twentyone.engine.shoe.StackedShoe` of them replays it in the engine)."""
        n = int(self._d[i, D_DONE_N])
        return [index_card(int(c)) for c in self._done[i, :n]]

    def current_round_cards(self, i: int) -> list[Card]:
        """The cards dealt so far in environment ``i``'s current round."""
        n = int(self._d[i, D_NREC])
        return [index_card(int(c)) for c in self._rec[i, :n]]
