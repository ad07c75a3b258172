"""The API's OpenAPI description, derived from the calls' own declarations.

Starlette's ``SchemaGenerator`` reads YAML written into each endpoint's docstring: a second
statement of the fields beside the code that checks them. Here the document is built from
[`ENDPOINTS`][pickomino_rules.web._api.ENDPOINTS] (each call's path, required and optional
fields, docstring) and the fields' schemas, the same declarations the server checks
requests by; each rule option's schema is its declared range (minimum, maximum, lengths).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from pickomino_rules import __version__
from pickomino_rules.registry import available_variants, get_variant
from pickomino_rules.strict_json import jsonable
from pickomino_rules.web._api import ENDPOINTS, FIELDS, setup

__all__ = ["openapi"]

_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {"type": "string", "description": "What was wrong, for a person to read."},
        "problems": {
            "type": "array",
            "description": "For a position found wrong: each problem and the part of the "
            "table it is about (tiles, turn, dice, part:NAME or position).",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
}

_REFUSED = {  # the statuses a call may refuse a request with
    "400": "The body is not JSON, lacks or adds a field, or names something that is not so.",
    "403": "A write sent by a page of another origin.",
    "408": "The body did not arrive within the server's deadline (10 s).",
    "409": "The request is well formed but not possible now (the game is over, ...), or the "
    "record was not dealt by this server (its seal does not check: viewed and analysed only).",
    "413": "The body, or the record to read, is too large.",
    "415": "The body is not sent as application/json.",
    "503": "The server has as many connections open as it takes (`pickomino serve`, before "
    "the app).",
}


def _doc(function: object) -> tuple[str, str]:
    text = inspect.getdoc(function) or ""
    summary, _, rest = text.partition("\n")
    return summary.strip(), rest.strip()


def _refusals() -> dict[str, Any]:
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {status: {"description": why, "content": error} for status, why in _REFUSED.items()}


def _schema_name(variant: str) -> str:
    """The name of a variant's options schema (OpenAPI allows letters, digits, ``.-_``)."""
    return "Options." + re.sub(r"[^A-Za-z0-9._-]", "_", variant)


def _options() -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``options`` field's schema and each variant's options schema, by schema name.

    Each option's schema is its declared range's (`Option.range`): what the server accepts,
    with its minimum, maximum and lengths.
    """
    schemas: dict[str, Any] = {}
    for name in available_variants():
        properties = {}
        for option in get_variant(name).options:
            assert option.range is not None  # noqa: S101 (every option has one once made)
            properties[option.name] = {
                **option.range.schema(),
                "description": f"{option.rule}: {option.doc}. Values: {option.range.describe()}.",
                "default": jsonable(option.default),
            }
        schemas[_schema_name(name)] = {
            "type": "object",
            "description": f"The options of {name}.",
            "properties": properties,
            "additionalProperties": False,
        }
    field = {
        **FIELDS["options"],
        "anyOf": [{"$ref": f"#/components/schemas/{schema}"} for schema in schemas],
    }
    return field, schemas


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the web app's JSON API."""
    paths: dict[str, Any] = {}
    options, option_schemas = _options()
    fields = {**FIELDS, "options": options}
    summary, description = _doc(setup)
    paths["/api/setup"] = {
        "get": {
            "summary": summary,
            "description": description,
            "responses": {"200": {"description": "The variants and the bots."}},
        }
    }
    for endpoint in ENDPOINTS:
        summary, description = _doc(endpoint.answer)
        names = (*endpoint.required, *endpoint.optional)
        body = {
            "type": "object",
            "required": list(endpoint.required),
            "properties": {name: fields[name] for name in names},
            "additionalProperties": False,
        }
        paths[endpoint.path] = {
            "post": {
                "summary": summary,
                "description": description,
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": body}},
                },
                "responses": {"200": {"description": "The answer."}, **_refusals()},
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "pickomino_rules web app",
            "version": __version__,
            "description": "Play, ask and analyse Pickomino. The server keeps no game: each "
            "request carries its record or position.",
        },
        "paths": paths,
        "components": {"schemas": {"Error": _ERROR, **option_schemas}},
    }
