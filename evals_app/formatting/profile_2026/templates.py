"""The Nunjucks subset AgentV renders test fields with (docs/formatting.md, "The AgentV 2026
profile", step 1).

Only `{{ expression }}` output tags are read: names and dotted members (`{{ vars.x }}`,
`{{ a.b }}`), string and number literals, `true`/`false`/`null`, arithmetic (`+ - * / %`, `//`,
`**`, parentheses), `~` to join text. No autoescape. Undefined names and members render as empty
text; `{{ env.NAME }}` is AgentV's environment at run time, which a preview cannot know, so it
renders empty and leaves a warning. Nothing is ever evaluated as Python: the expression is
parsed here and only the operations above exist.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# AgentV keeps a field's raw value (a list, a mapping, a number) when the whole field is one
# simple reference (its interpolation.ts, WHOLE_SIMPLE_TEMPLATE_VAR_PATTERN).
_WHOLE_REFERENCE = re.compile(
    r"\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}\s*"
)
_TAG = re.compile(r"\{\{(.*?)\}\}|\{#.*?#\}", re.DOTALL)
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>\d+(?:\.\d+)?)
      | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<operator>\*\*|//|==|!=|<=|>=|[-+*/%~().<>\[\]])
    )""",
    re.VERBOSE,
)


class _Undefined:
    """A name or member that does not exist: renders as empty text."""

    def __repr__(self) -> str:
        return "Undefined"


UNDEFINED: Any = _Undefined()


class TemplateSyntaxError(ValueError):
    """An output tag this renderer cannot read."""


@dataclass
class TemplateContext:
    """The variables of one test and the warnings rendering them raises."""

    variables: Mapping[str, Any]
    warnings: list[str] = field(default_factory=list)

    def scope(self) -> dict[str, Any]:
        """Names a template sees: each variable, and all of them as `vars`."""
        return {**self.variables, "vars": dict(self.variables)}

    def warn(self, message: str) -> None:
        """Record `message` once."""
        if message not in self.warnings:
            self.warnings.append(message)


def render_value(value: Any, context: TemplateContext) -> Any:
    """Render every string of `value` at any depth; a string that is one whole reference to a
    defined variable becomes that variable's raw value."""
    if isinstance(value, str):
        return render_field(value, context)
    if isinstance(value, list):
        return [render_value(item, context) for item in value]
    if isinstance(value, dict):
        return {key: render_value(item, context) for key, item in value.items()}
    return value


def render_field(text: str, context: TemplateContext) -> Any:
    """One string field: the whole-value rule, else its text rendered."""
    whole = _WHOLE_REFERENCE.fullmatch(text)
    if whole is not None:
        found = lookup(context.scope(), whole.group(1))
        if found is not UNDEFINED:
            return found
    return render_text(text, context)


