"""The page's languages: each catalog served as JSON, and the language a player chose.

The page uses the same gettext catalogs as the terminal (domain ``twentyone``):
``GET /api/i18n/{lang}`` sends a language's messages (msgid -> translation; a plural message
-> its forms; ``context\\u0004msgid`` for a message with a context), its plural rule and the
number symbols Babel has for the locale. The answer carries an ``ETag`` (a hash of its
content), so a browser revalidates it cheaply.

>>> body = catalog_json("ru")
>>> data = orjson.loads(body)
>>> data["messages"]["Round net {net}"], data["number"]["decimal"], data["plural"]["nplurals"]
('Итог раунда {net}', ',', 3)
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Annotated, Any

import orjson
from babel.messages.mofile import read_mo
from babel.numbers import get_decimal_symbol, get_group_symbol
from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, Field

from twentyone.i18n import DOMAIN, LANGUAGE_NAMES, LANGUAGES, LOCALE_DIR, N_, number_locale
from twentyone.web.auth import current_player, me_of
from twentyone.web.refusal import Refusal
from twentyone.web.schemas import Me
from twentyone.web.storage.accounts import Player
from twentyone.web.ws_limits import clip

#: gettext's separator of a message's context and its msgid.
CONTEXT_SEPARATOR = "\u0004"


def no_such_language(lang: str, status_code: int = status.HTTP_404_NOT_FOUND) -> Refusal:
    """The refusal of a language without a catalog, naming the six there are."""
    names = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
    return Refusal(
        status_code,
        N_("language {lang!r}: no such language; choose one of {languages}"),
        lang=clip(lang),
        languages=names,
    )


class PluralRule(BaseModel):
    """gettext's plural rule of a language: how many forms, and which one a count takes."""

    nplurals: int
    expr: str = Field(description="C expression of n giving the form's index", examples=["n != 1"])


class NumberSymbols(BaseModel):
    """The locale's decimal and group separators (Babel's CLDR data)."""

    decimal: str
    group: str = Field(description="U+00A0 NO-BREAK SPACE in ru, pl and hu")


class Catalog(BaseModel):
    """A language's messages for the page."""

    lang: str
    name: str = Field(description="the language's name in itself")
    version: str = Field(description="a hash of the content (also the ETag)")
    messages: dict[str, str | list[str]] = Field(
        description="msgid -> translation; the singular msgid of a plural message -> its forms; "
        "context + U+0004 + msgid for a message with a context"
    )
    plural: PluralRule
    number: NumberSymbols
    languages: dict[str, str] = Field(description="every language served: code -> its own name")


class LanguageChoice(BaseModel):
    """The player's language (null: no choice, the page decides)."""

    language: str | None = Field(examples=["ru"], json_schema_extra={"enum": [*LANGUAGES, None]})


def _plural_rule(header: str) -> PluralRule:
    """``nplurals=2; plural=(n != 1);`` -> its parts."""
    found = re.search(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?);?\s*$", header)
    if found is None:
        return PluralRule(nplurals=2, expr="n != 1")
    return PluralRule(nplurals=int(found[1]), expr=found[2].strip())


def catalog_json(lang: str) -> bytes:
    """The JSON text of a language's :class:`Catalog` (read from its compiled ``.mo``)."""
    return _catalog(lang)[0]


@cache
def _catalog(lang: str) -> tuple[bytes, str]:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as fh:
        catalog = read_mo(fh)
    messages: dict[str, str | list[str]] = {}
    for m in catalog:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple | list) else m.id
        if m.context:
            key = f"{m.context}{CONTEXT_SEPARATOR}{key}"
        text = m.string
        messages[key] = list(text) if isinstance(text, tuple | list) else str(text or key)
    data: dict[str, Any] = {
        "lang": lang,
        "name": LANGUAGE_NAMES[lang],
        "version": "",
        "messages": dict(sorted(messages.items())),
        "plural": _plural_rule(catalog.plural_forms).model_dump(),
        "number": {
            "decimal": get_decimal_symbol(number_locale(lang)),
            "group": get_group_symbol(number_locale(lang)),
        },
        "languages": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
    }
    data["version"] = hashlib.sha256(orjson.dumps(data)).hexdigest()[:16]
    return orjson.dumps(data), data["version"]


router = APIRouter(prefix="/api", tags=["languages"])


@router.get("/i18n/{lang}", response_model=Catalog)
def get_catalog(lang: str, request: Request) -> Response:
    """A language's messages, plural rule and number symbols for the page (one of en, ro,
    pl, pt, hu, ru; 404 names them for another). Answers 304 to a matching
    ``If-None-Match``."""
    if lang not in LANGUAGES:
        raise no_such_language(lang)
    body, version = _catalog(lang)
    etag = f'"{version}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.put("/me/language", tags=["accounts"])
def put_language(
    choice: LanguageChoice, request: Request, player: Annotated[Player, Depends(current_player)]
) -> Me:
    """Remember the player's language (null forgets the choice); 422 for another language."""
    if choice.language is not None and choice.language not in LANGUAGES:
        raise no_such_language(choice.language, 422)
    request.app.state.accounts.set_language(player.id, choice.language)
    return me_of(request, player)
