"""Errors with codes: every engine error carries a code and its parameters, its English message
is made from the code's template, the catalogs translate it by code, and the front ends show
the engine's refusal (in the player's language) instead of checking the bet limits again."""

from __future__ import annotations

import io
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from string import Formatter
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from twentyone import i18n
from twentyone.engine.bets import check_box_bet, check_player_bets, verify_bets
from twentyone.engine.errors import (
    TEMPLATES,
    BetError,
    CardError,
    IllegalActionError,
    ReplayError,
    RulesError,
    TwentyOneError,
)
from twentyone.engine.hands import BoxBet
from twentyone.engine.replay import replay
from twentyone.engine.rules import Rules
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import StackedShoe
from twentyone.i18n import describe, format_money
from twentyone.terminal.game import play
from twentyone.terminal.seat import PlayerSeat
from twentyone.web.tables import TableConfig
from web_support import Player, cookie, make_app, register


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def _catalog(lang: str) -> dict[str, str]:
    """The catalog's messages by their (singular) msgid; a plural message's forms joined, so
    that each form is checked with the others."""
    with open(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "twentyone.po", "rb") as fh:
        cat = read_po(fh, locale=lang)
    out: dict[str, str] = {}
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, str) and isinstance(m.string, str):
            out[m.id] = m.string
        elif isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
            out[m.id[0]] = "\n".join(m.string)
    return out


# ---------------------------------------------------------------------------- the registry
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_code_has_a_translation_in_every_catalog(lang: str) -> None:
    catalog = _catalog(lang)
    for code, template in TEMPLATES.items():
        translated = catalog.get(template.text)
        assert translated, f"{lang}: no translation of {code!r}"
        for form in translated.split("\n"):
            assert _fields(form) == _fields(template.text), f"{lang}: {code!r}"
        assert set(template.money) <= _fields(template.text), code
        if lang != "en":
            # a real translation: only messages made of placeholders and code read the same
            words = re.sub(r"--\w+", "", template.text)  # an option reads the same
            for name in _fields(words):
                words = words.replace("{" + name + "}", "").replace("{" + name + "!r}", "")
            assert translated != template.text or not any(c.isalpha() for c in words), code


def test_codes_are_kebab_case_and_templates_are_distinct() -> None:
    for code in TEMPLATES:
        assert code == code.lower() and " " not in code and "_" not in code
    texts = [t.text for t in TEMPLATES.values()]
    assert len(set(texts)) == len(texts)  # one code per message: the catalogs translate by it


def test_every_code_raised_is_registered_and_every_code_is_raised() -> None:
    # The raise sites as written (an error of a rare path is checked without running it).
    src = Path(i18n.__file__).parent
    raised: set[str] = set()
    for path in src.rglob("*.py"):
        if path.name in ("errors.py", "error_texts.py"):
            continue
        text = path.read_text(encoding="utf-8")
        raised |= set(re.findall(r'\b\w*Error\(\s*"([a-z0-9-]+)"', text))
        raised |= set(re.findall(r'\bbad\(\s*[\w."]+,\s*"([a-z0-9-]+)"', text))  # rules.py
    assert raised - set(TEMPLATES) == set()
    assert set(TEMPLATES) - raised == set()


def test_an_unknown_code_is_refused_at_once() -> None:
    with pytest.raises(KeyError, match="'no-such-code'"):
        BetError("no-such-code", box=1)


# ---------------------------------------------------------------------------- parameters
def test_the_message_names_every_parameter() -> None:
    err = BetError("outside-limits", box=2, bet=50, min=100, max=500_000)
    assert err.code == "outside-limits"
    assert err.params == {"box": 2, "bet": 50, "min": 100, "max": 500_000}
    assert str(err) == "box 2: bet 50 is outside the table limits 100 to 500000"
    assert isinstance(err, ValueError) and err.args == (str(err),)


def test_engine_errors_carry_code_and_parameters() -> None:
    rules = load_rules("ro-casino")
    with pytest.raises(BetError) as bet:
        verify_bets(rules, [BoxBet("ann", 100), BoxBet("ann", 50)])
    assert bet.value.code == "outside-limits"
    assert bet.value.params == {"box": 2, "bet": 50, "min": 100, "max": 500_000}
    with pytest.raises(CardError) as card:
        StackedShoe("AS A")
    assert (card.value.code, card.value.params) == ("bad-card", {"text": "A"})
    with pytest.raises(RulesError) as ruled:
        Rules(decks=9)
    assert ruled.value.code == "out-of-range"
    assert ruled.value.params == {"field": "decks", "value": 9, "lo": 1, "hi": 8}
    rnd = PlayerSeat(rules, bankroll=10_000, shoe=StackedShoe("TS 9D 7H 8C")).deal([1000])
    with pytest.raises(IllegalActionError) as act:
        rnd.apply("split")
    assert act.value.code == "not-allowed" and act.value.params["decision"] == "split"


