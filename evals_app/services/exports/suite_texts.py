"""The one way a suite's file is written, by export and publish alike (docs/formats.md, "Round
trip"): from the text it was read as, so that what did not change keeps its bytes; a suite made
in the app, which has no such text, by the app's own writer."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from django.db.models import F, TextField
from django.db.models.functions import Cast

from ...eval_files.errors import EvalFileError
from ...eval_files.faithful_writing import documents_digest, json_digest, rewrite_eval_file
from ...eval_files.reading import FileFormat, read_eval_file
from ...eval_files.writing import eval_file_text
from ...models import Case, Suite, Workspace


def read_digest(text: str, file_format: str) -> str:
    """The digest of what `text`, a suite's file as written, reads as ("" when it does not
    read: then it is never taken as untouched)."""
    try:
        contents = read_eval_file(
            text.removeprefix("\ufeff"), file_format=cast(FileFormat, file_format)
        )
    except EvalFileError:
        return ""
    return documents_digest(contents.header, contents.cases)


def suite_file_text(suite: Suite, cases: list[dict[Any, Any]]) -> str:
    """The text of `suite`'s file holding its header and `cases`: the text as read when they
    are what it reads as, else that text with only the changed lines written anew."""
    file_format = cast(FileFormat, suite.file_format)
    cases_key = suite.cases_key or None
    if suite.source_text is None:
        return eval_file_text(file_format, suite.document, cases_key, cases)
    if suite.source_digest and suite.source_digest == documents_digest(suite.document, cases):
        return suite.source_text  # untouched: no need to read the text to know it
    return rewrite_eval_file(suite.source_text, suite.document, cases, file_format, cases_key)


def untouched_since_base(workspace: Workspace, only: Collection[int] | None = None) -> set[str]:
    """The paths of the suites (of `only`, by primary key, when given) whose file is still
    its text as of the last base: their header and cases are what that text reads as
    (compared by digest of the JSON the database holds, nothing decoded). Their file needs
    no writing (docs/sync.md)."""
    chosen = workspace.suites.all() if only is None else workspace.suites.filter(pk__in=only)
    suites = (
        chosen.filter(source_text__isnull=False, base_source_text=F("source_text"))
        .exclude(source_digest="")
        .annotate(header=Cast("document", TextField()))
        .values_list("pk", "path", "header", "source_digest")
    )
    known = {pk: (path, header, digest) for pk, path, header, digest in suites}
    rows = (
        Case.objects.filter(suite_id__in=list(known))
        .order_by("suite_id", "position")
        .annotate(text=Cast("document", TextField()))
        .values_list("suite_id", "text")
    )
    by_suite: dict[int, list[str]] = {pk: [] for pk in known}
    for suite_pk, text in rows.iterator(chunk_size=2000):
        by_suite[suite_pk].append(text)
    return {
        path
        for pk, (path, header, digest) in known.items()
        if json_digest(header, by_suite[pk]) == digest
    }
