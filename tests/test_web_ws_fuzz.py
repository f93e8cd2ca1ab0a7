"""Random frames at the table WebSocket (issue 11, item 9): every frame gets an answer (an
error, an ack, or a view acknowledging it) or a close code, never silence, and the ledger
stays balanced."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentyone.web.ws_limits import SocketLimits
from web_support import Player, make_app, register

TYPES = ["sit", "leave", "bet", "undo", "clear", "rebet", "double-rebet", "ready", "deal"]
TYPES += ["decide", "view"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=80),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=5)
messages = st.fixed_dictionaries(
    {
        "type": st.one_of(st.sampled_from(TYPES), st.text(max_size=20), values),
        "id": st.one_of(st.integers(0, 50), st.text(min_size=1, max_size=8), values),
    },
    optional={
        "box": st.one_of(st.integers(-2, 8), values),
        "amount": st.one_of(st.sampled_from([100, 500, 1000, 10**9]), values),
        "side": st.one_of(st.sampled_from(["main", "jackpot", "21-3"]), values),
        "decision": st.one_of(
            st.sampled_from(["hit", "stand", "double", "split", "insure", "double:500"]),
            st.text(max_size=30),
        ),
        "hand": values,
    },
)
frames = st.one_of(
    messages.map(lambda m: ("text", json.dumps(m))),
    st.text(max_size=60).map(lambda t: ("text", t)),  # mostly not JSON
    values.map(lambda v: ("text", json.dumps(v))),  # JSON, not an object
    st.binary(max_size=40).map(lambda b: ("bytes", b)),
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    url = f"sqlite:///{tmp_path_factory.mktemp('wsfuzz') / 'fuzz.db'}"
    limits = SocketLimits(rate=100_000, burst=100_000)
    application = make_app(url, socket_limits=limits)
    with TestClient(application) as client:
        application.state.fuzz_client = client
        application.state.fuzz_token = register(client, "fuzzer")
        yield application


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _answered(player: Player, kind: str, frame: Any) -> None:
    """Read until the server answers ``frame``: its id's error or ack, a view naming it, or
    (an id the server cannot read, a binary or non-object frame) an error without id."""
    mid: Any = None
    if kind == "text":
        try:  # as strictly as the server reads it (no NaN or Infinity)
            msg = json.loads(frame, parse_constant=_refuse)
        except ValueError:
            msg = None
        if isinstance(msg, dict):
            got = msg.get("id")
            valid = (isinstance(got, int) and not isinstance(got, bool)) or (
                isinstance(got, str) and 1 <= len(got) <= 64
            )
            mid = got if valid else None
    for _ in range(100):
        try:
            reply = player.recv(timeout=3)
        except TimeoutError as exc:
            raise AssertionError(f"no answer to {kind} {frame!r}") from exc
        if reply["type"] in ("error", "ack") and reply.get("id") == mid:
            return
        if reply["type"] == "view" and mid is not None and mid in reply.get("acks", ()):
            return
    raise AssertionError(f"no answer to {frame!r}")


@given(batch=st.lists(frames, min_size=1, max_size=25))
@settings(
    max_examples=30,
    deadline=None,
    database=None,
    derandomize=True,  # the same cases every run: CI does not turn red by luck
    suppress_health_check=list(HealthCheck),
)
def test_every_random_frame_is_answered_and_the_books_balance(
    app: FastAPI, batch: list[tuple[str, Any]]
) -> None:
    client: TestClient = app.state.fuzz_client
    headers = {"cookie": f"twentyone_session={app.state.fuzz_token}"}
    with client.websocket_connect("/ws/tables/hu-casino", headers=headers) as ws:
        player = Player(ws, "fuzzer")
        player.recv()
        for kind, frame in batch:
            if kind == "bytes":
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            _answered(player, kind, frame)
    assert app.state.ledger.audit() == []
