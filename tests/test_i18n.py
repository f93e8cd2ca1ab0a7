"""The six languages: complete catalogs, compiled catalogs in sync, money for each locale, the
terminal game with no English left, and each preset's rule card in its rulebook's words.

The game below is worked out by hand (ru-online: 6 decks, peek, insurance costs half the bet,
double on any two cards, the dealer stands on soft 17). Round 1: bet 10.00 on 5H 6D against the
dealer's AS; insured for 5.00; the dealer peeks (hole 9C: no blackjack), so the insurance is
lost (-5.00); the hand doubles to 20.00 and draws TC (21); the dealer's A 9 is a soft 20 and
stands, so the hand wins 20.00: round net +15.00. Round 2: bet 10.50 (typed with the locale's
decimal comma) on TS 7D against 9H, hole 8C: both 17, a push, net 0. Then the input ends:
bankroll 1,000.00 -> 1,015.00 (1 000,00 -> 1 015,00 in Russian).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from twentyone import i18n
from twentyone.engine.rulesets import load_rules
from twentyone.engine.shoe import StackedShoe
from twentyone.rulecard import rule_card
from twentyone.terminal.game import play

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "twentyone" / "locale"
KEYWORDS = {
    "_": None,
    "N_": None,
    "_n": (1, 2),
    "Nn_": (1, 2),
    "_p": ((1, "c"), 2),
    "gettext": None,
}


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with open(LOCALE / lang / "LC_MESSAGES" / "twentyone.po", "rb") as fh:
        return read_po(fh, locale=lang)


def _fields(text: str) -> set[tuple[str, str | None]]:
    """The named placeholders of a message, with their conversions: ``{text!r}`` ->
    ``("text", "r")``."""
    return {(name, conv) for _, name, _, conv in Formatter().parse(text) if name is not None}


def _source_messages() -> set[str | tuple[str, str]]:
    """Every message the code marks for translation (what ``pybabel extract`` finds with
    babel.cfg: the Python package, the page's JavaScript and index.html's data-i18n texts)."""
    ids: set[str | tuple[str, str]] = set()
    with open(ROOT / "babel.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)  # type: ignore[no-untyped-call]
    methods = {method for _, method in method_map}
    assert {"python", "javascript", "twentyone.web.extract.extract_html"} <= methods
    for _, _, msg, _, _ in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        ids.add(msg if isinstance(msg, str) else tuple(msg[:2]))  # type: ignore[arg-type]
    return {m for m in ids if m}


# ---------------------------------------------------------------------------- catalogs
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    cat = _catalog(lang)
    in_code = _source_messages()
    in_catalog = {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id}
    assert in_code - in_catalog == set(), f"{lang}: messages missing from the catalog"
    assert len(in_catalog) >= 350  # the terminal's, the rule cards' and the web page's
    for m in cat:
        if not m.id:
            continue
        assert "fuzzy" not in m.flags, f"{lang}: fuzzy {m.id!r}"
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        english = m.id[-1] if isinstance(m.id, tuple) else m.id
        assert len(forms) == (cat.num_plurals if isinstance(m.id, tuple) else 1)
        for form in forms:
            assert form.strip(), f"{lang}: no translation of {m.id!r}"
            assert _fields(form) == _fields(english), f"{lang}: placeholders of {m.id!r}"


def test_every_message_of_the_page_is_extracted() -> None:
    """Each string literal the page's JavaScript passes to ``_``, ``N_``, ``_n`` or ``_p`` is in
    the catalogs (a call the javascript extractor cannot see, e.g. one inside a template
    literal's ``${}``, would be shown untranslated)."""
    static = ROOT / "src" / "twentyone" / "web" / "static"
    literal = r'"((?:[^"\\]|\\.)*)"'
    found: set[str | tuple[str, str]] = set()
    for path in static.glob("*.js"):
        code = path.read_text(encoding="utf-8")
        for m in re.finditer(rf"(?<![\w.])(?:N_|_|_n)\(\s*{literal}", code):
            found.add(json.loads(f'"{m[1]}"'))  # a JS string's escapes read as JSON
        for m in re.finditer(rf"(?<![\w.])_p\(\s*{literal}\s*,\s*{literal}", code):
            found.add((m[1], m[2]))
    assert len(found) > 100
    cat = _catalog("ru")
    in_catalog = {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}
    in_catalog |= {(m.context, m.id) for m in cat if m.context and isinstance(m.id, str)}
    assert found - in_catalog == set()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_catalog_matches_its_po(lang: str) -> None:
    cat = _catalog(lang)
    buf = io.BytesIO()
    write_mo(buf, cat)
    mo = LOCALE / lang / "LC_MESSAGES" / "twentyone.mo"
    assert mo.read_bytes() == buf.getvalue(), f"{mo} is stale: run pybabel compile"


@pytest.mark.parametrize(
    ("lang", "nplurals", "decks"),
    [
        ("ru", 3, {1: "1 колода", 2: "2 колоды", 5: "5 колод", 11: "11 колод", 22: "22 колоды"}),
        ("pl", 3, {1: "1 talia", 4: "4 talie", 5: "5 talii", 12: "12 talii", 22: "22 talie"}),
        ("ro", 3, {1: "1 pachet", 6: "6 pachete", 20: "20 de pachete"}),
        ("hu", 2, {1: "1 pakli", 6: "6 pakli"}),
        ("en", 2, {1: "1 deck", 6: "6 decks"}),
    ],
)
def test_plural_forms(lang: str, nplurals: int, decks: dict[int, str]) -> None:
    assert _catalog(lang).num_plurals == nplurals
    w = i18n.Words(lang)
    assert {n: w._n("{n} deck", "{n} decks", n) for n in decks} == decks


# ---------------------------------------------------------------------------- numbers
NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "1,234.50"),
        ("ro", "1.234,50"),
        ("pt", f"1{NBSP}234,50"),  # pt-PT (Babel's pt_PT), not Brazil's 1.234,50
        ("pl", f"1{NBSP}234,50"),
        ("hu", f"1{NBSP}234,50"),
        ("ru", f"1{NBSP}234,50"),
    ],
)
def test_money_for_each_locale(lang: str, text: str) -> None:
    assert i18n.format_money(123_450, lang) == text
    assert i18n.format_money(-123_450, lang) == "-" + text
    assert i18n.parse_amount(text, lang) == 123_450
    assert i18n.format_money(5, lang) == ("0.05" if lang == "en" else "0,05")


