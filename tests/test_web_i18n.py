"""The web table's languages: the catalogs served as JSON, the language remembered per account,
each table's default language and rule card, and the server's refusals in the catalogs."""

from __future__ import annotations

import gettext
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from twentyone import i18n
from twentyone.engine.rulesets import load_rules
from twentyone.rulecard import rule_card
from twentyone.web.storage.db import make_engine
from web_support import FakeClock, Player, cookie, make_app, players_at, register

NBSP = "\u00a0"


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(make_app(f"sqlite:///{tmp_path}/i18n.db")) as c:
        yield c


def catalog(client: TestClient, lang: str) -> dict[str, Any]:
    r = client.get(f"/api/i18n/{lang}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_catalog_as_json(client: TestClient) -> None:
    ru = catalog(client, "ru")
    assert ru["lang"] == "ru" and ru["name"] == "Русский"
    assert ru["messages"]["Round net {net}"] == "Итог раунда {net}"  # the terminal's message
    assert ru["messages"]["Hit"] == "Ещё"  # a button of the page
    assert ru["messages"]["{n} box"] == ["{n} бокс", "{n} бокса", "{n} боксов"]
    assert ru["messages"]["yes key\u0004y"] == "д"  # a message with a context
    assert ru["plural"]["nplurals"] == 3 and "n % 10" in ru["plural"]["expr"]
    assert ru["number"] == {"decimal": ",", "group": NBSP}
    assert catalog(client, "pt")["number"] == {"decimal": ",", "group": NBSP}  # pt_PT
    assert catalog(client, "hu")["number"] == {"decimal": ",", "group": NBSP}
    en = catalog(client, "en")
    assert en["number"] == {"decimal": ".", "group": ","}
    assert en["messages"]["Hit"] == "Hit" and en["plural"] == {"nplurals": 2, "expr": "(n != 1)"}
    # every language has the same messages
    keys = set(en["messages"])
    assert len(keys) > 300
    for lang in i18n.LANGUAGES:
        assert set(catalog(client, lang)["messages"]) == keys, lang


def test_an_unknown_language_is_named_with_the_six(client: TestClient) -> None:
    r = client.get("/api/i18n/de")
    assert r.status_code == 404
    detail = r.json()["detail"]
    assert "'de'" in detail
    for lang, name in i18n.LANGUAGE_NAMES.items():
        assert f"{lang} ({name})" in detail


def test_the_catalog_is_cacheable_and_documented(client: TestClient) -> None:
    r = client.get("/api/i18n/hu")
    etag = r.headers["etag"]
    assert etag == f'"{r.json()["version"]}"'
    again = client.get("/api/i18n/hu", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/api/i18n/pl").headers["etag"] != etag
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/i18n/{lang}" in paths and "put" in paths["/api/me/language"]
    schema = paths["/api/i18n/{lang}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert schema["schema"]["$ref"].endswith("/Catalog")


def test_the_language_is_remembered_per_account(client: TestClient) -> None:
    token = register(client, "zoltan")
    assert client.get("/api/me", headers=cookie(token)).json()["language"] is None
    r = client.put("/api/me/language", json={"language": "hu"}, headers=cookie(token))
    assert r.status_code == 200 and r.json()["language"] == "hu"
    bad = client.put("/api/me/language", json={"language": "de"}, headers=cookie(token))
    assert bad.status_code == 422 and "'de'" in bad.json()["detail"]
    assert "ru (Русский)" in bad.json()["detail"]
    assert client.put("/api/me/language", json={"language": "ru"}).status_code == 401
    # log out, log in again: the choice is still there
    client.post("/api/logout", headers=cookie(token))
    login = client.post("/api/login", json={"username": "zoltan", "password": "password123"})
    assert login.status_code == 200 and login.json()["language"] == "hu"
    fresh = login.cookies.get("twentyone_session")
    client.cookies.clear()
    assert client.get("/api/me", headers=cookie(fresh)).json()["language"] == "hu"
    cleared = client.put("/api/me/language", json={"language": None}, headers=cookie(fresh))
    assert cleared.json()["language"] is None


def test_each_preset_table_speaks_its_rulebooks_language(client: TestClient) -> None:
    tables = {t["id"]: t for t in client.get("/api/tables").json()}
    assert {t: tables[t]["language"] for t in tables} == i18n.RULEBOOK_LANGUAGES
    ru = tables["ru-online"]
    assert ru["rule_card"] == rule_card(load_rules("ru-online"), "ru")
    hu = client.get("/api/tables/hu-casino", params={"lang": "en"}).json()
    assert hu["rule_card"] == rule_card(load_rules("hu-casino"), "en")
    pt = client.get("/api/tables", params={"lang": "pl"}).json()
    assert all(t["rule_card"] == rule_card(load_rules(t["rules"]), "pl") for t in pt)
    bad = client.get("/api/tables/ru-online", params={"lang": "xx"})
    assert bad.status_code == 422 and "en (English)" in bad.json()["detail"]


def test_refusals_carry_their_catalog_message(client: TestClient) -> None:
    """Every refusal the page may show (HTTP and WebSocket) names a message of the catalogs
    with its parameters; the English text is that message filled in."""
    ru = catalog(client, "ru")["messages"]
    seen = []
    bad = client.post("/api/login", json={"username": "nobody", "password": "password123"})
    seen.append(bad.json())
    short = client.post("/api/register", json={"username": "ab", "password": "password123"})
    seen.append(short.json())
    missing = client.get("/api/tables/nowhere")
    seen.append(missing.json())
    token = register(client, "ann")
    with client.websocket_connect("/ws/tables/ru-online", headers=cookie(token)) as ws:
        ann = Player(ws, "ann")
        ann.recv()
        seen.append(ann.do("bet", box=0, amount=100))  # not seated
        ann.ok("sit")
        seen.append(ann.do("bet", box=0, amount=10**9))  # above the maximum
        seen.append(ann.do("ready"))  # no bet
        seen.append(ann.do("fold"))
    for answer in seen:
        english = answer.get("detail") or answer["error"]
        assert answer["message"].format(**answer["params"]) == english
        assert answer["message"] in ru, answer["message"]
        assert ru[answer["message"]] != answer["message"]
    assert seen[0]["message"] == "wrong username or password"
    assert seen[1]["params"] == {"username": "ab"}
    assert seen[4]["params"]["bet"] == 10**9 and seen[4]["params"]["max"] > 0
    assert seen[4]["code"] == "outside-limits" and seen[3]["code"] is None


def test_notices_carry_their_catalog_message(tmp_path: Path) -> None:
    clock = FakeClock()
    app = make_app(f"sqlite:///{tmp_path}/n.db", {"ru-online": "TS 9H 8D 7C TC"}, clock=clock)
    with TestClient(app) as client:
        token = register(client, "ivan")
        ru = client.get("/api/i18n/ru").json()["messages"]
        with players_at(client, "ru-online", {"ivan": token}) as (ivan,):
            ivan.ok("sit")
            ivan.ok("bet", box=0, amount=1000)
            ivan.do("deal")
            start = ivan.until(lambda m: m["type"] == "notice")
            assert start["message"] == "round {round}: no more bets"
            clock.advance(60)
            late = ivan.until(lambda m: m["type"] == "notice" and m["kind"] == "default-action")
            assert late["params"] == {"player": "ivan", "decision": "stand", "default": "stand"}
            end = ivan.until(lambda m: m["type"] == "notice" and m["kind"] == "round-end")
            assert end["params"] == {"round": start["params"]["round"], "summary": {"ivan": 1000}}
            for notice in (start, late, end):
                assert notice["message"] in ru and ru[notice["message"]] != notice["message"]


def test_an_old_database_gains_the_language_column(tmp_path: Path) -> None:
    """A database made before the languages (revision 0001) is migrated on start."""
    from alembic import command
    from alembic.config import Config

    from twentyone.web.storage.db import MIGRATIONS

    url = f"sqlite:///{tmp_path}/old.db"
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "0001")
    with engine.begin() as connection:
        columns = [row[1] for row in connection.execute(text("PRAGMA table_info(accounts)"))]
    engine.dispose()
    assert "language" not in columns
    with TestClient(make_app(url)) as client:
        token = register(client, "old_timer")
        r = client.put("/api/me/language", json={"language": "pl"}, headers=cookie(token))
        assert r.json()["language"] == "pl"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_pages_plural_rule_matches_gettexts_without_eval(
    client: TestClient, lang: str, tmp_path: Path
) -> None:
    # The page's CSP forbids eval (new Function): i18n.js parses the catalog's plural
    # expression itself; it must pick the form gettext picks for every count.
    expr = client.get(f"/api/i18n/{lang}").json()["plural"]["expr"]
    module = tmp_path / "i18n.mjs"
    static = Path(i18n.__file__).parent / "web" / "static" / "i18n.js"
    module.write_text(static.read_text("utf-8"), "utf-8")
    script = (
        f"import {{ pluralRule }} from {json.dumps(module.as_uri())};"
        f"const r = pluralRule({json.dumps(expr)});"
        "console.log(JSON.stringify(Array.from({length: 2001}, (_, n) => r(n))));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    want = gettext.c2py(expr)
    assert json.loads(out.stdout) == [want(n) for n in range(2001)]


def test_the_languages_doc_says_the_table_offers_and_points_nowhere_outside() -> None:
    """docs/i18n.md (issue 29): a table offers its language and never picks it, and the doc
    points at no file a clone does not have (the rulebooks and the reviews are described)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "i18n.md").read_text()
    assert "shared/" not in doc
    browser = doc.split("### In the browser", 1)[1].split("\n## ", 1)[0]
    assert "sitting down never changes it" in browser
    assert "Jogar em português" in browser and "the table's language" not in browser


#: The forms a Polish and a Russian reader expects for 1, 2, 5 and 22 seconds (their grammars:
#: one, a few (2-4, 22-24), many), written out here, not taken from the catalogs.
SECONDS = {
    "pl": {1: "1 sekundę", 2: "2 sekundy", 5: "5 sekund", 22: "22 sekundy"},
    "ru": {1: "1 секунду", 2: "2 секунды", 5: "5 секунд", 22: "22 секунды"},
    "en": {1: "1 second", 2: "2 seconds", 5: "5 seconds", 22: "22 seconds"},
}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
def test_a_counted_refusal_takes_the_plural_form_of_the_pages_language(tmp_path: Path) -> None:
    """Issue 29: a refusal of the web's own that counts ("try again in {seconds} seconds")
    is a plural message: the server says which parameter counts, its English is "1 second",
    and the page (i18n.js, ui.js's serverText, with the catalogs the server serves) writes the
    form each language's grammar asks for."""
    app = make_app(f"sqlite:///{tmp_path}/p.db", login_limits=("2 per 1 second",))
    with TestClient(app) as client:
        register(client, "ann")
        for _ in range(2):
            client.post("/api/login", json={"username": "ann", "password": "wrong-password"})
        r = client.post("/api/login", json={"username": "ann", "password": "wrong-password"})
        catalogs = {lang: catalog(client, lang) for lang in SECONDS}
    assert r.status_code == 429
    refusal = r.json()
    assert refusal["params"] == {"seconds": 1} and refusal["count"] == "seconds"
    assert refusal["detail"] == "too many attempts: try again in 1 second"
    assert refusal["message"] == "too many attempts: try again in {seconds} second"
    # the page's modules as served, run by node against the served catalogs
    static = Path(i18n.__file__).parent / "web" / "static"
    page = tmp_path / "static"
    shutil.copytree(static, page)
    (page / "package.json").write_text('{"type": "module"}', "utf-8")
    served = tmp_path / "catalogs.json"
    served.write_text(json.dumps(catalogs), "utf-8")
    script = f"""
import {{ readFileSync }} from "node:fs";
globalThis.document = {{ documentElement: {{}}, querySelectorAll: () => [] }};
const catalogs = JSON.parse(readFileSync({json.dumps(str(served))}, "utf-8"));
const answer = (url) => catalogs[url.split("/").pop()];
globalThis.fetch = async (url) => ({{ ok: true, json: async () => answer(url) }});
const {{ load }} = await import({json.dumps((page / "i18n.js").as_uri())});
const {{ serverText }} = await import({json.dumps((page / "ui.js").as_uri())});
const refusal = {json.dumps(refusal)};
const out = {{}};
for (const lang of Object.keys(catalogs)) {{
  await load(lang);
  out[lang] = {{}};
  for (const n of [1, 2, 5, 22]) {{
    out[lang][n] = serverText(refusal.message, {{ ...refusal.params, seconds: n }}, refusal.count);
  }}
}}
console.log(JSON.stringify(out));
"""
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    shown = json.loads(run.stdout)
    for lang, forms in SECONDS.items():
        for n, words in forms.items():
            assert words in shown[lang][str(n)], (lang, n, shown[lang][str(n)])
    assert shown["ru"]["1"] == "слишком много попыток: повторите через 1 секунду"


def test_the_webs_counted_refusals_carry_the_count_over_the_websocket() -> None:
    """A refused intention that counts carries ``count`` with its singular message, as an
    HTTP refusal does (the database out of reach: "try again in 5 seconds")."""
    from twentyone.web.refusal import UNAVAILABLE, TableError
    from twentyone.web.ws import _error

    reply = _error(7, TableError(UNAVAILABLE, counted="seconds", seconds=5))
    assert reply["error"] == "the database is unavailable: try again in 5 seconds"
    assert reply["message"] == UNAVAILABLE[0] and reply["count"] == "seconds"
    assert "count" not in _error(7, TableError("not valid JSON"))
    ru = i18n.translator("ru").ngettext(*UNAVAILABLE, 21).format(seconds=21)
    assert ru == "база данных недоступна: повторите через 21 секунду"
