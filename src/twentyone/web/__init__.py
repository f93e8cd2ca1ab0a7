"""The web table: a FastAPI server with accounts, a double-entry ledger and live tables.

Start it with ``twentyone serve``; :func:`twentyone.web.app.create_app` builds the app.
The protocol between the server and the page is described in ``docs/protocol.md``.
"""
