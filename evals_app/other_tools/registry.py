"""Every tool's source, by the name `--from` takes, in the order detection tries them (the most
particular first: a session or an Evals API row would also read as a dataset)."""

from __future__ import annotations

from .base import Source
from .braintrust import Braintrust
from .chat_jsonl import ChatJsonl
from .claude_code import ClaudeCode
from .codex import Codex
from .deepeval import DeepEval
from .inspect_ai import InspectAi
from .langfuse import Langfuse
from .langsmith import LangSmith
from .openai_evals import OpenAiEvals
from .openai_evals_api import OpenAiEvalsApi
from .promptfoo import Promptfoo
from .sharegpt import ShareGpt

SOURCES: tuple[Source, ...] = (
    ClaudeCode(),
    Codex(),
    OpenAiEvalsApi(),
    OpenAiEvals(),
    ShareGpt(),
    ChatJsonl(),
    LangSmith(),
    Langfuse(),
    Braintrust(),
    InspectAi(),
    DeepEval(),
    Promptfoo(),
)
# The names `--from` takes, in the order the documentation lists the tools.
FORMAT_NAMES = (
    "promptfoo",
    "openai-evals",
    "openai-evals-api",
    "chat-jsonl",
    "sharegpt",
    "langsmith",
    "langfuse",
    "braintrust",
    "inspect",
    "deepeval",
    "claude-code",
    "codex",
)
BY_NAME: dict[str, Source] = {source.name: source for source in SOURCES}
# Formats whose files are sessions: a test per chosen user turn (docs/imports.md, "Sessions").
SESSION_FORMATS = frozenset({"claude-code", "codex"})
# The files an import looks at; any other file (a README, an image) is left out, and said so.
DATA_SUFFIXES = (".json", ".jsonl", ".csv", ".yaml", ".yml")


def detect(path: str, text: str) -> Source | None:
    """The source whose format the file at `path` is in, or None."""
    for source in SOURCES:
        if source.detect(path, text):
            return source
    return None
