"""``python -m twentyone.cli``: the command line (the same as ``python -m twentyone``)."""

from twentyone.cli import entry

entry()
