"""The rules and the game: cards, shoes, rules and their compiled form, the round, the table
session and the Ledger protocol.

No I/O beyond reading rule files, and nothing from the analysis, the simulator or the front
ends: they reach the engine through its public names (``import-linter`` checks it, see
``docs/architecture.md``).
"""
