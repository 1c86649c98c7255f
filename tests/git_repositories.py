"""Real git repositories in temporary folders, for the tests of sync and publish."""

from __future__ import annotations

import subprocess
from pathlib import Path

from evals_app.models import Workspace
from evals_app.services.importing import import_workspace


class Repository:
    """A git work tree made for one test, with `git` run in it and files written into it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def git(self, *arguments: str) -> str:
        """Run git in the work tree; its standard output."""
        return subprocess.run(
            ["git", "-C", str(self.path), *arguments], check=True, capture_output=True, text=True
        ).stdout

    def write(self, files: dict[str, str]) -> None:
        for relative, text in files.items():
            target = self.path / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")

    def commit(self, files: dict[str, str] | None = None, message: str = "change") -> str:
        """Write `files`, commit everything, and return the new commit's id."""
        self.write(files or {})
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def remove(self, relative: str) -> str:
        self.git("rm", "-q", relative)
        self.git("commit", "-q", "-m", f"remove {relative}")
        return self.head()

    def head(self, ref: str = "HEAD") -> str:
        return self.git("rev-parse", ref).strip()

    def show(self, ref: str, relative: str) -> str:
        return self.git("show", f"{ref}:{relative}")


def repository(folder: Path) -> Repository:
    """An empty repository on branch `main` with a committer configured."""
    folder.mkdir(parents=True, exist_ok=True)
    made = Repository(folder)
    made.git("init", "-q", "-b", "main")
    made.git("config", "user.name", "Repo Owner")
    made.git("config", "user.email", "owner@example.com")
    made.git("config", "commit.gpgsign", "false")
    return made


def case_yaml(case_id: str, question: str, answer: str = "An answer.") -> str:
    """One case of a 2026 `tests:` list, as the repository's YAML spells it."""
    return f"  - id: {case_id}\n    input: {question}\n    expected_output: {answer}\n"


def suite_yaml(*cases: tuple[str, str]) -> str:
    """An eval file with the cases (id, question)."""
    return "description: Sync tests\ntests:\n" + "".join(
        case_yaml(case_id, question) for case_id, question in cases
    )


def linked_workspace(repo: Repository, name: str = "team") -> Workspace:
    """The workspace imported from the repository's work tree (linked to it)."""
    return import_workspace(repo.path, name, link=True).workspace
