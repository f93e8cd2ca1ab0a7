"""``twentyone/Blackjack-v0``: the engine's rounds as a Gymnasium environment.

One episode is one round (``episode="shoe"``: every round until the cut card is out). The
agent answers every question the round asks (:mod:`twentyone.gym.core` numbers the actions);
``info["action_mask"]`` marks the open ones at every step. The reward is the round's net in
initial bets, paid on the step that ends the round; the episode's rewards add up to the
round's net exactly as ``twentyone replay`` prints it for ``info["replay"]``.

An action that is not open is refused (Gymnasium leaves illegal actions to each environment;
its Taxi also lists the legal ones in ``info["action_mask"]``): the state does not change,
the reward is 0 (no penalty, so the rewards stay the round's money), the episode goes on and
``info["illegal_action"]`` is ``True``. With ``illegal="raise"`` it raises
:class:`~twentyone.engine.errors.IllegalActionError` instead.

>>> env = BlackjackEnv("ru-online", ev_loss=False)
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), info["action_mask"].shape
(['box', 'cards', 'insured', 'pair', 'phase', 'soft', 'split', 'total', 'up'], (12,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from twentyone.engine.bets import check_switch_pairs
from twentyone.engine.cards import Card, format_cards
from twentyone.engine.errors import IllegalActionError, RulesError
from twentyone.engine.hands import BoxBet
from twentyone.engine.replay import round_to_replay
from twentyone.engine.round import Round
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import Shoe
from twentyone.gym.core import (
    ACTIONS,
    BET,
    NEXT,
    P_BET,
    P_SETTLED,
    PHASES,
    action_mask,
    action_returns,
    asks_doubled,
    decision_for,
    ev_loss,
    observation,
    phase_of,
    seen_cards,
)

PLAYER = "agent"


def observation_space(rules: Rules, boxes: int, observe: str | None) -> spaces.Dict:
    """The Dict observation: ``phase`` (:data:`twentyone.gym.core.PHASES`), the hand being
    asked about (``total``, ``soft``, ``pair`` value or 0, ``cards`` as counts by value ace..ten,
    ``split``, ``box``), whether that box is ``insured`` (its stake is part of the round's
    net, so a learner needs to see it), the dealer's ``up`` card value (0 before the deal)
    and, with ``observe``, the remaining shoe's ``composition`` (counts by value) or
    ``count`` (Hi-Lo running count, cards left). At a switch table (``Rules.switch``)
    ``partner`` counts the cards of the pair's other box by value; where a doubled hand is
    asked again (``Rules.redoubles``, ``Rules.rescue``) ``doubles`` is how many times the hand
    asked about has doubled."""
    n = rules.shoe_size
    d: dict[str, spaces.Space[Any]] = {
        "phase": spaces.Discrete(len(PHASES)),
        "total": spaces.Discrete(32),
        "soft": spaces.Discrete(2),
        "pair": spaces.Discrete(11),
        "cards": spaces.Box(0, 21, shape=(10,), dtype=np.int64),
        "up": spaces.Discrete(11),
        "split": spaces.Discrete(2),
        "box": spaces.Discrete(boxes),
        "insured": spaces.Discrete(2),
    }
    if rules.switch:
        d["partner"] = spaces.Box(0, 21, shape=(10,), dtype=np.int64)
    if asks_doubled(rules):
        d["doubles"] = spaces.Discrete(rules.redoubles + 2)
    if observe == "composition":
        d["composition"] = spaces.Box(0, 16 * rules.decks, shape=(10,), dtype=np.int64)
    elif observe == "count":
        d["count"] = spaces.Box(np.array([-n, 0]), np.array([n, n]), shape=(2,), dtype=np.int64)
    elif observe is not None:
        raise RulesError(
            "not-one-of", field="observe", value=observe, choices="None, 'composition', 'count'"
        )
    return spaces.Dict(d)


def parse_rules(rules: Rules | str) -> Rules:
    """Any preset name, TOML path, shorthand or :class:`Rules`."""
    return load_rules(rules)


class BlackjackEnv(gym.Env[dict[str, Any], int]):
    """The engine's blackjack for one agent on ``boxes`` boxes (default one; two, one switch
    pair, at a switch table, which takes only an even number).

    ``rules``: a preset, TOML path, shorthand or :class:`Rules`. ``bet``: one initial bet in
    minor units (default the table minimum); rewards are in these bets. ``bet_levels``: a
    betting step before each deal, action ``12 + i`` staking ``bet_levels[i]`` bets on every
    box. ``observe``: ``"composition"`` or ``"count"`` adds the remaining shoe. ``ev_loss``:
    ``info["ev_loss"]`` after each decision (costs the exact analysis of the rules once).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        rules: Rules | str = "ru-online",
        boxes: int | None = None,
        *,
        episode: str = "round",
        observe: str | None = None,
        bet_levels: Sequence[int] | None = None,
        bet: int | None = None,
        ev_loss: bool = True,
        illegal: str = "refuse",
        render_mode: str | None = None,
    ) -> None:
        self.rules = parse_rules(rules)
        if boxes is None:
            boxes = 2 if self.rules.switch else 1  # a switch table plays boxes in pairs
        if not 1 <= boxes <= min(self.rules.boxes_per_player, self.rules.table_boxes):
            raise RulesError(
                "gym-boxes", boxes=boxes, most=self.rules.boxes_per_player, table=self.rules.name
            )
        check_switch_pairs(self.rules, [BoxBet(PLAYER, self.rules.table_min)] * boxes)
        if episode not in ("round", "shoe"):
            raise RulesError(
                "not-one-of", field="episode", value=episode, choices="'round', 'shoe'"
            )
        if episode == "shoe" and self.rules.shuffle == "continuous":
            raise RulesError("shoe-episode-continuous", table=self.rules.name)
        if illegal not in ("refuse", "raise"):
            raise RulesError(
                "not-one-of", field="illegal", value=illegal, choices="'refuse', 'raise'"
            )
        if render_mode not in (None, "ansi"):
            raise RulesError(
                "not-one-of", field="render_mode", value=render_mode, choices="None, 'ansi'"
            )
        self.boxes = boxes
        self.episode = episode
        self.observe = observe
        self.bet_levels = tuple(int(x) for x in bet_levels) if bet_levels else ()
        if any(x < 1 for x in self.bet_levels):
            raise RulesError("bad-bet-levels", levels=list(self.bet_levels))
        self.bet = int(bet) if bet is not None else self.rules.table_min
        top = max(self.bet_levels, default=1) * self.bet
        if not (self.rules.table_min <= self.bet and top <= self.rules.table_max):
            raise RulesError(
                "gym-bet", bet=self.bet, min=self.rules.table_min, max=self.rules.table_max
            )
        self.with_ev_loss = ev_loss
        self.illegal = illegal
        self.render_mode = render_mode
        self.n_actions = BET + len(self.bet_levels)
        self.action_space: spaces.Discrete = spaces.Discrete(self.n_actions)  # type: ignore[assignment]
        self.observation_space = observation_space(self.rules, boxes, observe)
        self.shoe: Shoe | None = None
        self.round: Round | None = None
        self._phase = P_SETTLED
        self._shoe_seen: list[Card] = []
        self._shuffles = -1
        self._last_at = (0, 0)
        self._pending_next = False

    # ------------------------------------------------------------------ the flow
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode; ``seed`` also starts a new shoe (seeded from the environment's
        generator, so a seed reproduces every card), otherwise the shoe goes on."""
        super().reset(seed=seed)
        if seed is not None or self.shoe is None or self.episode == "shoe":
            # a seed reproduces every card; a shoe episode starts on a fresh shoe
            self.shoe = Shoe.for_rules(self.rules, seed=int(self.np_random.integers(2**62)))
            self._shoe_seen = []
            self._shuffles = -1
        elif self.round is not None:  # the shoe goes on: the last round's cards are seen
            self._shoe_seen.extend(self.round.cards_dealt)
        self.round = None
        self._pending_next = False
        self._last_at = (0, 0)
        if self.bet_levels:
            self._phase = P_BET
        else:
            self._deal(1)
        return self._obs(), self._info({})

    def _deal(self, level: int) -> None:
        assert self.shoe is not None
        if self.round is not None:
            self._shoe_seen.extend(self.round.cards_dealt)
        bets = [BoxBet(PLAYER, self.bet * level) for _ in range(self.boxes)]
        self.round = Round(self.rules, self.shoe, bets)
        if self.shoe.shuffles != self._shuffles:
            # the shoe was shuffled before this round (or, rarely, within it)
            self._shoe_seen = []
            self._shuffles = self.shoe.shuffles
        self._phase = phase_of(self.round.question)
        self._pending_next = self.round.is_over

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Answer the current question with ``action`` (see the module's numbering)."""
        a = int(action)
        info: dict[str, Any] = {}
        if not self._open(a):
            if self.illegal == "raise":
                raise IllegalActionError(
                    "action-not-open-phase",
                    action=a,
                    phase=PHASES[self._phase],
                    open=[ACTIONS[i] if i < BET else f"bet{i - BET}" for i in self._legal()],
                )
            info["illegal_action"] = True
            return self._obs(), 0.0, False, False, self._info(info)
        reward, terminated = 0.0, False
        if self._phase == P_BET:
            self._deal(self.bet_levels[a - BET])
            if self._pending_next:  # dealt and settled at once: the bet step ends the round
                reward, terminated = self._close_round(info)
        elif a == NEXT:
            reward, terminated = self._close_round(info)
        else:
            rnd = self.round
            assert rnd is not None and rnd.question is not None
            if self.with_ev_loss:
                cut_card = self.shoe is not None and self.rules.shuffle == "cut-card"
                dealt = self.shoe.dealt() if cut_card and self.shoe is not None else None
                loss = ev_loss(action_returns(rnd, self.boxes, dealt), a)
                if loss == loss:  # known (not nan)
                    info["ev_loss"] = loss
            q = rnd.question
            self._last_at = (q.box, q.hand)
            rnd.apply(decision_for(q, a))
            self._phase = phase_of(rnd.question)
            if rnd.is_over:
                reward, terminated = self._close_round(info)
        return self._obs(), reward, terminated, False, self._info(info)

    def _close_round(self, info: dict[str, Any]) -> tuple[float, bool]:
        rnd = self.round
        assert rnd is not None and self.shoe is not None
        net = rnd.net()[PLAYER]
        info["replay"] = round_to_replay(rnd)
        info["net"] = net
        reward = net / self.bet
        if self.episode == "shoe" and not self.shoe.cut_card_out:
            info["round_over"] = True
            self._pending_next = False
            if self.bet_levels:
                self._shoe_seen.extend(rnd.cards_dealt)
                self.round = None
                self._phase = P_BET
            else:
                self._deal(1)
            return reward, False
        self._phase = P_SETTLED
        self._pending_next = False
        return reward, True

    # ------------------------------------------------------------------ views
    def _legal(self) -> list[int]:
        if self._phase == P_BET:
            return [BET + i for i in range(len(self.bet_levels))]
        if self.round is None:
            return []
        if self._phase == P_SETTLED:
            # a round dealt and settled with no question: take its result
            return [NEXT] if self._pending_next else []
        return [int(i) for i in np.flatnonzero(action_mask(self.round.question, BET))]

    def _open(self, a: int) -> bool:
        return a in self._legal()

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[self._legal()] = 1
        return mask

    def _obs(self) -> dict[str, Any]:
        seen = None
        if self.observe is not None:
            seen = list(self._shoe_seen)
            if self.round is not None:
                seen += seen_cards(self.round)
        rnd = self.round if self._phase != P_BET else None
        return observation(rnd, self.rules, self._phase, self.observe, seen, self._last_at)

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["action_mask"] = self._mask()
        return info

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): the dealer, every hand, the question."""
        if self.render_mode != "ansi":
            return None
        rnd = self.round
        if rnd is None:
            levels = ", ".join(f"{x}" for x in self.bet_levels)
            return f"{self.rules.name}: place a bet ({levels} x {self.bet})\n"
        lines = [f"{self.rules.name}  dealer: {format_cards(rnd.dealer_visible)}"]
        for box in rnd.boxes:
            for i, hand in enumerate(box.hands):
                t = hand.total
                tag = f" {hand.result}" if hand.result else ""
                lines.append(
                    f"  box {box.index + 1} hand {i + 1}: {format_cards(hand.cards)} "
                    f"({'soft ' if t.soft else ''}{t.total}) bet {hand.bet}{tag}"
                )
            if box.insurance:
                lines.append(f"  box {box.index + 1} insurance {box.insurance}")
        if rnd.question is not None:
            lines.append(f"  asked {rnd.question.describe()}")
            lines.append("  open: " + ", ".join(ACTIONS[a] for a in self._legal()))
        else:
            lines.append(f"  net {rnd.net()[PLAYER]}")
        return "\n".join(lines) + "\n"
