"""Schemathesis against the app's own OpenAPI document (issue 11, item 9): every endpoint,
logged out and logged in, with generated and broken inputs: never a 500, and every response
matches its schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core.result import Err

from web_support import make_app, register

COOKIE = "twentyone_session"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    application = make_app(url, login_limits=("100000 per hour",))
    with TestClient(application) as client:
        application.state.fuzz_token = register(client, "fuzzer")
        yield application


FUZZ = settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,  # the same cases every run: CI does not turn red by luck
    suppress_health_check=list(HealthCheck),
)


def _fuzz(app: FastAPI, headers: dict[str, str], skip: tuple[str, ...] = ()) -> list[str]:
    """Every operation of the app's OpenAPI document with generated (and, by schemathesis'
    default, also schema-breaking) inputs; returns the operations run."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    ran = []
    for result in schema.get_all_operations():
        assert not isinstance(result, Err), result.err()
        operation = result.ok()
        if operation.path in skip:
            continue

        cases = st.one_of(
            operation.as_strategy(),  # what the document allows
            operation.as_strategy(schemathesis.GenerationMode.NEGATIVE),  # what it refuses
        )

        @given(case=cases)
        @FUZZ
        def run(case: Any) -> None:
            response = case.call(headers=headers)
            assert response.status_code < 500, (case.method, case.path, response.text[:300])
            case.validate_response(response)

        run()
        ran.append(f"{operation.method.upper()} {operation.path}")
    return ran


def test_every_endpoint_answers_within_its_schema_logged_out(app: FastAPI) -> None:
    ran = _fuzz(app, {})
    assert "POST /api/login" in ran and "GET /api/rounds/{round_id}" in ran
    assert {"GET /api/train/count", "POST /api/train/count", "POST /api/train/card"} <= set(ran)
    assert "GET /api/train/systems" in ran


def test_every_endpoint_answers_within_its_schema_logged_in(app: FastAPI) -> None:
    # logging out is fuzzed logged out, so the session the other cases use stays open
    ran = _fuzz(app, {"Cookie": f"{COOKIE}={app.state.fuzz_token}"}, skip=("/api/logout",))
    assert "GET /api/me" in ran and len(ran) >= 8
