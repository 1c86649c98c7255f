"""The one exception type for a rejected eval input, carrying where the problem is."""

from __future__ import annotations


class EvalFileError(Exception):
    """A user error in an eval file: says what is wrong and where (file, line and column, case
    id, field)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        case_id: str | None = None,
        field: str | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column  # 1-based, where the YAML parser stopped; only with a line
        self.case_id = case_id
        self.field = field

    def located(self, file: str) -> EvalFileError:
        """The same error, naming `file` (set once the caller knows which file it was)."""
        return EvalFileError(
            self.message,
            file=file,
            line=self.line,
            case_id=self.case_id,
            field=self.field,
            column=self.column,
        )

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        parts = [where]
        if self.case_id is not None:
            parts.append(f"case {self.case_id!r}")
        if self.field:
            parts.append(self.field)
        return ": ".join(parts) + ": " + self.message


def field_path(field: str | None) -> tuple[str | int, ...]:
    """The keys and indexes of a field name such as `input[2].content`."""
    if not field:
        return ()
    path: list[str | int] = []
    for part in field.replace("]", "").replace("[", ".").split("."):
        if part:
            path.append(int(part) if part.isdigit() else part)
    return tuple(path)
