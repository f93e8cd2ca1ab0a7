"""The HTTP side under abuse (issue 11): request bodies, security headers, login and
registration throttles, forwarded addresses, out-of-range ids (rows 4, 5, 10, 14, 15, 16)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from twentyone.web.guard import REGISTER_LIMITS, Throttle
from twentyone.web.proxy_config import haproxy, nginx
from twentyone.web.storage.db import make_engine, migrate
from web_support import BACKENDS, database_url, get, make_app, register

CREDS = {"username": "ann", "password": "password123"}


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'guard.db'}"


def login(client: TestClient, password: str, username: str = "ann", **kw: Any) -> Any:
    return client.post("/api/login", json={"username": username, "password": password}, **kw)


def test_row_5_a_body_over_64_kib_gets_413_before_it_is_read(url: str) -> None:
    with TestClient(make_app(url)) as client:
        big = b'{"username": "' + b"x" * 200_000 + b'", "password": "password123"}'
        r = client.post("/api/login", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["params"] == {"limit": 65536}

        sent = 0

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            nonlocal sent
            yield b'{"username": "'
            for _ in range(1000):
                sent += 1
                yield b"x" * 1024
            yield b'", "password": "password123"}'

        r = client.post("/api/register", content=chunks())
        assert r.status_code == 413
        # a body within the bound is read as before
        assert client.post("/api/register", json=CREDS).status_code == 201


def test_row_14_a_long_username_is_refused_without_echoing_it(url: str) -> None:
    with TestClient(make_app(url)) as client:
        r = client.post("/api/register", json={"username": "y" * 60_000, "password": "pw123456"})
        assert r.status_code == 400
        assert len(r.text) < 500 and "yyyy" not in r.text
        assert "username" in r.json()["detail"]


def test_row_16_security_headers_on_the_page_and_the_api(url: str) -> None:
    with TestClient(make_app(url)) as client:
        for path in ("/", "/api/tables", "/static/app.js"):
            h = client.get(path).headers
            csp = h["content-security-policy"]
            assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
            assert "unsafe-inline" not in csp
            assert h["x-content-type-options"] == "nosniff"
            assert h["referrer-policy"] == "same-origin"
            assert "strict-transport-security" not in h
    with TestClient(make_app(url, secure_cookies=True)) as client:
        assert "max-age=" in client.get("/").headers["strict-transport-security"]


def test_row_4_login_failures_are_throttled_per_username_even_for_the_right_password(
    url: str,
) -> None:
    with TestClient(make_app(url)) as client:
        register(client, "ann")
        for _ in range(5):
            assert login(client, "wrong-password").status_code == 401
        r = login(client, "password123")  # the right password, after 5 misses in 5 minutes
        assert r.status_code == 429
        assert 290 <= int(r.headers["retry-after"]) <= 300
        assert r.json()["params"]["seconds"] == int(r.headers["retry-after"])


def test_issue_27_4_failures_under_one_name_lock_that_name_there_not_the_address(
    url: str,
) -> None:
    # Six failures on ann's name from one address: ann is refused there (429, the right
    # password included), bob behind the same address logs in, and ann from a clean address.
    app = make_app(url)
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(app) as plain:
        register(plain, "ann")
        register(plain, "bob")
    with TestClient(proxied) as client:  # type: ignore[arg-type]
        nat = {"x-forwarded-for": "203.0.113.7"}
        clean = {"x-forwarded-for": "198.51.100.9"}
        for _ in range(6):
            login(client, "wrong-password", "ann", headers=nat)
        assert login(client, "password123", "ann", headers=nat).status_code == 429
        assert login(client, "password123", "bob", headers=nat).status_code == 200
        assert login(client, "password123", "ann", headers=clean).status_code == 200


def test_issue_27_4_many_names_failing_from_one_address_slow_that_address(url: str) -> None:
    with TestClient(make_app(url, address_login_limits=("8 per 5 minutes",))) as client:
        register(client, "bob")
        for i in range(8):
            assert login(client, "wrong-password", f"u{i}").status_code == 401
        assert login(client, "password123", "bob").status_code == 429  # same address


def test_row_4_the_wait_grows_while_failures_go_on(url: str) -> None:
    app = make_app(url, login_limits=("2 per 1 second", "4 per 1 hour"))
    with TestClient(app) as client:
        register(client, "ann")
        for _ in range(2):
            assert login(client, "wrong-password").status_code == 401
        first = login(client, "wrong-password")
        assert first.status_code == 429 and int(first.headers["retry-after"]) == 1
        time.sleep(1.1)
        for _ in range(2):
            assert login(client, "wrong-password").status_code == 401
        second = login(client, "password123")
        assert second.status_code == 429 and int(second.headers["retry-after"]) > 3500


def test_a_successful_login_forgets_the_usernames_failures(url: str) -> None:
    with TestClient(make_app(url, login_limits=("3 per 5 minutes",))) as client:
        register(client, "ann")
        for _ in range(2):
            assert login(client, "wrong-password").status_code == 401
        assert login(client, "password123").status_code == 200
        assert login(client, "wrong-password").status_code == 401  # counting starts again


def test_row_15_registrations_are_throttled_per_address(url: str) -> None:
    with TestClient(make_app(url, register_limits=("3 per hour",))) as client:
        for name in ("pp1", "pp2", "pp3"):
            register(client, name)
        r = client.post("/api/register", json={"username": "pp4", "password": "password123"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 3500
    # the default is 20 an hour
    app = make_app(url.replace("guard", "guard2"), register_limits=REGISTER_LIMITS)
    with TestClient(app) as client:
        ok = [
            client.post("/api/register", json={"username": f"qq{i:02d}", "password": "password123"})
            for i in range(21)
        ]
        assert [r.status_code for r in ok].count(201) == 20 and ok[-1].status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_address_is_throttled(url: str) -> None:
    app = make_app(url, address_login_limits=("5 per 5 minutes",))
    # uvicorn and Starlette spell the ASGI callable's types each their own way
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(app) as plain:
        register(plain, "ann")
    with TestClient(proxied) as client:  # type: ignore[arg-type]
        one = {"x-forwarded-for": "203.0.113.7"}
        other = {"x-forwarded-for": "198.51.100.9"}
        for name in ("u1", "u2", "u3", "u4", "u5"):
            assert login(client, "wrong-password", name, headers=one).status_code == 401
        assert login(client, "password123", headers=one).status_code == 429
        assert login(client, "password123", headers=other).status_code == 200


def test_row_10_a_round_id_out_of_range_is_404(url: str) -> None:
    with TestClient(make_app(url)) as client:
        token = register(client, "ann")
        for rid in ("9223372036854775808", "99999999999999999999999", "0", "-1"):
            r = client.get(f"/api/rounds/{rid}", cookies={"twentyone_session": token})
            assert r.status_code == 404, (rid, r.text)
        assert get(client, "/api/rounds", token) == []


def test_issue_27_4_registrations_from_one_ipv6_64_count_together(url: str) -> None:
    app = make_app(url, register_limits=("3 per hour",))
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]
    with TestClient(proxied) as client:  # type: ignore[arg-type]
        codes = [
            client.post(
                "/api/register",
                json={"username": f"v6user{i}", "password": "password123"},
                headers={"x-forwarded-for": f"2001:db8:7:9:{i:x}::{i + 1:x}"},
            ).status_code
            for i in range(5)
        ]
        assert codes == [201, 201, 201, 429, 429]
        other = client.post(
            "/api/register",
            json={"username": "v6other", "password": "password123"},
            headers={"x-forwarded-for": "2001:db8:7:a::1"},  # another /64
        )
        assert other.status_code == 201


def test_issue_27_4_the_limits_count_in_one_place_for_every_node(url: str) -> None:
    # Two server processes on one database: registrations from one address count together.
    limits = ("3 per hour",)
    with (
        TestClient(make_app(url, register_limits=limits)) as a,
        TestClient(make_app(url, register_limits=limits)) as b,
    ):
        codes = [
            node.post("/api/register", json={"username": f"node{i}", "password": "password123"})
            for i, node in enumerate((a, b, a, b))
        ]
        assert [r.status_code for r in codes] == [201, 201, 201, 429]


@pytest.mark.parametrize("backend", BACKENDS)
def test_issue_27_4_check_and_count_are_one_step(backend: str, tmp_path: Any) -> None:
    # 40 attempts at once against a limit of 20: exactly 20 get through.
    for db in database_url(backend, tmp_path):
        engine = make_engine(db)
        migrate(engine)
        throttle = Throttle(["20 per hour"], engine, name="register")

        def attempt(_: int, throttle: Throttle = throttle) -> int | None:
            return throttle.hit_if_allowed("address:x")

        with ThreadPoolExecutor(max_workers=8) as pool:
            allowed = list(pool.map(attempt, range(40)))
        engine.dispose()
        assert allowed.count(None) == 20


def test_issue_27_4_the_proxy_limits_every_path_to_login_and_registration() -> None:
    conf = nginx([("a", "http://127.0.0.1:9001"), ("b-2", "http://127.0.0.1:9002")], listen="8080")
    limited = [
        block.split("{", 1)[0].strip()
        for block in conf.split("location ")[1:]
        if "limit_req zone=twentyone_login" in block
    ]
    assert "= /api/login" in limited and "= /api/register" in limited
    assert any("/n/a/api/" in loc and "login|register" in loc for loc in limited)
    assert any("/n/b-2/api/" in loc and "login|register" in loc for loc in limited)
    hap = haproxy([("a", "http://127.0.0.1:9001")])
    assert "sc_http_req_rate" in hap and "path_end /api/login /api/register" in hap