def test_each_parameter_value_appears_in_the_message() -> None:
    for code, template in TEMPLATES.items():
        values: dict[str, Any] = {name: f"<{name}>" for name in _fields(template.text)}
        for name in template.money:
            values[name] = 123_456 + len(name)
        err = TwentyOneError(code, **values)
        for name, value in values.items():
            shown = repr(value) if "{" + name + "!r}" in template.text else str(value)
            assert shown in str(err), (code, name)
            if name in template.money:  # formatted for the locale where it is shown
                assert format_money(value, "ru") in describe(err, "ru"), (code, name)


def test_errors_pickle_with_their_code_and_parameters() -> None:
    err = ReplayError("missing-decision", decision=3, asked="box 1 hand 1 (play): hit")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is ReplayError and back.decision == 3
    assert (back.code, back.params, str(back)) == (err.code, err.params, str(err))


def test_a_nested_error_is_described_in_the_same_language() -> None:
    data = {"rules": "ro-casino", "shoe": "TS 9D 7H 8C", "boxes": [{"player": "a", "bet": 100}]}
    with pytest.raises(ReplayError) as err:
        replay({**data, "decisions": ["split"]})
    assert err.value.code == "replay-refused" and err.value.decision == 0
    inner = err.value.params["reason"]
    assert isinstance(inner, IllegalActionError) and str(err.value) == str(inner)
    assert describe(err.value, "pl") == describe(inner, "pl")
    assert describe(inner, "pl").startswith("'split' jest niedozwolone: pytanie box 1")


# ---------------------------------------------------------------------------- translations
def test_describe_translates_by_code_and_formats_money_for_the_locale() -> None:
    err = BetError("outside-limits", box=1, bet=50, min=100, max=500_000)
    assert describe(err, "en") == "box 1: bet 0.50 is outside the table limits 1.00 to 5,000.00"
    assert describe(err, "ru") == "бокс 1: ставка 0,50 вне лимитов стола от 1,00 до 5\xa0000,00"
    assert describe(err, "pt") == (
        "lugar 1: a aposta 0,50 está fora dos limites da mesa, de 1,00 a 5\xa0000,00"
    )
    assert i18n.Words("hu").describe(BetError("no-bets")) == (
        "nincs tét: egy körhöz legalább egy játékhelyen tét kell"
    )


def _terminal(answers: list[str], lang: str, rules: str | Rules = "ru-online") -> str:
    out = io.StringIO()
    play(
        rules,
        bankroll=5000,
        stdin=io.StringIO("\n".join(answers) + "\n"),
        stdout=out,
        shoe=StackedShoe("TS 9D 7H 8C"),
        color=False,
        lang=lang,
    )
    return out.getvalue()


def test_the_terminal_shows_the_engines_refusal_from_the_catalog() -> None:
    # 0,50 is below ru-online's minimum (1,00): the engine refuses it (PlayerSeat.check_bet), the
    # terminal prints the catalog's Russian for the engine's code, filled with its parameters.
    rules = load_rules("ru-online")
    with pytest.raises(BetError) as err:
        PlayerSeat(rules, bankroll=5000).check_bet(50, 5000, box=1)
    text = _terminal(["0,50", "10", "s", "q"], "ru")
    russian = _catalog("ru")[TEMPLATES["outside-limits"].text]
    assert russian.startswith("бокс {box}: ставка {bet}")
    expected = russian.format(
        box=1, bet="0,50", min="1,00", max=format_money(rules.table_max, "ru")
    )
    assert expected == describe(err.value, "ru")
    assert expected in text
    assert "outside" not in text


def test_the_terminal_refusal_follows_the_rules_limits() -> None:
    # The same typed bet, two tables: the limits come from the Rules alone (no front-end check).
    base = load_rules("ru-online")
    strict = base.replace(table_min=2000, table_max=3000)
    loose = _terminal(["5", "s", "q"], "ru", base)
    tight = _terminal(["5", "25", "s", "q"], "ru", strict)
    assert "вне лимитов стола" not in loose
    assert "бокс 1: ставка 5,00 вне лимитов стола от 20,00 до 30,00" in tight


