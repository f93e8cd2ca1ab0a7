"""A PettingZoo AEC environment: several players at one table, each on one box, answering the
round's questions in table order (box by box, as the engine asks them: insurance and even
money, the ro.11 surrender question, then each hand).

One episode is one round. The agent to act is the owner of the box the round asks about
(:attr:`twentyone.engine.round.Round.question`); a round settled at the deal with no question asks
``player_0`` for ``next`` (action 8). Every player's reward, paid when the round ends, is its
net in initial bets, and ``infos[agent]["replay"]`` holds the round's replay JSON. An action
outside the mask raises :class:`~twentyone.engine.errors.IllegalActionError` (PettingZoo's own test
and its wrappers sample from the mask).

Observations are ``{"observation": int64[18], "action_mask": int8[12]}``; ``observation`` is
``phase, total, soft, pair, aces, twos, ..., tens, up, split, box, insured``: the agent's hand
being asked about (its first hand while it waits), the dealer's up card and the phase; at a
switch table ten more, the cards of the pair's other box by value, and where a doubled hand is
asked again (``Rules.redoubles``, ``Rules.rescue``) one more, how many times the hand doubled.

At a switch table (``Rules.switch``) each player plays a switch pair, two boxes (boxes 1 and 2
are ``player_0``'s, 3 and 4 ``player_1``'s...), and answers its pair's switch question.

>>> env = TableEnv("pt-casino", 3)
>>> env.reset(seed=1)
>>> env.agent_selection in env.agents, sorted(env.observe(env.agent_selection))
(True, ['action_mask', 'observation'])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from twentyone.engine.errors import IllegalActionError, RulesError
from twentyone.engine.hands import BoxBet
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import Shoe
from twentyone.gym.core import (
    BET,
    NEXT,
    P_SETTLED,
    PHASES,
    asks_doubled,
    decision_for,
    legal_actions,
    observation,
    phase_of,
)


class TableEnv(AECEnv):  # type: ignore[misc]
    """``players`` players (``player_0`` ... in table order) at a table of ``rules``."""

    metadata = {  # noqa: RUF012 (PettingZoo's)
        "render_modes": ["ansi"],
        "name": "twentyone_table_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "pt-casino",
        players: int = 3,
        *,
        bet: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = load_rules(rules)
        #: each player's boxes: one, or a switch pair at a switch table
        self.boxes_each = 2 if self.rules.switch else 1
        most = self.rules.table_boxes // self.boxes_each
        if not 1 <= players <= most:
            raise RulesError("gym-players", players=players, most=most, table=self.rules.name)
        if render_mode not in (None, "ansi"):
            raise RulesError(
                "not-one-of", field="render_mode", value=render_mode, choices="None, 'ansi'"
            )
        self.render_mode = render_mode
        self.bet = int(bet) if bet is not None else self.rules.table_min
        self.possible_agents = [f"player_{i}" for i in range(players)]
        last_box = players * self.boxes_each - 1
        high = [len(PHASES) - 1, 31, 1, 10, *([21] * 10), 10, 1, last_box, 1]
        if self.rules.switch:
            high += [21] * 10  # the partner box's cards
        if asks_doubled(self.rules):
            high.append(self.rules.redoubles + 1)  # how many times the hand doubled
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, np.array(high, dtype=np.int64), shape=(len(high),), dtype=np.int64
                ),
                "action_mask": spaces.Box(0, 1, shape=(BET,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(BET)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self.shoe: Shoe | None = None
        self.round: Round | None = None
        self._pending_next = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new round; ``seed`` starts a new, seeded shoe, otherwise the shoe goes on."""
        if seed is not None or self.shoe is None:
            self.shoe = Shoe.for_rules(
                self.rules, seed=int(np.random.default_rng(seed).integers(2**62))
            )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        bets = [BoxBet(a, self.bet) for a in self.agents for _ in range(self.boxes_each)]
        self.round = Round(self.rules, self.shoe, bets)
        self._pending_next = self.round.is_over
        self.agent_selection = self._to_act()

    def _to_act(self) -> str:
        assert self.round is not None
        q = self.round.question
        return self.round.boxes[q.box].player if q is not None else self.possible_agents[0]

    def _legal(self, agent: str) -> list[int]:
        rnd = self.round
        if rnd is None or self.terminations.get(agent, True) or agent != self._to_act():
            return []
        if rnd.question is None:
            return [NEXT] if self._pending_next else []
        return legal_actions(rnd.question)

    def observe(self, agent: str) -> dict[str, Any]:
        rnd = self.round
        assert rnd is not None
        first = self.possible_agents.index(agent) * self.boxes_each
        q = rnd.question
        mine = q is not None and rnd.boxes[q.box].player == agent
        phase = phase_of(q) if mine else P_SETTLED
        # waiting or done: the agent's first hand and the up card
        obs = observation(rnd, self.rules, phase, None, None, (first, 0), follow_question=mine)
        row = [
            obs["phase"],
            obs["total"],
            obs["soft"],
            obs["pair"],
            *obs["cards"],
            obs["up"],
            obs["split"],
            obs["box"],
            obs["insured"],
        ]
        row += [*obs.get("partner", ()), *([obs["doubles"]] if "doubles" in obs else [])]
        vec = np.array(row, dtype=np.int64)
        mask = np.zeros(BET, dtype=np.int8)
        mask[self._legal(agent)] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rnd = self.round
        assert rnd is not None and action is not None
        a = int(action)
        self._cumulative_rewards[agent] = 0.0
        if rnd.question is None:
            if a != NEXT:
                raise IllegalActionError("action-settled", action=a)
        else:
            rnd.apply(decision_for(rnd.question, a))
        if rnd.is_over:
            replay = self.round_replay
            net = rnd.net()
            for ag in self.agents:
                self.rewards[ag] = net[ag] / self.bet
                self.terminations[ag] = True
                self.infos[ag] = {"replay": replay, "net": net[ag]}
            self._pending_next = False
        else:
            self.agent_selection = self._to_act()
        self._accumulate_rewards()

    @property
    def round_replay(self) -> dict[str, Any]:
        """The current round's replay JSON (``twentyone replay`` reproduces it)."""
        assert self.round is not None
        return round_to_replay(self.round)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.round is None:
            return None
        rnd = self.round
        lines = [f"{self.rules.name} dealer: {' '.join(str(c) for c in rnd.dealer_visible)}"]
        for box in rnd.boxes:
            hands = " | ".join(" ".join(str(c) for c in h.cards) for h in box.hands)
            lines.append(f"  {box.player}: {hands}")
        if rnd.question is not None:
            lines.append(f"  asked {rnd.question.describe()}")
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["TableEnv"]
