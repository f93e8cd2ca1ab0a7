"""One form of address per language (issue 15, item 6), in the terminal and on the page alike:
the catalogs are shared, so a marker of the other form anywhere is a slip.

- ro: formal (dumneavoastră, "scrieți", "vă"), never tu / tău / "-te" / 2nd-person singular verbs
  ("pierzi", "câștigi", "nu stai": the second review found them on the felt; the Insure button's
  "Asigură", now "Asigurați"; "se asigură", one insures, is no address; "stai" is allowed
  only as the stand action's name, the rulebook's word, where the msgid names that action);
- hu: formal (Ön, "írjon", "üljön"), never te or the informal forms the reviews found, among
  them every past-tense te-form in -tál/-tél ("Vesztettél", "Nyertél");
- pl: the 2nd person singular the catalog uses throughout ("wpisz", "twój"), never Pan / Pani
  and no informal plural ("Obstawiajcie");
- pt (European): formal ("o seu", "escreva"), never você (impolite in pt-PT) or tu;
- ru: вы, never ты.

docs/i18n.md ("Form of address") says why each language has the form it has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[1] / "src" / "twentyone" / "locale"

#: The marks of the form a language does not use (whole words, any case).
OTHER_FORM = {
    "ro": r"\b(tu|tău|tale|tăi|ție|ți|ești|ai pus|primești|pariezi|privești|renunți|încearcă|"
    r"apasă|alege|selectează|ia loc|pierzi|câștigi|stai)\b|-te\b|(?<!\bse )\basigură\b",
    "hu": r"\b(te|téged|neked|veled|tiéd|próbáld|nyomd|jelöld|másold|válassz|regisztrálj|tegyél|"
    r"tegyétek|ülj|állj|következel|játszol|ülsz|nézed|kapod|visszakapod|feladod|megtetted|"
    r"egyenleged|köreid|köröd|zsetonod|blackjackedre|vagy itt)\b|\b\w+(tál|tél)\b",
    "pl": r"\b(Pan|Pani|Pana|Panu|Panią|Państwo|Państwa|Obstawiajcie)\b|\b\w+(ajcie|ujcie|ijcie)\b",
    "pt": r"\b(você|vocês|tu|teu|tua|teus|tuas|ti|contigo)\b",
    "ru": r"\b(ты|тебя|тебе|тобой|твой|твоя|твоё|твое|твои|твоего|твоей|твоих|твоим)\b",
}

#: A mark of the form it does use, which the catalog must hold somewhere.
OWN_FORM = {
    "ro": r"\bdumneavoastră\b",
    "hu": r"\bÖn\b",
    "pl": r"\b(twój|twoja|twoje|twojego|twojej)\b",
    "pt": r"\b(o seu|a sua|os seus|as suas)\b",
    "ru": r"\b(ваш|ваша|ваше|ваши|вы)\b",
}


#: Words of the other form that are also the rulebook's name of an action, allowed where the msgid
#: names the action: ro "stai" is the stand action ("Stai", "dublu, altfel stai"), and a
#: 2nd-person singular verb anywhere else ("nu stai la această masă": "nu stați").
ACTION_WORDS = {"ro": (r"\bstai\b", r"\bstand")}

#: Romanian buttons in the informal imperative (2nd person singular), which is also the
#: 3rd person present ("Dealerul verifică"), so only a message that starts with one (a button,
#: a prompt) is a slip: the formal imperative ends in -ți ("Anulați", "Împărțiți"). The third
#: re-read found the page's Anulează, Verifică, Șterge, Copiază, Descarcă and Împarte.
RO_INFORMAL_BUTTON = re.compile(
    r"^(Anulează|Verifică|Șterge|Copiază|Descarcă|Împarte|Alege|Apasă|Încearcă|Asigură|"
    r"Păstrează|Schimbă|Privește|Salvează|Renunță|Joacă|Pariază|Ia|Scrie|Spune)\b"
)


def _slips(lang: str, strings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    other = re.compile(OTHER_FORM[lang], re.IGNORECASE)
    word, action = ACTION_WORDS.get(lang, (None, None))
    slips = []
    for msgid, s in strings:
        if word and action and re.search(action, msgid, re.IGNORECASE):
            s = re.sub(word, "", s, flags=re.IGNORECASE)
        if other.search(s) or (lang == "ro" and RO_INFORMAL_BUTTON.match(s)):
            slips.append((msgid, s))
    return slips


def _strings(lang: str) -> list[tuple[str, str]]:
    with open(LOCALE / lang / "LC_MESSAGES" / "twentyone.po", "rb") as fh:
        cat = read_po(fh, locale=lang)
    out: list[tuple[str, str]] = []
    for m in cat:
        if not m.id:
            continue
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for s in forms:
            assert isinstance(s, str), (msgid, s)
            out.append((msgid, s))
    return out


@pytest.mark.parametrize("lang", sorted(OTHER_FORM))
def test_one_form_of_address(lang: str) -> None:
    slips = _slips(lang, _strings(lang))
    assert slips == [], f"{lang}: the other form of address in {slips}"
    own = re.compile(OWN_FORM[lang], re.IGNORECASE)
    assert any(own.search(s) for _, s in _strings(lang)), f"{lang}: {OWN_FORM[lang]} never used"


@pytest.mark.parametrize(
    ("lang", "slip"),
    [
        ("ro", "Soldul tău"),
        ("ro", "Renunți acum?"),
        ("ro", "Pierzi 5,00"),
        ("ro", "Câștigi 5,00"),
        ("ro", "nu stai la această masă"),
        ("hu", "Feladod most?"),
        ("hu", "Egyenleged"),
        ("hu", "Vesztettél: 5,00"),
        ("hu", "Nyertél: 5,00"),
        ("hu", "Duplázták, kértél lapot"),
        ("pl", "Czy Pan chce?"),
        ("pt", "você ganhou"),
        ("ru", "твой ход"),
    ],
)
def test_the_markers_catch_the_other_form(lang: str, slip: str) -> None:
    assert re.search(OTHER_FORM[lang], slip, re.IGNORECASE)


def test_romanian_stai_is_allowed_only_as_the_stand_action() -> None:
    pairs = [
        ("Stand", "Stai"),
        ("double, else stand", "dublu, altfel stai"),
        ("you are not seated at this table", "nu stai la această masă"),
    ]
    assert _slips("ro", pairs) == [pairs[2]]


def test_romanian_buttons_are_formal_imperatives() -> None:
    pairs = [
        ("Undo", "Anulează"),
        ("Deal", "Împarte"),
        ("Copy replay JSON", "Copiază JSON-ul rundei"),
        ("Undo", "Anulați"),
        ("Deal", "Împărțiți"),
        ("The dealer checks the hole card: no blackjack.", "Dealerul verifică a doua carte"),
    ]
    assert _slips("ro", pairs) == pairs[:3]


def test_the_felt_speaks_the_form_of_address() -> None:
    """The win/lose line on the felt every round (felt.js), where both reviews found slips."""
    from twentyone.i18n import Words

    for lang, lose, win, seated in [
        ("ro", "Pierdeți 5", "Câștigați 5", "nu stați la această masă"),
        ("hu", "Veszteség: 5", "Nyeremény: 5", "nem ül ennél az asztalnál"),
    ]:
        w = Words(lang)
        assert w._("You lose {amount}", amount=5) == lose
        assert w._("You win {amount}", amount=5) == win
        assert w._("you are not seated at this table") == seated


def test_surrender_has_a_noun_on_the_rule_card_and_a_verb_on_the_button() -> None:
    from twentyone.i18n import Words

    for lang, heading, button in [
        ("ru", "Капитуляция", "Сдаться"),
        ("pl", "Poddanie", "Poddaj się"),
        ("pt", "Desistência", "Desistir"),
        ("ro", "Renunțare", "Renunțați"),
        ("hu", "Feladás", "Felad"),
        ("en", "Surrender", "Surrender"),
    ]:
        w = Words(lang)
        assert (w._p("rule card heading", "Surrender"), w._("Surrender")) == (heading, button)


def test_european_portuguese_plural_zero_takes_the_plural() -> None:
    from twentyone.i18n import Words

    w = Words("pt")
    counts = {n: w._n("{n} deck", "{n} decks", n) for n in (0, 1, 2, 1_000_000)}
    assert counts == {
        0: "0 baralhos",
        1: "1 baralho",
        2: "2 baralhos",
        1_000_000: "1000000 de baralhos",
    }


def test_hungarian_multiples_carry_no_suffix_against_vowel_harmony() -> None:
    from twentyone.i18n import Words

    w = Words("hu")
    # "3-szeresét" broke vowel harmony (3 = három: "3-szorosát"); a sign needs no suffix
    assert w._n("{n} time", "{n} times", 3) == "3×"
    assert w._("{fraction} times", fraction="5/2") == "5/2×"
    strings = [s for _, s in _strings("hu")]
    assert not [s for s in strings if re.search(r"\}-sz[eoö]r", s)]