def test_amounts_typed_with_a_decimal_comma() -> None:
    assert i18n.parse_amount("10,5", "ru") == 1050
    assert i18n.parse_amount("1 000", "pl") == 100_000
    assert i18n.parse_amount("10.50", "pt") == 1050  # a dot without a comma: ten and a half
    assert i18n.parse_amount("1.234,50", "pt") == 123_450  # dots still group, as typed in Brazil
    assert i18n.parse_amount("1,000.25", "en") == 100_025
    with pytest.raises(ValueError):
        i18n.parse_amount("dziesięć", "pl")


def test_choice_of_language() -> None:
    assert i18n.choose_language("ru_RU") == "ru"
    assert i18n.choose_language(None, {"LANG": "hu_HU.UTF-8"}) == "hu"
    assert i18n.choose_language(None, {"LANG": "hu_HU.UTF-8", "LC_ALL": "pt_PT.UTF-8"}) == "pt"
    assert i18n.choose_language(None, {"LANGUAGE": "de:ro", "LANG": "pl_PL"}) == "ro"
    assert i18n.choose_language(None, {"LANG": "C.UTF-8"}) == "en"
    assert i18n.choose_language(None, {}) == "en"
    with pytest.raises(i18n.LanguageError) as err:
        i18n.choose_language("de", {"LANG": "ru_RU"})
    for lang in i18n.LANGUAGES:
        assert lang in str(err.value)


