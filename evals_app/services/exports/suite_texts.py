"""The one way a suite's file is written, by export and publish alike (docs/formats.md, "Round
trip"): from the text it was read as, so that what did not change keeps its bytes; a suite made
in the app, which has no such text, by the app's own writer."""

from __future__ import annotations

from typing import Any, cast

from ...eval_files.faithful_writing import rewrite_eval_file
from ...eval_files.reading import FileFormat
from ...eval_files.writing import eval_file_text
from ...models import Suite


def suite_file_text(suite: Suite, cases: list[dict[Any, Any]]) -> str:
    """The text of `suite`'s file holding its header and `cases`: the text as read when they
    are what it reads as, else that text with only the changed lines written anew."""
    file_format = cast(FileFormat, suite.file_format)
    cases_key = suite.cases_key or None
    if suite.source_text is None:
        return eval_file_text(file_format, suite.document, cases_key, cases)
    return rewrite_eval_file(suite.source_text, suite.document, cases, file_format, cases_key)
