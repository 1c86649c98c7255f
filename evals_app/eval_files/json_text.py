"""YAML data as JSON text and back, key order and non-string keys kept.

The database stores documents as JSON text, and the editor carries parts of a case through
hidden form fields as JSON; both must give back exactly the data a YAML file held.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# One encoder for every value: `json.dumps` with options builds a new one per call, and an
# import encodes a few hundred thousand values.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
# JSON object keys are strings, but YAML's may be numbers or booleans (`score_ranges: {0: …}`)
# and must come back as they were (docs/formats.md, "Round trip"). Such a mapping is stored as
# `{"\u0000typed-keys": [[key, value], ...]}`; a NUL never starts a key of a real document.
TYPED_KEYS = "\x00typed-keys"
_TYPED_KEYS_JSON = json.dumps(TYPED_KEYS)[1:-1]


def encode_json(value: Any) -> str:
    """`value` as JSON text, mappings with non-string keys tagged so they decode as they were."""
    try:
        # Written in C by orjson, several times faster than json's encoder, where it can be.
        text = orjson.dumps(value, option=_ORJSON_PLAIN_DATA)
    except TypeError:  # a key that is not a string, an integer beyond 64 bits, a lone
        # surrogate, an object: json's encoder writes each as it always has (or refuses it)
        return _ENCODER.encode(tag_typed_keys(value))
    if b"null" in text:  # orjson writes NaN and the infinities as null; json's encoder not
        return _ENCODER.encode(value)
    return text.decode("utf-8")


# Objects that orjson would write and json's encoder refuses (dataclasses, dates) or writes
# otherwise (subclasses of str, int, dict and list) are left to json's encoder.
_ORJSON_PLAIN_DATA = (
    orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def tag_typed_keys(value: Any) -> Any:
    """`value` with each mapping that has keys other than strings tagged (see TYPED_KEYS);
    `value` itself when it has none (nearly always)."""
    return _tag_typed_keys(value) if has_typed_keys(value) else value


def has_typed_keys(value: Any) -> bool:
    """Whether any mapping in `value` has a key that is not a string (JSON cannot write it)."""
    try:
        # orjson refuses a key that is not a string, and walks the data in C: most values
        # need no walk in Python.
        orjson.dumps(value)
    except TypeError:  # such a key, or what orjson never writes (an integer beyond 64 bits)
        return _has_typed_keys(value)
    return False


def decode_json(text: str) -> Any:
    """The value `encode_json` wrote."""
    if _TYPED_KEYS_JSON not in text:  # nearly always: no hook, C speed
        return json.loads(text)
    return json.loads(text, object_hook=_untag)


def _has_typed_keys(value: Any) -> bool:
    if isinstance(value, dict):
        return any(type(key) is not str for key in value) or any(
            _has_typed_keys(item) for item in value.values() if isinstance(item, (dict, list))
        )
    if isinstance(value, list):
        return any(_has_typed_keys(item) for item in value if isinstance(item, (dict, list)))
    return False


def _tag_typed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        if all(type(key) is str for key in value):
            return {key: _tag_typed_keys(item) for key, item in value.items()}
        return {TYPED_KEYS: [[key, _tag_typed_keys(item)] for key, item in value.items()]}
    if isinstance(value, list):
        return [_tag_typed_keys(item) for item in value]
    return value


def _untag(mapping: dict[str, Any]) -> dict[Any, Any]:
    if len(mapping) == 1 and TYPED_KEYS in mapping:
        return dict(mapping[TYPED_KEYS])
    return mapping