# ---------------------------------------------------------------------------- the game
YES = {"en": "y", "ro": "d", "pl": "t", "pt": "s", "hu": "i", "ru": "д"}
#: English words of the game's screens (whole words): none may be left in a translation.
ENGLISH = [
    "Bankroll", "Bet", "bet", "box", "Box", "Insurance", "insure", "Result", "Round", "Rounds",
    "played", "Session", "summary", "Hands", "won", "lost", "pushed", "Biggest", "win", "push",
    "hit", "stand", "double", "paid", "against", "vs", "soft", "End", "input", "checks", "no",
    "Net", "decks", "dealer", "hole", "card", "Bets", "type", "amount", "repeats", "quits",
]  # fmt: skip
#: Words of the list that are the language's own: Portuguese "no" (em + o: "no lugar").
OWN_WORDS = {"pt": ("no",)}
#: Words of each translation that must appear (the rulebooks' terms among them).
EXPECTED = {
    "ro": ["Asigurare", "Cutia", "carte", "stai", "dublu", "câștig", "egalitate", "Rezultat"],
    "pl": ["Ubezpieczenie", "Pole", "dobierz", "stój", "podwój", "wygrana", "remis", "Krupier"],
    "pt": ["Seguro", "Lugar", "carta", "ficar", "duplicar", "ganha", "empate", "Banca"],
    "hu": ["Biztosítás", "játékhely", "lapot kér", "megáll", "dupláz", "nyert", "döntetlen"],
    "ru": ["Страховка", "Бокс", "ещё", "хватит", "удвоить", "выигрыш", "ничья", "Дилер"],
    "en": ["Insurance", "Box 1", "hit", "stand", "double", "win", "push", "Dealer"],
}
SUMMARY = {
    "en": "1,000.00 -> 1,015.00",
    "ro": "1.000,00 -> 1.015,00",
    "pt": f"1{NBSP}000,00 -> 1{NBSP}015,00",
    "pl": f"1{NBSP}000,00 -> 1{NBSP}015,00",
    "hu": f"1{NBSP}000,00 -> 1{NBSP}015,00",
    "ru": f"1{NBSP}000,00 -> 1{NBSP}015,00",
}


def _play(lang: str) -> str:
    amount = "10.50" if lang == "en" else "10,50"
    stdin = io.StringIO("\n".join(["10", YES[lang], "d", amount, "s"]) + "\n")
    out = io.StringIO()
    shoe = StackedShoe("5H AS 6D 9C TC TS 9H 7D 8C")
    code = play("ru-online", stdin=stdin, stdout=out, shoe=shoe, lang=lang, color=False)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_terminal_game_in_each_language(lang: str) -> None:
    text = _play(lang)
    for word in EXPECTED[lang]:
        assert word in text, f"{lang}: {word!r} missing"
    assert SUMMARY[lang] in text  # the bankroll at the end, money in the locale's format
    assert i18n.format_money(1050, lang) in text  # the second bet, typed as 10,50 in the locale
    if lang == "en":
        return
    # what the player reads, less the card symbols, the table's name and the key letters
    body = text.replace("twentyone · ru-online", "").replace("Enter", "")
    words = [w for w in ENGLISH if w not in OWN_WORDS.get(lang, ())]
    left = sorted({w for w in words if re.search(rf"(?<![\w']){w}(?![\w'])", body)})
    assert left == [], f"{lang}: English left: {left}"


def test_english_game_reads_as_before() -> None:
    text = _play("en")
    assert "Insurance. Box 1 against A♠: insure for 5.00 (pays 2:1 on a dealer blackjack)?" in text
    assert "Round net +15.00 · bankroll 1,015.00" in text  # thousands grouped, as the locale
    assert "h hit · s stand · d double ›" in text


def test_lang_environment_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    out = io.StringIO()
    play("ru-online", stdin=io.StringIO("q\n"), stdout=out, color=False)
    assert "Podsumowanie sesji" in out.getvalue()


# ---------------------------------------------------------------------------- rule cards
RULEBOOK_TERMS = {
    ("ro-casino", "ro"): [
        "Asigurare", "Bani egali", "Renunțare timpurie", "Dublu pentru mai puțin", "cutie",
        "separa", "egalitate", "Black Jack", "stai",
    ],
    ("pl-online", "pl"): [
        "Ubezpieczenie", "Bez poddania", "Podwojenie", "rozdziel", "remis", "pole", "dobierz",
        "stój", "Black Jack",
    ],
    ("pt-casino", "pt"): [
        "Seguro", "Pagamento 1:1", "Desistência", "duplicar", "desdobr", "empate", "Banca",
        "ficar", "Black-Jack",
    ],
    ("hu-casino", "hu"): [
        "Biztosítás", "1:1 kifizetés", "Nincs feladás", "Duplázás", "Megosztás", "döntetlen",
        "játékhely", "megáll", "lapot kér",
    ],
    ("ru-online", "ru"): [
        "Страховка", "Капитуляции нет", "Удвоение", "разделить", "ничья", "бокс", "ещё", "хватит",
        "Блекджек",
    ],
}  # fmt: skip


