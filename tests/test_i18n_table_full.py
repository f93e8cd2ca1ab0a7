"""Issue 29: a full table's refusal counts its seats in each language's plural forms (Polish
and Russian have three: one, a few, many), in the terminal, in :func:`twentyone.i18n.describe`
and on the web page (which picks the form from the catalog by the parameter named ``count``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from twentyone import i18n
from twentyone.engine.ledger import MemoryLedger
from twentyone.engine.rulesets import load_rules
from twentyone.engine.session_parts import SessionError
from twentyone.engine.session_seats import Seating
from twentyone.engine.session_state import TableState
from twentyone.terminal.table import refusal_text
from twentyone.terminal.text import use_language
from twentyone.web import tables

#: The refusal's seats counted by hand: Polish 1 miejsce, 2-4 and 22-24 miejsca, else miejsc;
#: Russian 1 (21, 31...) место, 2-4 (22-24...) места, 5-20 мест.
FORMS = {
    "pl": {1: "1 miejsce", 2: "2 miejsca", 5: "5 miejsc", 22: "22 miejsca"},
    "ru": {1: "1 место", 2: "2 места", 5: "5 мест", 22: "22 места"},
    "en": {1: "1 seat", 2: "2 seats", 5: "5 seats", 22: "22 seats"},
}
WORDING = {
    "pl": "stół {table} jest pełny ({seats})",
    "ru": "стол {table} заполнен ({seats})",
    "en": "table {table} is full ({seats})",
}


def _full(seats: int) -> SessionError:
    """The refusal of a table of ``seats`` seats, every one taken (a table seats at most 12:
    the 22's refusal is the 5's with its count changed)."""
    rules = replace(load_rules("ro-casino"), table_boxes=min(seats, 5), boxes_per_player=1)
    state = TableState.create(rules, ledger=MemoryLedger(), clock=lambda: 0.0)
    seating = Seating(state, seat_freed=lambda: None)
    for i in range(rules.table_boxes):
        seating.sit(f"p{i}", i + 1)
    with pytest.raises(SessionError) as info:
        seating.sit("late", 99)
    err = info.value
    if seats != rules.table_boxes:
        assert err.plural is not None
        forms = (err.message, err.plural)
        err = SessionError(forms, counted=err.counted, **{**err.params, "seats": seats})
    return err


@pytest.mark.parametrize("lang", ["pl", "ru", "en"])
@pytest.mark.parametrize("seats", [1, 2, 5, 22])
def test_a_full_tables_seats_take_the_counts_plural_form(lang: str, seats: int) -> None:
    err = _full(seats)
    assert err.counted == "seats" and err.params["seats"] == seats
    want = WORDING[lang].format(table=err.params["table"], seats=FORMS[lang][seats])
    assert i18n.describe(err, lang) == want
    use_language(lang)
    try:
        assert refusal_text(err) == want
    finally:
        use_language("en")
    if lang == "en":
        assert str(err) == want


def test_the_web_page_is_told_which_parameter_counts() -> None:
    err = _full(5)
    refusal = tables._refused(err)
    assert (refusal.message, refusal.counted, refusal.params["seats"]) == (
        err.message,
        "seats",
        5,
    )
    assert str(refusal) == f"table {err.params['table']} is full (5 seats)"
