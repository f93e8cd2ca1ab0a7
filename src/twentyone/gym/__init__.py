"""Reinforcement-learning environments on the engine's real rules (the ``rl`` extra).

Importing this package registers ``twentyone/Blackjack-v0`` with Gymnasium (its vectorized
form, :func:`gymnasium.make_vec`, runs a numba kernel: :mod:`twentyone.gym.vector`);
:func:`table_env` makes the PettingZoo table of several players.

>>> import gymnasium
>>> import twentyone.gym
>>> env = gymnasium.make("twentyone/Blackjack-v0", rules="ru-online", ev_loss=False)
>>> obs, info = env.reset(seed=7)
>>> int(info["action_mask"].sum()) >= 1
True
"""

from __future__ import annotations

from typing import Any

import gymnasium

from twentyone.gym.core import ACTIONS, PHASES
from twentyone.gym.env import BlackjackEnv

ENV_ID = "twentyone/Blackjack-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="twentyone.gym.env:BlackjackEnv",
        vector_entry_point="twentyone.gym.vector:BlackjackVectorEnv",
    )


def table_env(rules: str = "pt-casino", players: int = 3, **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of ``players`` players at one table (see
    :mod:`twentyone.gym.table`)."""
    from twentyone.gym.table import TableEnv

    return TableEnv(rules, players, **kwargs)


__all__ = ["ACTIONS", "ENV_ID", "PHASES", "BlackjackEnv", "table_env"]
