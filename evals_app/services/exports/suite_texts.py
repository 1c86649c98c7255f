"""The one way a suite's file is written, by export and publish alike (docs/formats.md, "Round
trip"): from the text it was read as, so that what did not change keeps its bytes; a suite made
in the app, which has no such text, by the app's own writer."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, cast

from django.db.models import BinaryField, F, Func, QuerySet, TextField
from django.db.models.functions import Cast

from ...eval_files.errors import EvalFileError
from ...eval_files.faithful_writing import documents_digest, json_digest, rewrite_eval_file
from ...eval_files.json_text import encode_json
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
    if suite.source_text is None:
        return rewritten_text(suite, None, cases)
    if suite.source_digest and suite.source_digest == documents_digest(suite.document, cases):
        return suite.source_text  # untouched: no need to read the text to know it
    return rewritten_text(suite, suite.source_text, cases)


def is_untouched(suite: Suite, case_jsons: Iterable[str]) -> bool:
    """Whether `suite`'s header and the cases given as their JSON text as stored (in order)
    are what its text as read reads as, so that its file is that text: compared by digest,
    nothing decoded. `case_jsons` is consumed only when the suite has a digest."""
    if not suite.source_digest:
        return False
    return json_digest(encode_json(suite.document), case_jsons) == suite.source_digest


def rewritten_text(suite: Suite, source_text: str | None, cases: list[dict[Any, Any]]) -> str:
    """The text of `suite`'s file holding its header and `cases`, written from `source_text`
    (its text as read: what did not change keeps its bytes), or by the app's own writer for a
    suite made in the app (`source_text` None)."""
    file_format = cast(FileFormat, suite.file_format)
    cases_key = suite.cases_key or None
    if source_text is None:
        return eval_file_text(file_format, suite.document, cases_key, cases)
    return rewrite_eval_file(source_text, suite.document, cases, file_format, cases_key)


def rewritten_bytes(suite: Suite, source: bytes | None, cases: list[dict[Any, Any]]) -> bytes:
    """`rewritten_text` of the text as read given as its UTF-8 bytes (`source_bytes`),
    as UTF-8."""
    source_text = None if source is None else source.decode("utf-8")
    return rewritten_text(suite, source_text, cases).encode("utf-8")


def source_bytes(suites: QuerySet[Suite]) -> dict[int, bytes]:
    """The text as read of each of `suites` that has one, by primary key, as the UTF-8 bytes
    its file is written as (one query): the database gives them as they are, with no text
    decoded to be encoded again."""
    rows = suites.filter(source_text__isnull=False).values_list("pk", _Utf8("source_text"))
    return {pk: data if isinstance(data, bytes) else data.encode("utf-8") for pk, data in rows}


class _Utf8(Func):
    """A text column's value as its UTF-8 bytes (SQLite and PostgreSQL hold text as UTF-8;
    elsewhere, the text, which `source_bytes` encodes)."""

    template = "%(expressions)s"
    output_field = BinaryField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="CAST(%(expressions)s AS BLOB)")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="convert_to(%(expressions)s, 'UTF8')")


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