# ---------------------------------------------------------------------------- one bet check
def test_bet_limits_are_checked_in_the_engine_only() -> None:
    rules = load_rules("ro-casino").replace(table_min=300, table_max=900, boxes_per_player=2)
    table = PlayerSeat(rules, bankroll=5000)
    checks: tuple[Callable[[], object], ...] = (
        lambda: check_box_bet(rules, 1, 200),
        lambda: verify_bets(rules, [BoxBet("ann", 200)]),
        lambda: table.check_bet(200, 5000, box=1),
    )
    for check in checks:
        with pytest.raises(BetError) as err:
            check()
        assert (err.value.code, err.value.params["min"], err.value.params["max"]) == (
            "outside-limits",
            300,
            900,
        )
    check_box_bet(rules, 1, 200, placing=True)  # still placing chips: only the maximum
    with pytest.raises(BetError, match="bet 1000 is outside the table limits 300 to 900"):
        check_box_bet(rules, 1, 1000, placing=True)
    with pytest.raises(BetError) as err:
        check_player_bets(rules, "ann", {1: (300, {}), 2: (300, {}), 3: (300, {})}, 5000)
    assert err.value.code == "over-boxes-per-player" and err.value.params["most"] == 2
    with pytest.raises(BetError) as err:
        check_player_bets(rules, "ann", {1: (900, {}), 2: (900, {})}, 1000)
    assert err.value.code == "insufficient-funds"
    assert err.value.params == {"player": "ann", "total": 1800, "balance": 1000}


# ---------------------------------------------------------------------------- the web table
def _web_refusals(
    tmp_path: Path, table_min: int, table_max: int, chosen: str | None = None
) -> list[dict[str, Any]]:
    """Sit at a Russian-speaking table of these limits (having chosen the language ``chosen``
    for the account) and bet 40.00, then 5.00 on one box, then try to close the bets: the
    table's answers."""
    toml = tmp_path / f"limits-{table_min}-{table_max}.toml"
    toml.write_text(
        f'name = "limits"\ndecks = 6\ntable_min = {table_min}\ntable_max = {table_max}\n'
    )
    app = make_app(
        f"sqlite:///{tmp_path}/errors-{table_min}-{table_max}.db",
        tables=[TableConfig(id="t", rules=str(toml), language="ru")],
    )
    answers = []
    with TestClient(app) as client:
        token = register(client, "ann")
        if chosen is not None:
            put = client.put("/api/me/language", json={"language": chosen}, headers=cookie(token))
            assert put.status_code == 200
        with client.websocket_connect("/ws/tables/t", headers=cookie(token)) as ws:
            ann = Player(ws, "ann")
            ann.recv()
            ann.ok("sit")
            answers.append(ann.do("bet", box=0, amount=4000))
            answers.append(ann.do("bet", box=0, amount=500))
            answers.append(ann.do("ready"))
    return answers


def test_the_web_error_reply_carries_the_engines_code_params_and_text(tmp_path: Path) -> None:
    too_much, _, too_little = _web_refusals(tmp_path, 1000, 3000)
    assert too_much["type"] == "error" and too_much["field"] == "amount"
    assert too_much["code"] == "outside-limits"
    assert too_much["params"] == {"box": 0, "bet": 4000, "min": 1000, "max": 3000}
    assert too_much["message"] == TEMPLATES["outside-limits"].text
    assert too_much["error"] == "box 0: bet 4000 is outside the table limits 1000 to 3000"
    # the table speaks Russian (the player chose no language): the engine's reason in Russian
    err = BetError("outside-limits", **{**too_much["params"], "box": 1})  # counted from 1
    assert (
        too_much["text"]
        == describe(err, "ru")
        == ("бокс 1: ставка 40,00 вне лимитов стола от 10,00 до 30,00")
    )
    assert too_little["code"] == "outside-limits" and too_little["field"] == "box"
    assert too_little["params"]["bet"] == 500


def test_the_web_refusal_follows_the_rules_limits(tmp_path: Path) -> None:
    # The same chips at two tables: only the Rules differ, and so do the refusals.
    loose = _web_refusals(tmp_path, 100, 500_000)
    tight = _web_refusals(tmp_path, 1000, 3000)
    assert [a["type"] for a in loose] == ["ack", "ack", "ack"]
    assert [a.get("code") for a in tight] == ["outside-limits", None, "outside-limits"]
    wider = _web_refusals(tmp_path, 1000, 5000)
    assert [a["type"] for a in wider] == ["ack", "ack", "ack"]


def test_the_web_error_text_is_in_the_language_the_player_chose(tmp_path: Path) -> None:
    too_much, _, too_little = _web_refusals(tmp_path, 1000, 3000, chosen="pl")
    assert too_much["text"] == "pole 1: stawka 40,00 jest poza limitami stołu od 10,00 do 30,00"
    assert too_little["text"] == "pole 1: stawka 5,00 jest poza limitami stołu od 10,00 do 30,00"
    assert too_much["error"] == "box 0: bet 4000 is outside the table limits 1000 to 3000"


def test_the_terminals_own_refusals_stay_its_own() -> None:
    # With one box, 0 is no bet: the prompt says so (a refusal of its own, not the engine's),
    # and the game goes on to the next answer.
    text = _terminal(["0", "10", "s", "q"], "ru")
    assert "0,00: при одном боксе на бокс нужна ставка" in text
    assert "Итог раунда" in text
