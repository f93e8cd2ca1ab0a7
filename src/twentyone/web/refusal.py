"""Refusals the page translates: an HTTP error or a refused table intention carries the
English text and its catalog message (marked with ``N_``) with the parameters that fill it; a
refusal of the engine's (a bet outside the limits, a decision it does not allow) also carries
the engine's error code (see :func:`engine_text`)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from twentyone.engine.errors import TwentyOneError
from twentyone.i18n import N_, describe, format_money, translator

#: The engine's reasons that name the player, worded for the player they refuse: the table
#: tells a player their own refusal in the second person (the engine's message names the
#: player, as the shared terminal and the logs need).
YOURS = {"insufficient-funds": N_("you bet {total} but have {balance}")}


class Refusal(HTTPException):
    """An HTTP error the page translates: ``detail`` is the English text, ``message`` the
    catalog message (marked with ``N_``) and ``params`` its placeholders' values; the app's
    handler answers ``{"detail", "message", "params"}``. What a client sent (a path's id) is
    passed through :func:`~twentyone.web.ws_limits.clip` first: quoted to at most 64 characters.

    >>> r = Refusal(404, "no table {table!r}", table="x")
    >>> r.status_code, r.detail, r.params
    (404, "no table 'x'", {'table': 'x'})
    """

    def __init__(
        self,
        status_code: int,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(status_code, message.format(**params), headers=headers)
        self.message = message
        self.params = params


class TableError(Exception):
    """An intention refused; ``field`` and ``value`` name what was wrong. ``message`` is a
    catalog message whose ``{named}`` placeholders ``params`` fill (the page translates it);
    the English text is ``detail`` when given (an engine error says more), else the message
    filled in. ``engine`` is the engine's error when the engine refused (its ``code``)."""

    def __init__(
        self,
        message: str,
        field: str | None = None,
        value: Any = None,
        *,
        detail: str | None = None,
        engine: TwentyOneError | None = None,
        **params: Any,
    ) -> None:
        super().__init__(detail if detail is not None else message.format(**params))
        self.message = message
        self.params = params
        self.field = field
        self.value = value
        self.engine = engine

    @property
    def code(self) -> str | None:
        """The engine's error code, or ``None`` for a refusal of the web table's own (a seat,
        a turn, a message's shape)."""
        return self.engine.code if self.engine is not None else None


def engine_text(refusal: TableError, lang: str) -> str | None:
    """The engine's reason for a refusal in ``lang``, as a player reads it (a box counted from
    1, money for the locale); ``None`` when the engine did not refuse.

    >>> from twentyone.engine.errors import BetError
    >>> err = BetError("outside-limits", box=0, bet=50, min=100, max=900)
    >>> refusal = TableError(err.template.text, "box", 0, engine=err, **err.params)
    >>> engine_text(refusal, "pl")
    'pole 1: stawka 0,50 jest poza limitami stołu od 1,00 do 9,00'
    """
    err = refusal.engine
    if err is None:
        return None
    if refusal.message == YOURS.get(err.code):
        money = {k: format_money(v, lang) for k, v in refusal.params.items() if isinstance(v, int)}
        return translator(lang).gettext(refusal.message).format(**{**refusal.params, **money})
    box = err.params.get("box")
    if refusal.message == err.template.text and isinstance(box, int):
        err = type(err)(err.code, **{**err.params, "box": box + 1})
    return describe(err, lang)
