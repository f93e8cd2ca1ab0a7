"""Players read house names, not rules' file names (issue 29): the lobby and the table's view
carry the house whose rules a table deals (its rules file's ``[house]``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from twentyone.web.tables import TableConfig
from web_support import make_app, players_at, register


def test_tables_name_the_house_whose_rules_they_deal(tmp_path: Any) -> None:
    tables = [
        TableConfig(id="pt-casino", rules="pt-casino"),
        TableConfig(id="sala-2", rules="pt-casino", name="Sala 2"),
        TableConfig(id="plain", rules="6D S17"),
    ]
    with TestClient(make_app(f"sqlite:///{tmp_path}/h.db", tables=tables)) as client:
        lobby = {t["id"]: t for t in client.get("/api/tables").json()}
        token = register(client, "ann")
        with players_at(client, "sala-2", {"ann": token}) as (ann,):
            view = ann.view
    assert lobby["pt-casino"]["name"] == lobby["pt-casino"]["house"] == "Lisbon Casino"
    assert (lobby["sala-2"]["name"], lobby["sala-2"]["house"]) == ("Sala 2", "Lisbon Casino")
    assert lobby["plain"]["house"] is None
    assert view is not None and view["table"]["house"] == "Lisbon Casino"