@pytest.mark.parametrize(("preset", "lang"), sorted(RULEBOOK_TERMS))
def test_rule_card_in_the_rulebooks_language(preset: str, lang: str) -> None:
    card = rule_card(load_rules(preset), lang)
    words = " ".join(card.split())
    for term in RULEBOOK_TERMS[preset, lang]:
        assert term in words, f"{preset} in {lang}: {term!r} missing"
    assert "Insurance" not in card and "The dealer" not in card
    if lang == "ru":  # "Сдача" is the deal (сдача из башмака), never the surrender (issue 15)
        assert "Капитуляция" in card and "Сдача\n" not in card and "Сдачи нет" not in card
    assert card == (ROOT / "docs" / "rulecards" / f"{preset}.{lang}.txt").read_text().rstrip("\n")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_house_rule_set_gets_a_card_in_every_language(lang: str) -> None:
    # shorthand, not a preset: every sentence still comes from the catalogs
    card = rule_card(load_rules("8D H17 LS DAS SPL3"), lang)
    assert len(card.splitlines()) > 20
    if lang != "en":
        english = rule_card(load_rules("8D H17 LS DAS SPL3"), "en")
        sentences = {line for line in card.splitlines() if line.startswith("  - ")}
        assert len(sentences) > 15
        assert sentences.isdisjoint(english.splitlines())


def test_every_placeholder_is_filled_where_the_message_is_used() -> None:
    """Each ``_("... {name} ...", name=...)`` call passes exactly the message's placeholders
    (a missing one would raise ``KeyError`` only when that message is shown)."""
    import ast

    checked = 0
    for path in (ROOT / "src" / "twentyone").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name not in ("_", "_n") or not isinstance(node.args[0], ast.Constant):
                continue
            text = node.args[0].value
            assert isinstance(text, str), (path.name, node.lineno)
            fields = {field for field, _ in _fields(text)}
            given = {k.arg for k in node.keywords} | ({"n"} if name == "_n" else set())
            if not node.keywords and name == "_":
                given = set(fields) if not fields else set()  # a plain message is not formatted
            assert fields == given, f"{path.name}:{node.lineno}: {fields} != {given}"
            checked += 1
    assert checked > 150


def test_command_line_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from twentyone.cli import main

    assert main(["rules", "ru-online", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert (
        out.rstrip("\n") == (ROOT / "docs" / "rulecards" / "ru-online.ru.txt").read_text().rstrip()
    )
    monkeypatch.setenv("LANG", "pt_PT.UTF-8")
    assert main(["rules", "pt-casino"]) == 0
    assert "Seguro e pagamento 1:1" in capsys.readouterr().out
    assert main(["rules", "pt-casino", "--lang", "en"]) == 0
    assert "Insurance and even money" in capsys.readouterr().out
    assert main(["rules", "pt-casino", "--lang", "xx"]) == 2
    assert "choose one of en (English), ro (Română)" in capsys.readouterr().err


HINT = {
    "en": "Hint: the chart says hit; stand costs {cost} of your bet on average",
    "ro": "Sfat: tabelul spune carte; „stai” costă în medie {cost} din pariul dumneavoastră",
    "pl": "Podpowiedź: tabela mówi dobierz; „stój” kosztuje średnio {cost} twojej stawki",
    "pt": "Dica: a tabela diz carta; «ficar» custa em média {cost} da sua aposta",
    "hu": "Tipp: a táblázat szerint lapot kér; „megáll” átlagosan a tétje {cost} részébe kerül",
    "ru": "Подсказка: по таблице — ещё; «хватит» в среднем стоит {cost} ставки",
}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_hint_line_in_each_language(lang: str) -> None:
    """``--hints``: ru-online, TS 6D against 8C: the chart hits; the hint says in words what
    standing costs, a percentage with the locale's decimal separator, and standing draws the
    cost line in the language too."""
    out = io.StringIO()
    shoe = StackedShoe("TS 8C 6D 7S 3C")
    stdin = io.StringIO("10\ns\nq\n")
    assert play("ru-online", stdin=stdin, stdout=out, shoe=shoe, lang=lang, hints=True) == 0
    text = out.getvalue()
    point = "." if lang == "en" else ","
    cost = rf"\d+{re.escape(point)}\d\d?%"
    pattern = re.escape(HINT[lang]).replace(re.escape("{cost}"), cost)
    assert re.search(pattern, text), text
    if lang != "en":
        assert "Hint" not in text and "The chart says" not in text
