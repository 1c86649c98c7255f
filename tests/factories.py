"""Plain functions that build test data: eval files on disk and imported workspaces."""

from __future__ import annotations

import copy
import io
import zipfile
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.text import slugify

from evals_app.eval_files.yaml_dumper import dump_yaml
from evals_app.models import (
    Case,
    Comment,
    CommentThread,
    Membership,
    ReviewEvent,
    Revision,
    Suite,
    Workspace,
    WorkspaceFile,
)
from evals_app.services.api_tokens import create_token
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.summaries import (
    SUMMARY_FIELDS,
    pending_summaries,
    refresh_case,
)
from evals_app.services.imports.folders import import_workspace
from evals_app.services.review.revisions import record_revision


def key_orders(data: Any) -> Any:
    """The order of the keys of every mapping in `data`, and nothing else: `==` on data
    ignores it, while a lossless round trip must keep it."""
    if isinstance(data, dict):
        return [(key, key_orders(value)) for key, value in data.items()]
    if isinstance(data, list):
        return [key_orders(item) for item in data]
    return None


def eval_document(*cases: dict[str, Any], **top_level: Any) -> dict[str, Any]:
    """An `agentv-eval-v2` document with the given cases."""
    return {"$schema": "agentv-eval-v2", **top_level, "evalcases": list(cases)}


def simple_case(case_id: str = "case-1", **fields: Any) -> dict[str, Any]:
    """A valid case with one user turn; keyword arguments override or add keys."""
    return {
        "id": case_id,
        "outcome": "Answers the question.",
        "input_messages": [{"role": "user", "content": "What is 2+2?"}],
        **fields,
    }


def write_files(root: Path, files: dict[str, str | bytes | dict[str, Any]]) -> Path:
    """Write files under `root`: mappings as YAML, strings as text, bytes as they are."""
    for relative, content in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict):
            target.write_text(dump_yaml(content), encoding="utf-8")
        elif isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


def imported_workspace(root: Path, name: str = "Test workspace") -> Workspace:
    """Import the folder `root` and return the workspace."""
    return import_workspace(root, name).workspace


def workspace(name: str = "Team evals", **fields: Any) -> Workspace:
    """A workspace stored directly (no import), its slug derived from `name`."""
    fields.setdefault("slug", slugify(name))
    return Workspace.objects.create(name=name, **fields)


def suite(workspace: Workspace, path: str = "evals/review.yaml", **fields: Any) -> Suite:
    """An eval file of `workspace` spelled as the seeds' files are, with no cases."""
    fields.setdefault("document", {"$schema": "agentv-eval-v2", "evalcases": []})
    return Suite.objects.create(workspace=workspace, path=path, **fields)


def case(
    suite: Suite,
    case_id: str,
    *turns: tuple[str, str],
    outcome: str = "Answers the question.",
    **fields: Any,
) -> Case:
    """A case appended to `suite`, spelled as the seeds' files are; each turn is (role, text) —
    one user turn by default. `document` keys (e.g. `expected_messages=[...]`) may be given."""
    last = suite.cases.order_by("-position").values_list("position", flat=True).first()
    position = 0 if last is None else last + 1  # after any case, imported ones GAP apart too
    messages = [
        {"role": role, "content": text}
        for role, text in (turns or [("user", f"Question of {case_id}")])
    ]
    # Keys that are columns of the row (status, format_warnings, …) go there, the rest to the
    # case's document.
    names = {field.name for field in Case._meta.concrete_fields} - {"case_id", "document"}
    columns = {key: fields.pop(key) for key in list(fields) if key in names}
    document = {"id": case_id, "outcome": outcome, "input_messages": messages, **fields}
    made = Case(suite=suite, position=position, case_id=case_id, document=document, **columns)
    if not columns.keys() & set(SUMMARY_FIELDS):
        refresh_case(made, suite)  # as the app's own saves store it
    made.save(force_insert=True)
    return made


def attach_file(case: Case, value: str) -> Case:
    """`case` with a file block `value` added to its first input turn (saved)."""
    document = case.document
    first = document["input_messages"][0]
    content = first["content"]
    blocks = [{"type": "text", "value": content}] if isinstance(content, str) else content
    first["content"] = [*blocks, {"type": "file", "value": value}]
    refresh_case(case, case.suite)
    case.save()
    return case


