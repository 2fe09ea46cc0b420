"""The JSON Schema of a game data file, derived from the typed model."""

from __future__ import annotations

from typing import Any

from .convert import record_schema
from .model import SECTIONS, ExtraRecord, GameInfo, GameStyle, PlayRules


def game_file_schema() -> dict[str, Any]:
    """Schema for one ``games/<game>/*.yaml`` file: a mapping of sections."""
    defs: dict[str, Any] = {}
    record_schema(GameInfo, defs)
    record_schema(ExtraRecord, defs)
    record_schema(GameStyle, defs)
    record_schema(PlayRules, defs)
    props: dict[str, Any] = {"game": {"$ref": "#/$defs/GameInfo"},
                             "style": {"$ref": "#/$defs/GameStyle"},
                             "play": {"$ref": "#/$defs/PlayRules"}}
    for name, cls in SECTIONS.items():
        record_schema(cls, defs)
        props[name] = {"type": "array", "items": {"$ref": f"#/$defs/{cls.__name__}"}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://warpress.invalid/schema/game-file.json",
        "title": "warpress game data file",
        "description": "One YAML file of a game folder; see `warpress docs data-format`.",
        "type": "object",
        "properties": props,
        "additionalProperties": {
            "type": "array",
            "items": {"$ref": "#/$defs/ExtraRecord"},
            "description": "an extra section declared in game.sections",
        },
        "$defs": defs,
    }
