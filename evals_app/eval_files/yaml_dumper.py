"""Writes plain data as readable YAML that the strict loader reads back to the same data.

Multi-line strings become block scalars (`|`, `|-`) so exported files diff well. A string is
quoted whenever YAML 1.1 *or* 1.2 would read it as something else (`no`, `0o17`, `1_000`), so
the file means the same to AgentV, to PyYAML's defaults and to our loader.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml._yaml import CEmitter
from yaml.nodes import ScalarNode

from .merge_keys import is_merge
from .yaml_emitter import Unsupported, emit_yaml
from .yaml_loader import core_tag_of_plain_scalar

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Resolver(yaml.resolver.Resolver):
    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        tag: str = super().resolve(kind, value, implicit)
        if kind is ScalarNode and implicit[0] and tag == _STR_TAG:
            return core_tag_of_plain_scalar(value)
        return tag


class _Dumper(CEmitter, yaml.representer.SafeRepresenter, _Resolver):
    def __init__(self, stream: Any, **kwargs: Any) -> None:
        CEmitter.__init__(
            self,
            stream,
            allow_unicode=True,
            # `yaml.dump` passes width=None, so libyaml's default of 80 columns applies (and
            # yaml_emitter folds long lines the same way).
            width=kwargs.get("width", 1_000_000),
            indent=2,
            encoding=None,
        )
        yaml.representer.SafeRepresenter.__init__(self, sort_keys=False)
        _Resolver.__init__(self)


def _represent_str(dumper: yaml.representer.SafeRepresenter, value: str) -> ScalarNode:
    # Text that ends in blank lines needs "keep" chomping (`|+`), after which PyYAML ends the
    # document with `...`; such rare strings are double-quoted instead.
    block = "\n" in value and not value.endswith("\n\n") and value.strip("\n") != ""
    style = "|" if block else None
    return dumper.represent_scalar(_STR_TAG, value, style=style)


_Dumper.add_representer(str, _represent_str)


def _represent_dict(dumper: yaml.representer.SafeRepresenter, value: dict[Any, Any]) -> Any:
    # A merge key is written as the plain `<<` it was (merge_keys.py): tagged as a merge, the
    # emitter finds it needs no quotes, which it gives any other `<<`.
    node = dumper.represent_mapping("tag:yaml.org,2002:map", value)
    for (key_node, _), (key, item) in zip(node.value, value.items(), strict=True):
        if is_merge(key, item):
            key_node.tag = _MERGE_TAG
    return node


_Dumper.add_representer(dict, _represent_dict)


def dump_yaml(data: Any) -> str:
    """Serialise `data` (dicts, lists and scalars) as a YAML document.

    The fast writer in yaml_emitter handles what the export writes; PyYAML the rest.
    """
    try:
        return emit_yaml(data)
    except Unsupported:
        return dump_yaml_with_pyyaml(data)


def dump_yaml_with_pyyaml(data: Any) -> str:
    """`dump_yaml` done by PyYAML alone: the reference the fast writer is tested against."""
    text: str = yaml.dump(data, Dumper=_Dumper)
    return text
