"""The table WebSocket: authentication, intentions applied once, rounds with stacked shoes,
the countdown and the decision clock on a fake clock, reconnection, and the hole card kept
on the server. Expected cards, totals and money are worked out by hand from the shoes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from twentyone.engine.replay import replay
from web_support import FakeClock, Player, cookie, get, make_app, players_at, register


@pytest.fixture
def url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/ws.db"


def connect(client: TestClient, table: str, token: str, name: str) -> Any:
    return client.websocket_connect(f"/ws/tables/{table}", headers=cookie(token))


def test_socket_refused_without_session_bad_origin_or_table(url: str) -> None:
    app = make_app(url)
    with TestClient(app) as client:
        token = register(client, "ann")
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/tables/ro-casino"):
            pass
        bad = {**cookie("not-a-token")}
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/tables/ro-casino", headers=bad),
        ):
            pass
        evil = {**cookie(token), "origin": "http://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/tables/ro-casino", headers=evil),
        ):
            pass
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/tables/no-such-table", headers=cookie(token)),
        ):
            pass
        # the right session and origin are accepted, and the first message is the view
        same = {**cookie(token), "origin": "http://testserver"}
        with client.websocket_connect("/ws/tables/ro-casino", headers=same) as ws:
            first = Player(ws, "ann").recv()
            assert first["type"] == "view" and first["you"]["username"] == "ann"
            assert first["you"]["seated"] is False and first["phase"] == "betting"


def test_single_player_round_keeps_hole_card_hidden_and_settles(url: str) -> None:
    # ru-online deals box, dealer up, box, hole: ann TS 7H = 17, dealer 9D + hole 5C = 14,
    # the dealer draws 8H = 22 and busts; ann's 1000 wins 1000.
    app = make_app(url, {"ru-online": "TS 9D 7H 5C 8H"})
    with TestClient(app) as client:
        token = register(client, "ann")
        with connect(client, "ru-online", token, "ann") as ws:
            ann = Player(ws, "ann")
            ann.recv()
            assert ann.ok("sit")["you"]["seated"] is True
            view = ann.ok("bet", box=0, amount=1000)
            assert view["boxes"][0]["player"] == "ann" and view["boxes"][0]["bet"] == 1000
            assert view["you"]["pending"] == 1000 and view["countdown"] is None
            view = ann.ok("deal")
            assert view["phase"] == "playing"
            assert view["dealer"] == {
                "cards": ["9D"],
                "hidden": 1,
                "total": 9,
                "soft": False,
                "blackjack": False,
            }
            assert view["boxes"][0]["hands"][0]["cards"] == ["TS", "7H"]
            assert view["you"]["balance"] == 99_000  # the stake is taken at the start
            turn = view["turn"]
            assert turn["player"] == "ann" and turn["kind"] == "play"
            assert turn["actions"] == ["hit", "stand", "double"]
            before_reveal = [json.dumps(m) for m in ann.seen]
            assert not any('"5C"' in text or '"8H"' in text for text in before_reveal)
            view = ann.ok("decide", decision="stand", box=0, hand=0)
            assert view["phase"] == "betting"
            last = view["last_round"]
            assert last["dealer"]["cards"] == ["9D", "5C", "8H"]
            assert last["boxes"][0]["hands"][0]["result"] == "win"
            assert last["net"] == {"ann": 1000}
            assert view["you"]["balance"] == 101_000
        me = get(client, "/api/me", token)
        assert me["balance"] == 101_000
        rounds = get(client, "/api/rounds", token)
        assert len(rounds) == 1 and rounds[0]["status"] == "settled"
        assert rounds[0]["staked"] == 1000 and rounds[0]["net"] == 1000
        assert replay(rounds[0]["replay"])["net"] == {"ann": 1000}
        assert app.state.ledger.audit() == []


def test_insurance_split_and_double_at_pl_online(url: str) -> None:
    # pl-online: ann 8S 8D, dealer AH + hole 9C (no blackjack). ann insures 500 (lost), splits
    # (pl.7: both hands get their second card at once: 3H, 2D), doubles 8-3 (TC: 21, wins
    # 2000) and 8-2 (9S: 19, loses 2000) against the dealer's soft 20.
    # Net: -500 + 2000 - 2000 = -500.
    app = make_app(url, {"pl-online": "8S AH 8D 9C 3H 2D TC 9S"})
    with TestClient(app) as client:
        token = register(client, "ann")
        with connect(client, "pl-online", token, "ann") as ws:
            ann = Player(ws, "ann")
            ann.recv()
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("deal")
            assert view["turn"]["kind"] == "insurance"
            assert view["turn"]["actions"] == ["insure", "no-insurance"]
            view = ann.ok("decide", decision="insure")
            assert view["boxes"][0]["insurance"] == 500 and view["you"]["balance"] == 98_500
            assert view["dealer"]["blackjack"] is False  # the peek found none
            assert "split" in view["turn"]["actions"]
            view = ann.ok("decide", decision="split")
            hands = view["boxes"][0]["hands"]
            assert [h["cards"] for h in hands] == [["8S", "3H"], ["8D", "2D"]]
            assert hands[0]["active"] and not hands[1]["active"]
            assert view["you"]["balance"] == 97_500
        # reconnect mid-round: the round is as it stood
        with connect(client, "pl-online", token, "ann") as ws:
            ann = Player(ws, "ann")
            view = ann.recv()
            assert view["phase"] == "playing" and view["you"]["seated"] is True
            assert view["turn"]["player"] == "ann" and view["turn"]["hand"] == 0
            assert [h["cards"] for h in view["boxes"][0]["hands"]] == [["8S", "3H"], ["8D", "2D"]]
            ann.ok("decide", decision="double")
            view = ann.ok("decide", decision="double")
            last = view["last_round"]
            assert [h["result"] for h in last["boxes"][0]["hands"]] == ["win", "lose"]
            assert last["dealer"]["cards"] == ["AH", "9C"]
            assert last["net"] == {"ann": -500}
            assert view["you"]["balance"] == 99_500
        record = get(client, "/api/rounds", token)[0]
        assert record["staked"] == 4500 and record["net"] == -500
        assert record["replay"]["decisions"] == ["insure", "split", "double", "double"]
        assert app.state.ledger.audit() == []


def test_repeated_message_id_is_applied_once(url: str) -> None:
    app = make_app(url)
    with TestClient(app) as client:
        token = register(client, "ann")
        with connect(client, "ro-casino", token, "ann") as ws:
            ann = Player(ws, "ann")
            ann.recv()
            ann.ok("sit")
            ann.send("bet", mid="same", box=2, amount=500)
            # applied: acknowledged by the view that reflects it, no separate ack
            first = ann.until(lambda m: m["type"] != "notice")
            assert first["type"] == "view" and first["acks"] == ["same"]
            assert first["boxes"][2]["bet"] == 500
            ann.send("bet", mid="same", box=2, amount=500)
            again = ann.until(lambda m: m["type"] != "notice")
            assert again == {"type": "ack", "id": "same", "duplicate": True}
            view = ann.ok("view")
            assert view["boxes"][2]["bet"] == 500 and view["you"]["pending"] == 500
            # an integer id is a different id from the string "7"
            ann.send("bet", mid=7, box=2, amount=100)
            ann.send("bet", mid="7", box=2, amount=100)
            assert ann.ok("view")["boxes"][2]["bet"] == 700


def test_notices_ride_in_the_view_of_their_change(url: str) -> None:
    # ru-online: ann TS 8D = 18 stands, dealer 9H + hole 7C = 16 draws TC and busts
    app = make_app(url, {"ru-online": "TS 9H 8D 7C TC"})
    with TestClient(app) as client:
        token = register(client, "ann")
        with players_at(client, "ru-online", {"ann": token}) as (ann,):
            ann.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            ann.do("deal")
            ann.view_where(lambda v: v["phase"] == "playing")
            ann.do("decide", decision="stand")
            ann.view_where(lambda v: v["phase"] == "betting" and v["last_round"] is not None)
        raw = ann.seen
        assert all(m["type"] == "view" for m in raw)  # no notice travels on its own
        carrying = [m for m in raw if m.get("notices")]
        assert [[n["kind"] for n in m["notices"]] for m in carrying] == [
            ["round-start"],
            ["round-end"],
        ]
        start, end = carrying
        assert start["phase"] == "playing" and start["notices"][0]["type"] == "notice"
        assert start["notices"][0]["round"] == start["round"]["id"]
        assert end["phase"] == "betting" and end["last_round"]["net"] == {"ann": 1000}
        assert end["notices"][0]["net"] == {"ann": 1000}
        assert end["acks"]  # the stand that ended the round is acknowledged by the same view


def test_errors_name_the_bad_value(url: str) -> None:
    app = make_app(url, starting_balance=2000)
    with TestClient(app) as client:
        ann_t, bob_t = register(client, "ann"), register(client, "bob")
        with (
            connect(client, "ro-casino", ann_t, "ann") as w1,
            connect(client, "ro-casino", bob_t, "bob") as w2,
        ):
            ann, bob = Player(w1, "ann"), Player(w2, "bob")
            ann.recv(), bob.recv()
            err = ann.do("bet", box=0, amount=100)
            assert err["type"] == "error" and "sit" in err["error"]
            ann.ok("sit"), bob.ok("sit")
            err = ann.do("bet", box=0, amount=600_000)
            assert err["field"] == "amount" and err["value"] == 600_000
            assert "600000" in err["error"] and "500000" in err["error"]
            err = ann.do("bet", box=0, amount=2500)
            # the player's own refusal speaks to them (issue 29), in every language
            assert err["field"] == "amount" and err["error"] == "you bet 2500 but have 2000"
            assert err["code"] == "insufficient-funds"
            assert err["message"] == "you bet {total} but have {balance}"
            assert err["params"] == {"total": 2500, "balance": 2000}
            assert err["text"] == "pariați 25,00, dar aveți 20,00"  # ro-casino: formal
            err = ann.do("bet", box=9, amount=100)
            assert err["field"] == "box" and err["value"] == 9
            err = ann.do("bet", box=0, amount="lots")
            assert err["field"] == "amount" and err["value"] == "lots"
            err = ann.do("bet", box=0, amount=100, side="jackpot")
            assert err["field"] == "side"  # ro has no jackpot
            ann.ok("bet", box=0, amount=50)
            err = bob.do("bet", box=0, amount=100)
            assert err["field"] == "box" and "ann" in err["error"]
            err = ann.do("ready")
            assert err["field"] == "box" and "limits 100 to 500000" in err["error"]
            assert err["code"] == "outside-limits" and err["params"]["bet"] == 50
            err = ann.do("fold")
            assert err["field"] == "type" and err["value"] == "fold"
            err = ann.do("decide", decision="hit")
            assert err["field"] == "decision"
            ann.ws.send_text("not json")
            assert ann.until(lambda m: m["type"] == "error")["id"] is None


def test_undo_clear_rebet_and_double_rebet(url: str) -> None:
    # ru-online, ann bets 100 + 200 on box 0 and 300 on box 1; both boxes stand.
    # box0 TS 8S = 18, box1 9S 9H = 18, dealer 7D + hole TD = 17: both win.
    app = make_app(url, {"ru-online": "TS 9S 7D 8S 9H TD"})
    with TestClient(app) as client:
        token = register(client, "ann")
        with connect(client, "ru-online", token, "ann") as ws:
            ann = Player(ws, "ann")
            ann.recv()
            ann.ok("sit")
            ann.ok("bet", box=0, amount=100)
            ann.ok("bet", box=0, amount=200)
            ann.ok("bet", box=3, amount=999)
            view = ann.ok("undo")
            assert [b["bet"] for b in view["boxes"]] == [300, 0, 0, 0, 0]
            view = ann.ok("clear")
            assert view["you"]["pending"] == 0
            assert ann.do("rebet")["type"] == "error"  # nothing to repeat yet
            ann.ok("bet", box=0, amount=300)
            ann.ok("bet", box=1, amount=300)
            view = ann.ok("deal")
            assert view["turn"]["box"] == 0
            view = ann.ok("decide", decision="stand")
            assert view["turn"]["box"] == 1
            view = ann.ok("decide", decision="stand")
            assert view["last_round"]["net"] == {"ann": 600}
            assert view["you"]["can_rebet"] is True
            view = ann.ok("double-rebet")
            assert [b["bet"] for b in view["boxes"][:2]] == [600, 600]
            view = ann.ok("rebet")
            assert [b["bet"] for b in view["boxes"][:2]] == [300, 300]
            assert view["you"]["balance"] == 100_600


def _two_players(client: TestClient) -> tuple[str, str]:
    return register(client, "ann"), register(client, "bob")


def test_multi_player_countdown_and_decision_clock(url: str) -> None:
    # ro-casino (no hole card; surrender asked before play): ann TS 7C = 17, bob 9H 2S = 11,
    # dealer 6D. bob lets the clock decline surrender; ann stands; bob hits 9C (20) and lets the
    # clock stand. The dealer's second card TD (16) then 8H: 24, bust. Both win 1000.
    clock = FakeClock()
    app = make_app(url, {"ro-casino": "TS 9H 6D 7C 2S 9C TD 8H"}, clock=clock)
    with TestClient(app) as client:
        ann_t, bob_t = _two_players(client)
        with (
            connect(client, "ro-casino", ann_t, "ann") as w1,
            connect(client, "ro-casino", bob_t, "bob") as w2,
        ):
            ann, bob = Player(w1, "ann"), Player(w2, "bob")
            ann.recv(), bob.recv()
            ann.ok("sit"), bob.ok("sit")
            view = ann.ok("bet", box=0, amount=1000)
            assert view["countdown"]["deadline"] == clock.now + 15
            bob.ok("bet", box=1, amount=1000)
            view = ann.ok("ready")
            assert view["phase"] == "betting" and view["you"]["ready"] is True
            clock.advance(14)
            assert ann.ok("view")["phase"] == "betting"  # not yet
            clock.advance(2)
            view = bob.view_where(lambda v: v["phase"] == "playing")
            assert [b["player"] for b in view["boxes"][:3]] == ["ann", "bob", None]
            assert view["dealer"]["cards"] == ["6D"] and view["dealer"]["hidden"] == 0
            assert view["turn"]["kind"] == "surrender" and view["turn"]["player"] == "ann"
            assert view["turn"]["actions"] == []  # bob sees whose turn, not ann's buttons
            view = ann.ok("decide", decision="no-surrender")
            assert view["turn"]["player"] == "bob"
            assert view["turn"]["deadline"] == clock.now + 20
            clock.advance(21)
            notice = ann.until(lambda m: m["type"] == "notice" and m["kind"] == "default-action")
            assert notice["player"] == "bob" and notice["decision"] == "no-surrender"
            view = ann.view_where(lambda v: v["turn"] and v["turn"]["kind"] == "play")
            assert view["round"]["log"][-1] == {
                "box": 1,
                "hand": 0,
                "decision": "no-surrender",
                "player": "bob",
                "by": "clock",
            }
            err = bob.do("decide", decision="stand")
            assert err["type"] == "error" and "ann's turn" in err["error"]
            ann.ok("decide", decision="stand")
            bob.until(lambda m: m["type"] == "view" and m["turn"]["player"] == "bob")
            view = bob.ok("decide", decision="hit", box=1, hand=0)
            assert view["boxes"][1]["hands"][0]["total"] == 20
            err = bob.do("decide", decision="stand", box=0)
            assert err["field"] == "box"  # a stale click names the box
            clock.advance(20)
            view = bob.view_where(lambda v: v["phase"] == "betting")
            assert view["last_round"]["dealer"]["cards"] == ["6D", "TD", "8H"]
            assert view["last_round"]["net"] == {"ann": 1000, "bob": 1000}
            assert view["you"]["balance"] == 101_000
        bob_round = get(client, "/api/rounds", bob_t)[0]
        assert bob_round["decided_by_clock"] == [1, 4]
        assert bob_round["replay"]["decisions"] == [
            "no-surrender",
            "no-surrender",
            "stand",
            "hit",
            "stand",
        ]
        assert app.state.ledger.audit() == []


def test_round_starts_when_everyone_is_ready(url: str) -> None:
    clock = FakeClock()
    app = make_app(url, {"hu-casino": "TS 9H 8C 7C 6D"}, clock=clock)
    with TestClient(app) as client:
        ann_t, bob_t = _two_players(client)
        with (
            connect(client, "hu-casino", ann_t, "ann") as w1,
            connect(client, "hu-casino", bob_t, "bob") as w2,
        ):
            ann, bob = Player(w1, "ann"), Player(w2, "bob")
            ann.recv(), bob.recv()
            ann.ok("sit"), bob.ok("sit")
            ann.ok("bet", box=3, amount=100)
            assert ann.ok("ready")["phase"] == "betting"  # bob is not ready yet
            err = bob.do("ready")
            assert err["type"] == "error"  # bob has no bet: he cannot be ready
            bob.ok("bet", box=4, amount=200)
            view = bob.ok("ready")
            assert view["phase"] == "playing"
            # hu deals box by box: box 3 gets TS 9H, box 4 gets 8C 7C, then the dealer 6D
            assert view["boxes"][3]["hands"][0]["cards"] == ["TS", "9H"]
            assert view["boxes"][4]["hands"][0]["cards"] == ["8C", "7C"]
            assert view["dealer"]["cards"] == ["6D"]
            lobby = client.get("/api/tables/hu-casino").json()
            assert lobby["free_boxes"] == 5 and lobby["players"] == ["ann", "bob"]


def test_a_disconnected_player_is_played_by_the_clock(url: str) -> None:
    # ru-online: ann TS 6S = 16 against 9D + hole 8D (17). ann disconnects before acting: the
    # clock stands for her, the dealer stands on 17, ann loses 1000.
    clock = FakeClock()
    app = make_app(url, {"ru-online": "TS 9D 6S 8D"}, clock=clock)
    with TestClient(app) as client:
        token, bob_t = _two_players(client)
        with connect(client, "ru-online", bob_t, "bob") as watching:
            bob = Player(watching, "bob")
            bob.recv()
            with connect(client, "ru-online", token, "ann") as ws:
                ann = Player(ws, "ann")
                ann.recv()
                ann.ok("sit")
                ann.ok("bet", box=0, amount=1000)
                ann.ok("deal")
            view = bob.view_where(lambda v: not v["players"][0]["connected"])
            assert view["phase"] == "playing" and view["turn"]["player"] == "ann"
            clock.advance(25)
            bob.view_where(lambda v: v["phase"] == "betting")
        with connect(client, "ru-online", token, "ann") as ws:
            ann = Player(ws, "ann")
            view = ann.view_where(lambda v: v["phase"] == "betting" and v["last_round"])
            assert view["last_round"]["net"] == {"ann": -1000}
            assert view["last_round"]["log"][0]["by"] == "clock"
            assert view["you"]["seated"] is False  # she left while away; the seat is free
        assert get(client, "/api/me", token)["balance"] == 99_000


def test_one_table_at_a_time_and_single_player_tables(url: str) -> None:
    app = make_app(url)
    with TestClient(app) as client:
        ann_t, bob_t = _two_players(client)
        with (
            connect(client, "ru-online", ann_t, "ann") as w1,
            connect(client, "ru-online", bob_t, "bob") as w2,
            connect(client, "pl-online", ann_t, "ann") as w3,
        ):
            ann, bob, ann2 = Player(w1, "ann"), Player(w2, "bob"), Player(w3, "ann")
            ann.recv(), bob.recv(), ann2.recv()
            ann.ok("sit")
            err = bob.do("sit")
            assert err["type"] == "error" and "single-player" in err["error"]
            err = ann2.do("sit")
            assert err["type"] == "error" and "ru-online" in err["error"]
            assert get(client, "/api/me", ann_t)["table"] == "ru-online"
            assert client.get("/api/tables/ru-online").json()["free_boxes"] == 0
            ann.ok("leave")
            bob.ok("sit")


def test_even_money_insurance_and_jackpot_at_pt_casino(url: str) -> None:
    # pt-casino (hole card, no peek): ann AS KC (blackjack) with a 100 jackpot bet, bob 9H 7C
    # (16), dealer AD + hole 6D (soft 17, stands). ann takes even money (+1000) and loses the
    # jackpot (one ace: pt.13 pays only on aces); bob insures 300 (lost) and stands on 16 (lost).
    app = make_app(url, {"pt-casino": "AS 9H AD KC 7C 6D"})
    with TestClient(app) as client:
        ann_t, bob_t = _two_players(client)
        with (
            connect(client, "pt-casino", ann_t, "ann") as w1,
            connect(client, "pt-casino", bob_t, "bob") as w2,
        ):
            ann, bob = Player(w1, "ann"), Player(w2, "bob")
            ann.recv(), bob.recv()
            ann.ok("sit"), bob.ok("sit")
            ann.ok("bet", box=0, amount=1000)
            view = ann.ok("bet", box=0, amount=100, side="jackpot")
            assert view["boxes"][0]["side_bets"] == {"jackpot": 100}
            assert view["you"]["pending"] == 1100
            bob.ok("bet", box=1, amount=1000)
            ann.ok("ready")
            view = bob.ok("ready")
            assert view["dealer"] == {
                "cards": ["AD"],
                "hidden": 1,
                "total": 11,
                "soft": True,
                "blackjack": None,
            }
            view = ann.view_where(lambda v: v["phase"] == "playing")
            assert view["turn"]["kind"] == "even-money"
            # pt.4 + pt.10: even money, or insurance up to half instead, or neither
            assert view["turn"]["actions"] == ["even-money", "insure", "insure:N", "no-even-money"]
            assert view["turn"]["amount_range"] == [1, 500]
            ann.ok("decide", decision="even-money")
            view = bob.view_where(lambda v: v["turn"]["kind"] == "insurance")
            assert view["turn"]["actions"] == ["insure", "insure:N", "no-insurance"]
            assert view["turn"]["amount_range"] == [1, 500]
            err = bob.do("decide", decision="insure:600")
            assert err["field"] == "decision" and "600" in err["error"]
            # the engine judged the amount (the page does not): its code, the range it holds
            assert err["code"] == "amount-outside"
            assert err["params"] == {"decision": "insure:600", "amount": 600, "min": 1, "max": 500}
            view = bob.ok("decide", decision="insure:300")
            assert view["boxes"][1]["insurance"] == 300
            assert view["turn"]["kind"] == "play" and view["turn"]["player"] == "bob"
            assert view["turn"]["actions"] == ["hit", "stand"]
            view = bob.ok("decide", decision="stand")
            assert view["last_round"]["net"] == {"ann": 900, "bob": -1300}
            assert view["last_round"]["dealer"]["cards"] == ["AD", "6D"]
            assert view["you"]["balance"] == 98_700
        assert get(client, "/api/me", ann_t)["balance"] == 100_900
        assert app.state.ledger.audit() == []


def test_boxes_per_player_limit(url: str, tmp_path: Any) -> None:
    from twentyone.web.tables import TableConfig

    toml = tmp_path / "two.toml"
    toml.write_text('name = "two-boxes"\ndecks = 1\nboxes_per_player = 2\ntable_boxes = 4\n')
    app = make_app(url, tables=[TableConfig(id="two", rules=str(toml))])
    with TestClient(app) as client:
        token = register(client, "ann")
        with connect(client, "two", token, "ann") as ws:
            ann = Player(ws, "ann")
            view = ann.recv()
            assert view["table"]["boxes"] == 4 and view["table"]["boxes_per_player"] == 2
            ann.ok("sit")
            ann.ok("bet", box=0, amount=100)
            ann.ok("bet", box=3, amount=100)
            ann.ok("bet", box=3, amount=100)  # more on a box already hers is fine
            err = ann.do("bet", box=1, amount=100)
            assert err["field"] == "box" and err["value"] == 1 and "at most 2" in err["error"]