def summaries_pending(suite: Suite) -> bool:
    """Whether some case summaries of `suite` (as stored now) wait for the worker."""
    return pending_summaries(Suite.objects.get(pk=suite.pk))


def workspace_file(workspace: Workspace, path: str, text: str = "Some text.\n") -> WorkspaceFile:
    """A stored text file of `workspace`."""
    return WorkspaceFile.objects.create(workspace=workspace, path=path, text=text)


def user(username: str = "alice", password: str | None = "correct horse battery") -> User:
    """A user account; with `password=None`, one that cannot log in with a password (fast: no
    password hashing, enough for `Client.force_login`)."""
    return User.objects.create_user(username=username, password=password)


def admin(username: str = "admin") -> User:
    """A superuser: sees and may do everything in every workspace (like `make run`'s account)."""
    return User.objects.create_superuser(username=username, email="", password=None)


def member(workspace: Workspace, role: str, username: str | None = None) -> User:
    """A user with `role` (owner, editor, reviewer, viewer) in `workspace`."""
    account = user(username or f"{role}-{workspace.slug}", password=None)
    Membership.objects.create(workspace=workspace, user=account, role=role)
    return account


def comment_thread(
    case: Case,
    author: User,
    text: str = "Why this turn?",
    *replies: tuple[User, str],
    turn: int | None = None,
    resolved_by: User | None = None,
) -> CommentThread:
    """A thread on input turn `turn` of `case` (on the whole case by default), started by
    `author`, answered by `replies` (author, text), resolved when `resolved_by` is given."""
    thread = CommentThread.objects.create(
        case=case,
        section="input" if turn is not None else "",
        turn=turn,
        created_by=author,
        resolved_by=resolved_by,
        resolved_at=timezone.now() if resolved_by else None,
    )
    for who, words in ((author, text), *replies):
        Comment.objects.create(thread=thread, author=who, text=words)
    return thread


def revision(case: Case, author: User | None, summary: str = "edited", **changes: Any) -> Revision:
    """The next revision of `case`: its stored mapping with `changes` (keys of the case's YAML
    mapping), saved by `author`."""
    return record_revision(case, author, summary, {**case.document, **changes})


def review_event(
    case: Case, actor: User | None, action: str = ReviewEvent.Action.SUBMITTED, note: str = ""
) -> ReviewEvent:
    """A recorded review step of `case`; the case's status is left as it is."""
    return ReviewEvent.objects.create(
        case=case,
        actor=actor,
        action=action,
        from_status=case.status,
        to_status=case.status,
        note=note,
    )


def database_snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row of the app's models, for checking that nothing changed."""
    return {
        model.__name__: sorted(model.objects.values_list(), key=repr)
        for model in (
            Workspace,
            WorkspaceFile,
            Suite,
            Case,
            Revision,
            ReviewEvent,
            CommentThread,
            Comment,
            Membership,
        )
    }


def property_workspace(folder: Path, document: dict[str, Any]) -> Path:
    """A workspace under `folder` for the property tests: `document` as `evals/suite.yaml`,
    beside a text file with CRLF line ends, a guideline file and a code file to refer to."""
    return write_files(
        folder / "ws",
        {
            "evals/suite.yaml": document,
            "evals/notes.txt": "Some notes.\r\n",
            "g.instructions.md": "Be kind.",
            "sub/code.py": "print(1)\n",
        },
    )


def zip_archive(files: dict[str, str | bytes | dict[str, Any]]) -> bytes:
    """A .zip holding `files` (mappings as YAML, strings as UTF-8 text, bytes as they are)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            if isinstance(content, dict):
                content = dump_yaml(content)
            archive.writestr(name, content)
    return buffer.getvalue()


def api_token(account: User, name: str = "CI") -> str:
    """A new API token of `account`, as its owner would send it."""
    return create_token(account, name)[1]


def edit_input(case_id: str, question: str) -> Case:
    """Save the case `case_id` with `question` as its input, by a user of its own (`ed-ID`),
    as an edit in the app would."""
    case = Case.objects.get(case_id=case_id)
    document = copy.deepcopy(case.document)
    document["input"] = question
    return save_case(case, document, case.version, user(f"ed-{case_id}", None))
