"""Pydantic models of the AgentV `agentv-eval-v2` file format (see shared spec EVAL_YAML.md).

Unknown keys are allowed at every level (`extra="allow"`) so that validation never drops data;
the import keeps them and the export writes them back.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant", "tool"]
ROLES: tuple[Role, ...] = ("system", "user", "assistant", "tool")
EVAL_SCHEMA = "agentv-eval-v2"
CONFIG_SCHEMA = "agentv-config-v2"
DEFAULT_GUIDELINE_PATTERNS: tuple[str, ...] = ("**/*.instructions.md",)


class _Open(BaseModel):
    """Strict types for the fields we know, unknown keys kept as they are."""

    model_config = ConfigDict(extra="allow", strict=True, populate_by_name=True)


class ContentBlock(_Open):
    """One block of a message's content: `text` and `file` are formatted, other types are kept."""

    type: str
    value: str


class Message(_Open):
    """A conversation turn. `content` is a string or a list of blocks (bare strings are text)."""

    role: Role
    content: str | list[ContentBlock | str]

    def blocks(self) -> list[ContentBlock]:
        """The content as a list of blocks, whatever form it was written in."""
        if isinstance(self.content, str):
            return [ContentBlock(type="text", value=self.content)]
        return [
            ContentBlock(type="text", value=item) if isinstance(item, str) else item
            for item in self.content
        ]

    def block_values(self) -> list[tuple[str, str]]:
        """`(type, value)` of each block: what the formatter reads, without building blocks."""
        if isinstance(self.content, str):
            return [("text", self.content)]
        return [
            ("text", item) if isinstance(item, str) else (item.type, item.value)
            for item in self.content
        ]


class Evaluator(_Open):
    """An evaluator of a case: `llm_judge` (optional prompt file or inline text) or `code`."""

    name: str | None = None
    type: str
    prompt: str | None = None
    model: str | None = None
    script: str | None = None
    cwd: str | None = None


class Execution(_Open):
    """Execution settings at file or case level: a target and evaluators."""

    target: str | None = None
    evaluators: list[Evaluator] | None = None


class EvalCase(_Open):
    """One eval case: the conversation, the outcome the judge grades against, and options."""

    id: str
    conversation_id: str | None = None
    outcome: str
    input_messages: list[Message] = Field(min_length=1)
    # A list when present: `null` would be indistinguishable from `[]` once stored.
    expected_messages: list[Message] = Field(default_factory=list)
    execution: Execution | None = None


class EvalFile(_Open):
    """A whole eval YAML file."""

    schema_: Literal["agentv-eval-v2"] = Field(alias="$schema")
    description: str | None = None
    dataset: str | None = None
    target: str | None = None
    execution: Execution | None = None
    evalcases: list[EvalCase]
