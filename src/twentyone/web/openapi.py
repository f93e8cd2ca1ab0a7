"""The OpenAPI document as the API really answers: every error is a ``Problem`` (the shape
every refusal and validation error has), and the credentials carry their real constraints,
so a client generated from the document (or a fuzzer) knows what is accepted."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, Field

#: Error statuses the API answers, and when.
ERRORS = {
    "400": "invalid input (the field is named in detail)",
    "401": "not logged in, or wrong username or password",
    "404": "no such table or round",
    "409": "the username is taken",
    "413": "request body too large",
    "422": "an unknown language",
    "429": "too many attempts: Retry-After says how long to wait",
    "503": "the database is unavailable: Retry-After says when to try again",
}


class Problem(BaseModel):
    """An error: the English text, and the catalog message with its parameters (absent for
    input the schema already refuses)."""

    detail: str
    message: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` document :data:`ERRORS` on every operation."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        schemas = doc.setdefault("components", {}).setdefault("schemas", {})
        schemas["Problem"] = Problem.model_json_schema()
        ref = {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
        }
        for path in doc.get("paths", {}).values():
            for operation in path.values():
                responses = operation.setdefault("responses", {})
                for code, why in ERRORS.items():
                    responses[code] = {"description": why, **ref}
        for name in ("HTTPValidationError", "ValidationError"):
            schemas.pop(name, None)
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]
