"""The terminal game's input layer: print a line, read an answer, ask yes/no or an amount.

Amounts are lines (``input()`` when standard input is the real one). An action or a yes/no
answer is one key, without Enter, when standard input is a terminal (read raw through
``termios``: :meth:`Prompter.read_key`); with piped input it is a line too, so the game plays
the same scripted. Keys typed in the Russian (ЙЦУКЕН) layout count as the Latin key in the
same place (:func:`~twentyone.terminal.text.latin_key`). Piped answers are echoed so the
transcript reads like a session.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from rich.console import Console
from rich.text import Text

from twentyone.engine.errors import IllegalActionError
from twentyone.terminal.text import _, latin_key, money, parse_amount, reason, yes_no_keys


class EndOfInput(Exception):
    """Standard input ended (or was interrupted): the game finishes the round and stops."""


class Prompter:
    """Reads answers from ``stdin`` and prints through ``console``."""

    def __init__(self, stdin: TextIO, console: Console) -> None:
        self.stdin = stdin
        self.console = console
        self.echo = not _isatty(stdin)
        self.interrupted = False
        #: one key answers a question (no Enter): standard input is a terminal termios drives
        self.single_keys = _can_read_keys(stdin)

    def say(self, *parts: str | Text, style: str | None = None) -> None:
        """Print one line (``str`` parts are plain text, never markup)."""
        self.console.print(Text.assemble(*parts), style=style)

    def refuse(self, message: str) -> None:
        """Print a refusal (indented, yellow)."""
        self.say(Text("  " + message, style="yellow"))

    def read(self, prompt: str | Text) -> str:
        """Print ``prompt`` and read one line; the end of input raises :class:`EndOfInput`."""
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
            raise EndOfInput from None
        except KeyboardInterrupt:
            self.console.print()
            self.interrupted = True
            raise EndOfInput from None
        line = line.rstrip("\r\n")
        if self.echo:
            self.console.print(Text(line))
        return line.strip()

    def read_key(self, prompt: str | Text) -> str:
        """Print ``prompt`` and read one answer: a single key (no Enter; Enter reads as ``""``)
        where :attr:`single_keys`, else a line (:meth:`read`). The end of input or Ctrl-C
        raises :class:`EndOfInput`."""
        if not self.single_keys:
            return self.read(prompt)
        fd = self.stdin.fileno()
        try:
            with _cbreak(fd):  # before the prompt shows: a key typed after it is never echoed
                self.console.print(Text.assemble(prompt, " "), end="")
                self.console.file.flush()
                key = _read_one_key(fd).replace("\x00", "")
        except KeyboardInterrupt:
            key = "\x03"
        if key in ("\x03", "\x04"):  # Ctrl-C, Ctrl-D (the terminal's own keys are off)
            self.console.print()
            self.interrupted = key == "\x03"
            raise EndOfInput from None
        key = "" if key in ("\r", "\n") else key
        self.console.print(Text(key if key.isprintable() else ""))
        return key

    def ask_yes_no(self, prompt: str | Text) -> bool:
        """A yes/no question; Enter answers no (shown as ``y/N``; the keys are the language's,
        ``y``/``n`` are always understood too, and the keys in their places of the Russian
        layout)."""
        y, n = yes_no_keys()
        while True:
            answer = self.read_key(Text.assemble(prompt, f" {y}/{n.upper()} ›")).lower()
            if answer in (y, "y", "yes", _("yes")):
                return True
            if answer in ("", n, "n", "no", _("no")):
                return False
            if latin_key(answer) in ("y", "n"):  # "н"/"т" where the language has no such key
                return latin_key(answer) == "y"
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


def _can_read_keys(stream: TextIO) -> bool:
    """Whether one key can be read from ``stream`` without Enter (a terminal, with termios)."""
    if not _isatty(stream):
        return False
    try:
        import termios

        termios.tcgetattr(stream.fileno())
    except (ImportError, OSError, ValueError, AttributeError):
        return False
    return True


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """The terminal ``fd`` in cbreak mode (each key at once, no echo; Ctrl-C still
    interrupts), restored afterwards."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _read_one_key(fd: int) -> str:
    """One key pressed on the terminal ``fd`` (in cbreak mode): a whole UTF-8 character
    (``"р"`` is two bytes); an escape sequence (an arrow key) is returned as it came."""
    data = os.read(fd, 8)
    while data and data[0] != 0x1B:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            if len(data) >= 4:
                return data.decode("utf-8", "replace")
            data += os.read(fd, 1)
    return "\x04" if not data else data.decode("utf-8", "replace")
