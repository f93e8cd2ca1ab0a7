"""Refusals the page translates: an HTTP error or a refused table intention carries the
English text and its catalog message (marked with ``N_``) with the parameters that fill it; a
refusal of the engine's (a bet outside the limits, a decision it does not allow) also carries
the engine's error code (see :func:`engine_text`)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from twentyone.engine.errors import Nn_, TwentyOneError
from twentyone.i18n import N_, describe, format_money, translator

#: A refusal's catalog message: a plain message (marked with ``N_``), or a counted one's
#: singular and plural (marked with ``Nn_``), its form chosen by the parameter ``counted``
#: names, as gettext's ``ngettext`` chooses it ("1 second", "2 seconds").
Message = str | tuple[str, str]

#: The refusal of a request that needs the database while it is out of reach (HTTP 503, or a
#: refused intention): counted by ``seconds``.
UNAVAILABLE = Nn_(
    "the database is unavailable: try again in {seconds} second",
    "the database is unavailable: try again in {seconds} seconds",
)


def _english(message: Message, counted: str | None, params: dict[str, Any]) -> tuple[str, str]:
    """The catalog's msgid (a counted message's singular) and the English text filled in."""
    if isinstance(message, str):
        return message, message.format(**params)
    if counted is None or not isinstance(params.get(counted), int):
        raise ValueError(f"counted={counted!r}: expected the name of a whole-number parameter")
    singular, plural = message
    return singular, (singular if params[counted] == 1 else plural).format(**params)


#: The engine's reasons that name the player, worded for the player they refuse: the table
#: tells a player their own refusal in the second person (the engine's message names the
#: player, as the shared terminal and the logs need).
YOURS = {"insufficient-funds": N_("you bet {total} but have {balance}")}


class Refusal(HTTPException):
    """An HTTP error the page translates: ``detail`` is the English text, ``message`` the
    catalog message (marked with ``N_``) and ``params`` its placeholders' values; the app's
    handler answers ``{"detail", "message", "params"}``, and ``count`` for a counted message
    (its singular is ``message``; ``count`` names the parameter the page picks the catalog's
    plural form by). What a client sent (a path's id) is passed through
    :func:`~twentyone.web.ws_limits.clip` first: quoted to at most 64 characters.

    >>> r = Refusal(404, "no table {table!r}", table="x")
    >>> r.status_code, r.detail, r.params
    (404, "no table 'x'", {'table': 'x'})
    >>> r = Refusal(429, ("wait {s} second", "wait {s} seconds"), counted="s", s=1)
    >>> r.detail, r.message, r.counted
    ('wait 1 second', 'wait {s} second', 's')
    """

    def __init__(
        self,
        status_code: int,
        message: Message,
        *,
        headers: dict[str, str] | None = None,
        counted: str | None = None,
        **params: Any,
    ) -> None:
        msgid, english = _english(message, counted, params)
        super().__init__(status_code, english, headers=headers)
        self.message = msgid
        self.counted = counted if not isinstance(message, str) else None
        self.params = params

    def body(self) -> dict[str, Any]:
        """The answer's JSON: the English ``detail``, the catalog ``message`` and its
        ``params``, and ``count`` (the parameter that picks the form) for a counted message."""
        out: dict[str, Any] = {"detail": self.detail, "message": self.message}
        out["params"] = self.params
        if self.counted is not None:
            out["count"] = self.counted
        return out


class TableError(Exception):
    """An intention refused; ``field`` and ``value`` name what was wrong. ``message`` is a
    catalog message whose ``{named}`` placeholders ``params`` fill (the page translates it);
    the English text is ``detail`` when given (an engine error says more), else the message
    filled in. ``engine`` is the engine's error when the engine refused (its ``code``). A
    counted message is a pair of singular and plural (``Nn_``) with ``counted`` naming the
    parameter that picks the form, as for :class:`Refusal`.

    >>> e = TableError(("wait {s} second", "wait {s} seconds"), counted="s", s=5)
    >>> str(e), e.message, e.counted
    ('wait 5 seconds', 'wait {s} second', 's')
    """

    def __init__(
        self,
        message: Message,
        field: str | None = None,
        value: Any = None,
        *,
        detail: str | None = None,
        engine: TwentyOneError | None = None,
        counted: str | None = None,
        **params: Any,
    ) -> None:
        msgid, english = _english(message, counted, params)
        super().__init__(detail if detail is not None else english)
        self.message = msgid
        self.counted = counted if not isinstance(message, str) else None
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
