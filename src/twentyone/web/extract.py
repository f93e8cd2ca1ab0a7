"""A Babel extractor for the page's HTML: the texts marked ``data-i18n`` (an element's text is
the msgid) and the attributes named in ``data-i18n-attr`` (their values are msgids), as the
page's ``i18n.js`` translates them.

babel.cfg names it ``[twentyone.web.extract.extract_html: src/twentyone/web/static/**.html]``.

>>> import io
>>> page = b'<p data-i18n>Hello,\\n  world</p><b title="Tip" data-i18n-attr="title">x</b>'
>>> [(line, msg) for line, _f, msg, _c in extract_html(io.BytesIO(page), [], [], {})]
[(1, 'Hello, world'), (2, 'Tip')]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any


class _Marked(HTMLParser):
    """Collects the marked texts and attributes of a page, with their line numbers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.open: list[tuple[str, int, list[str]]] = []  # marked elements being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attr") or "").replace(",", " ").split():
            if values.get(name):
                self.found.append((line, str(values[name])))
        if "data-i18n" in values:
            self.open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1][0] == tag:
            _tag, line, parts = self.open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def extract_html(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor interface: ``(line, funcname, message, comments)`` per marked text."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, text in parser.found:
        yield line, None, text, []
