"""YAML merge keys (`<<: *defaults`) as AgentV reads them, and back as the file spells them.

AgentV parses every eval file with YAML 1.1 merge keys on: the mapping (or each mapping of a
list of them, the first winning) under `<<` is merged into the mapping that holds it, and the
keys written in that mapping win. The project's reader keeps `<<` as a key, so a stored
document is the file as spelled and is written back with its anchors and merge keys
(docs/formats.md, "Merge keys"). What AgentV sees — formatting, the editor, the preview — is
`merged(document)`; a document edited in that merged view is given its merge keys back by
`respelled`.
"""

from __future__ import annotations

from typing import Any

MERGE_KEY = "<<"


def is_merge(key: Any, value: Any) -> bool:
    """Whether a mapping entry is a merge key: `<<` holding a mapping or a list of mappings."""
    if key != MERGE_KEY:
        return False
    if isinstance(value, dict):
        return True
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def has_merge_keys(value: Any) -> bool:
    """Whether `value` holds a merge key at any depth."""
    # Every case is asked this as it is formatted: a mapping's `<<` is looked up rather than
    # each key compared, and only mappings and lists are visited (not the texts).
    if isinstance(value, dict):
        if MERGE_KEY in value and is_merge(MERGE_KEY, value[MERGE_KEY]):
            return True
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return False
    for item in items:  # noqa: SIM110 - a loop: any() of a generator is half as fast again
        if isinstance(item, (dict, list)) and has_merge_keys(item):
            return True
    return False


def merged(value: Any) -> Any:
    """`value` as AgentV reads it: every merge key at any depth merged into its mapping, keys
    written in the mapping winning (and, for a list of sources, the first source). `value`
    itself when it holds no merge key."""
    if not has_merge_keys(value):
        return value
    return _merged(value)


def _merged(value: Any) -> Any:
    if isinstance(value, list):
        return [_merged(item) for item in value]
    if not isinstance(value, dict):
        return value
    result: dict[Any, Any] = {}
    explicit = {key for key, item in value.items() if not is_merge(key, item)}
    for key, item in value.items():
        if not is_merge(key, item):
            result[key] = _merged(item)
            continue
        # The merged keys take the place of `<<`, as AgentV's parser inserts them there.
        for source in item if isinstance(item, list) else [item]:
            for inner, inner_value in _merged(source).items():
                if inner not in explicit and inner not in result:
                    result[inner] = inner_value
    return result


def respelled(edited: Any, spelled: Any) -> Any:
    """`edited` (a document changed in its merged view) with the merge keys of `spelled` (the
    document as the file spells it) kept: a value still equal to what the merge gives stays
    given by it, a changed one is written in the mapping (where it wins), and mappings and
    lists of the same shape keep their own merge keys. A key only the merge gives cannot be
    removed without removing the merge; it stays."""
    if not has_merge_keys(spelled) or has_merge_keys(edited):
        return edited  # nothing to keep, or merge keys written anew (pasted YAML, the API)
    if edited == merged(spelled):
        return spelled
    if isinstance(edited, list) and isinstance(spelled, list) and len(edited) == len(spelled):
        return [respelled(new, old) for new, old in zip(edited, spelled, strict=True)]
    if not (isinstance(edited, dict) and isinstance(spelled, dict)):
        return edited
    given = _given_by_merges(spelled)
    document: dict[Any, Any] = {}
    for key, value in spelled.items():
        if is_merge(key, value):
            document[key] = value
        elif key in edited:
            document[key] = respelled(edited[key], value)
    for key, value in edited.items():
        if key in document:
            continue
        if key in given and value == given[key]:
            continue  # still what the merge gives: left to it
        document[key] = value
    return document


def _given_by_merges(spelled: dict[Any, Any]) -> dict[Any, Any]:
    """What the merge keys of `spelled` give its mapping (before its own keys win)."""
    given: dict[Any, Any] = {}
    for key, value in spelled.items():
        if is_merge(key, value):
            for source in value if isinstance(value, list) else [value]:
                for inner, inner_value in merged(source).items():
                    given.setdefault(inner, inner_value)
    return given
