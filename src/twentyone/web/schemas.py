"""The JSON API's request and response models (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Credentials(BaseModel):
    """A username and password, to register or log in."""

    username: str = Field(
        examples=["ann"],
        max_length=64,
        json_schema_extra={"pattern": "^[A-Za-z0-9_-]{3,24}$", "minLength": 3, "maxLength": 24},
    )
    password: str = Field(
        examples=["correct horse battery"],
        max_length=1024,
        json_schema_extra={"minLength": 8, "maxLength": 128},
    )


class Me(BaseModel):
    """The logged-in player."""

    username: str
    balance: int = Field(description="ledger balance in minor units")
    starting_balance: int
    table: str | None = Field(description="the table the player is seated at")
    language: str | None = Field(
        default=None, description="the page's language the player chose (null: none chosen)"
    )


class Limits(BaseModel):
    """Table limits per box, minor units."""

    min: int
    max: int


class RuleSection(BaseModel):
    """A section of a table's rule card: its title and its sentences."""

    title: str
    lines: list[str]


class TableOut(BaseModel):
    """A table of the lobby."""

    id: str
    name: str = Field(description="the table's name (its house's, from the rules file)")
    country: str | None = Field(
        default=None, description="the house's country, ISO 3166-1 alpha-2 (null: not given)"
    )
    house: str | None = Field(
        default=None,
        description="the house whose rules the table deals (its rules file's [house]; null: none)",
    )
    rules: str
    rule_card: str = Field(description="the rule card as plain text")
    rule_sections: list[RuleSection] = Field(
        default_factory=list, description="the rule card as titled sections, for a panel"
    )
    limits: Limits
    boxes: int
    boxes_per_player: int
    free_boxes: int
    players: list[str]
    multi_player: bool
    side_bets: list[dict[str, Any]] = Field(
        description="the side bets a player may stake: id, kind, title, lines (title, pays)"
    )
    house_edge: float | None = Field(description="house edge for basic strategy, or null")
    house_edge_text: str
    default_action: str
    countdown_seconds: float | None
    decision_seconds: float
    language: str | None = Field(
        default=None, description="the page's language at this table unless the player chose one"
    )
    node: str | None = Field(
        default=None,
        description="on a cluster, the node dealing the table (null: none at the moment, or "
        "not a cluster); its socket is reached at /n/NODE/ws/tables/ID through the proxy",
    )


class RoundRecord(BaseModel):
    """A finished round of the player, with its replay JSON and result."""

    id: int = Field(description="the database's id (for GET /api/rounds/{id}), not shown")
    number: int = Field(description="the round's number at its table, counted from 1")
    table: str
    rules: str
    started_at: str
    finished_at: str | None
    status: str = Field(description="settled, or refunded after a restart")
    staked: int
    net: int
    replay: dict[str, Any]
    result: dict[str, Any] | None
    decided_by_clock: list[int]
    steps: list[dict[str, Any]] = Field(
        default_factory=list,
        description="each decision with its kind, player, box and hand (from 0, the round's "
        "order), the hand's and the dealer's cards when asked",
    )


class Stats(BaseModel):
    """A player's statistics over every settled round (minor units for money)."""

    rounds: int
    hands: int
    won: int
    pushed: int
    lost: int
    blackjacks: int
    staked: int
    net: int
    best: int | None = Field(description="the best round's net (null before the first round)")
    worst: int | None = Field(description="the worst round's net")
