"""The terminal game's input layer: print a line, read an answer, ask yes/no or an amount.

Every answer is a line read from standard input (``input()`` when it is the real one), so the
game plays the same in a terminal and with piped input; piped answers are echoed so the
transcript reads like a session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from rich.console import Console
from rich.text import Text

from twentyone.errors import IllegalActionError
from twentyone.terminal_text import _, money, parse_amount, reason, yes_no_keys


class _EndOfInput(Exception):
    """Standard input ended (or was interrupted): the game finishes the round and stops."""


class Prompter:
    """Reads answers from ``stdin`` and prints through ``console``."""

    def __init__(self, stdin: TextIO, console: Console) -> None:
        self.stdin = stdin
        self.console = console
        self.echo = not _isatty(stdin)
        self.interrupted = False

    def say(self, *parts: str | Text, style: str | None = None) -> None:
        """Print one line (``str`` parts are plain text, never markup)."""
        self.console.print(Text.assemble(*parts), style=style)

    def refuse(self, message: str) -> None:
        """Print a refusal (indented, yellow)."""
        self.say(Text("  " + message, style="yellow"))

    def read(self, prompt: str | Text) -> str:
        """Print ``prompt`` and read one line; the end of input raises :class:`_EndOfInput`."""
        self.console.print(Text.assemble(prompt, " "), end="")
        self.console.file.flush()
        try:
            if self.stdin is sys.stdin:
                line = input()
            else:
                line = self.stdin.readline()
                if not line:
                    raise EOFError
        except EOFError:
            self.console.print()
            raise _EndOfInput from None
        except KeyboardInterrupt:
            self.console.print()
            self.interrupted = True
            raise _EndOfInput from None
        line = line.rstrip("\r\n")
        if self.echo:
            self.console.print(Text(line))
        return line.strip()

    def ask_yes_no(self, prompt: str | Text) -> bool:
        """A yes/no question; Enter answers no (shown as ``y/N``; the keys are the language's,
        ``y``/``n`` are always understood too)."""
        y, n = yes_no_keys()
        while True:
            answer = self.read(Text.assemble(prompt, f" {y}/{n.upper()} ›")).lower()
            if answer in (y, "y", "yes", _("yes")):
                return True
            if answer in ("", n, "n", "no", _("no")):
                return False
            self.refuse(
                _(
                    "{answer!r} is not an answer: type {y} (yes) or {n} (no); Enter is no",
                    answer=answer,
                    y=y,
                    n=n,
                )
            )

    def ask_amount(
        self, what: str, lo: int, hi: int, full: int, check: Callable[[int], object]
    ) -> int:
        """An amount the engine takes (``check`` raises its :class:`IllegalActionError`
        otherwise: the round's ``verify`` of the decision); ``lo`` to ``hi`` is what the prompt
        offers and Enter takes ``full``."""
        prompt = _(
            "{what} ({lo} to {hi}, Enter = {full}) ›",
            what=what,
            lo=money(lo),
            hi=money(hi),
            full=money(full),
        )
        while True:
            line = self.read(prompt)
            if not line:
                return full
            try:
                amount = parse_amount(line)
            except ValueError as exc:
                self.refuse(str(exc))
                continue
            try:
                check(amount)
            except IllegalActionError as exc:
                if exc.code != "amount-outside":
                    self.refuse(reason(exc))
                    continue
                self.refuse(  # the engine's refusal, told as a prompt tells it
                    _(
                        "{amount} is outside {lo} to {hi}: type an amount",
                        amount=money(exc.params["amount"]),
                        lo=money(exc.params["min"]),
                        hi=money(exc.params["max"]),
                    )
                )
                continue
            return amount


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
