"""Refusals the page translates: an HTTP error or a refused table intention carries the
English text and its catalog message (marked with ``N_``) with the parameters that fill it."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException


class Refusal(HTTPException):
    """An HTTP error the page translates: ``detail`` is the English text, ``message`` the
    catalog message (marked with ``N_``) and ``params`` its placeholders' values; the app's
    handler answers ``{"detail", "message", "params"}``.

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
    filled in."""

    def __init__(
        self,
        message: str,
        field: str | None = None,
        value: Any = None,
        *,
        detail: str | None = None,
        **params: Any,
    ) -> None:
        super().__init__(detail if detail is not None else message.format(**params))
        self.message = message
        self.params = params
        self.field = field
        self.value = value