def render_text(text: str, context: TemplateContext) -> str:
    """`text` with each output tag replaced by its value as text; comments are dropped."""
    if "{{" not in text and "{#" not in text:
        return text
    scope = context.scope()

    def replace(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression is None:
            return ""
        if re.match(r"\s*env\.", expression):
            name = expression.strip()
            context.warn(
                f"`{{{{ {name} }}}}` is AgentV's environment when it runs; the preview "
                "renders it empty."
            )
            return ""
        try:
            return as_text(evaluate(expression, scope))
        except TemplateSyntaxError as error:
            context.warn(
                f"the template `{match.group(0)}` cannot be read ({error}); kept as written."
            )
            return match.group(0)

    return _TAG.sub(replace, text)


def lookup(scope: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path, UNDEFINED when a step is missing or not a mapping."""
    current: Any = scope
    for part in dotted.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return UNDEFINED
        current = current[part]
    return current


def as_text(value: Any) -> str:
    """A value as Nunjucks prints it (JavaScript's rules): nothing for null and undefined,
    `true`/`false`, integral numbers without `.0`, lists joined by commas."""
    if value is None or value is UNDEFINED:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    if isinstance(value, list):
        return ",".join("" if item is None else as_text(item) for item in value)
    if isinstance(value, Mapping):
        return "[object Object]"
    return str(value)


def evaluate(expression: str, scope: Mapping[str, Any]) -> Any:
    """The value of one output tag's expression."""
    parser = _Parser(_tokens(expression), scope)
    value = parser.expression()
    if parser.position != len(parser.tokens):
        raise TemplateSyntaxError(f"unexpected {parser.tokens[parser.position][1]!r}")
    return value


def _tokens(expression: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    stripped = expression.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            raise TemplateSyntaxError(f"cannot read {stripped[position:].strip()!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    if not tokens:
        raise TemplateSyntaxError("the tag is empty")
    return tokens


def _number(value: Any) -> float | int:
    """JavaScript's unary plus, for arithmetic on what a template holds."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return float(value) if value.strip() else 0
        except ValueError:
            return math.nan
    return math.nan


def _divide(left: Any, right: Any) -> float | int:
    numerator, denominator = _number(left), _number(right)
    if denominator == 0:
        if numerator == 0 or math.isnan(numerator):
            return math.nan
        return math.inf if numerator > 0 else -math.inf
    result = numerator / denominator
    return int(result) if float(result).is_integer() else result


def _add(left: Any, right: Any) -> Any:
    if isinstance(left, str) or isinstance(right, str):
        return as_text(left) + as_text(right)
    return _number(left) + _number(right)


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add,
    "-": lambda left, right: _number(left) - _number(right),
    "*": lambda left, right: _number(left) * _number(right),
    "/": _divide,
    "//": lambda left, right: math.floor(_divide(left, right)),
    "%": lambda left, right: (
        math.fmod(_number(left), _number(right)) if _number(right) else math.nan
    ),
    "~": lambda left, right: as_text(left) + as_text(right),
}
_LEVELS: tuple[tuple[str, ...], ...] = (("~",), ("+", "-"), ("*", "/", "//", "%"))


class _Parser:
    """Recursive descent over the tokens of one expression, evaluating as it goes."""

    def __init__(self, tokens: list[tuple[str, str]], scope: Mapping[str, Any]) -> None:
        self.tokens = tokens
        self.scope = scope
        self.position = 0

    def expression(self, level: int = 0) -> Any:
        if level == len(_LEVELS):
            return self.power()
        value = self.expression(level + 1)
        while self._peek() in _LEVELS[level]:
            operator = self._next()
            value = _BINARY[operator](value, self.expression(level + 1))
        return value

    def power(self) -> Any:
        base = self.unary()
        if self._peek() == "**":
            self._next()
            exponent = self.power()
            try:
                return _number(base) ** _number(exponent)
            except (OverflowError, ZeroDivisionError):
                return math.nan
        return base

    def unary(self) -> Any:
        if self._peek() in ("-", "+"):
            sign = self._next()
            value = _number(self.unary())
            return -value if sign == "-" else value
        return self.member(self.atom())

    def member(self, value: Any) -> Any:
        while self._peek() in (".", "["):
            if self._next() == ".":
                kind, name = self._take()
                if kind != "name":
                    raise TemplateSyntaxError("a member name must follow `.`")
                key: Any = name
            else:
                key = self.expression()
                self._expect("]")
            value = _member(value, key)
        return value

    def atom(self) -> Any:
        kind, token = self._take()
        if kind == "number":
            return float(token) if "." in token else int(token)
        if kind == "string":
            return re.sub(r"\\(.)", r"\1", token[1:-1])
        if kind == "name":
            if token in ("true", "True"):
                return True
            if token in ("false", "False"):
                return False
            if token in ("null", "none", "None"):
                return None
            return self.scope.get(token, UNDEFINED)
        if token == "(":
            value = self.expression()
            self._expect(")")
            return value
        raise TemplateSyntaxError(f"unexpected {token!r}")

    def _peek(self) -> str | None:
        if self.position < len(self.tokens):
            kind, token = self.tokens[self.position]
            return token if kind == "operator" else None
        return None

    def _next(self) -> str:
        return self._take()[1]

    def _take(self) -> tuple[str, str]:
        if self.position >= len(self.tokens):
            raise TemplateSyntaxError("the expression ends too early")
        token = self.tokens[self.position]
        self.position += 1
        return token

    def _expect(self, token: str) -> None:
        if self._next() != token:
            raise TemplateSyntaxError(f"expected {token!r}")


def _member(value: Any, key: Any) -> Any:
    if isinstance(value, Mapping):
        return value.get(key if isinstance(key, str) else as_text(key), UNDEFINED)
    if isinstance(value, list) and isinstance(key, int) and not isinstance(key, bool):
        return value[key] if 0 <= key < len(value) else UNDEFINED
    if isinstance(value, str) and key == "length":
        return len(value)
    if isinstance(value, list) and key == "length":
        return len(value)
    return UNDEFINED
