"""``python -m twentyone``: the command line."""

from twentyone.cli import entry

entry()
