"""Repositories linked by URL (docs/sync.md, "Remotes"): a bare repository over file:// and one
served by `git daemon` on 127.0.0.1, linked, checked, published to a new branch and pushed."""

from __future__ import annotations

import copy
import logging
import shlex
import stat
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.core.management import CommandError, call_command

from evals_app.models import ActivityRecord, Case, RepositoryRemote, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.repository import git as git_repository
from evals_app.services.repository.credentials import encrypt, transport_for
from evals_app.services.repository.publishing import PublishRefused
from evals_app.services.repository.remotes import (
    LinkRefused,
    LinkRequest,
    check_for_changes,
    link_remote,
    publish_and_push,
)
from tests import factories
from tests.git_repositories import Repository, bare_remote, git_daemon, repository, suite_yaml

PATH = "evals/suite.eval.yaml"
TOKEN = "ghp_SECRETtoken1234567890"  # noqa: S105


@pytest.fixture
def remote_settings(settings: Any, tmp_path: Path) -> Any:
    """Clones under the test's folder; local repositories allowed under it; a key."""
    settings.AGENTV_REPOSITORIES_DIR = tmp_path / "clones"
    settings.AGENTV_LOCAL_REPOSITORIES_ROOT = str(tmp_path / "remotes")
    settings.AGENTV_CREDENTIALS_KEY = Fernet.generate_key().decode()
    return settings


@pytest.fixture
def upstream(tmp_path: Path) -> Repository:
    """A teammate's work tree with one suite of two cases on `main`."""
    work = repository(tmp_path / "work")
    work.commit({PATH: suite_yaml(("one", "First?"), ("two", "Second?"))})
    return work


@pytest.fixture
def bare(upstream: Repository, tmp_path: Path) -> Repository:
    """The team's repository: a bare one under the local root, `main` as in `upstream`."""
    return bare_remote(upstream, tmp_path / "remotes" / "evals.git")


@pytest.fixture
def daemon(bare: Repository, remote_settings: Any) -> Iterator[str]:
    """The bare repository served by `git daemon` on 127.0.0.1 (git:// allowed for it)."""
    remote_settings.AGENTV_REPOSITORY_PROTOCOLS = ["https", "ssh", "file", "git"]
    with git_daemon(bare.path.parent) as prefix:
        yield prefix + bare.path.name


def _link(url: str, **request: str) -> Workspace:
    workspace = factories.workspace()
    link_remote(workspace, LinkRequest(url=url, branch=request.pop("branch", "main"), **request))
    return workspace


def _edit(case_id: str, question: str) -> None:
    case = Case.objects.get(case_id=case_id)
    document = copy.deepcopy(case.document)
    document["input"] = question
    save_case(case, document, case.version)


def _commits_between(remote: Repository, base: str, branch: str) -> list[str]:
    return remote.git("rev-list", f"{base}..refs/heads/{branch}").split()


@pytest.mark.django_db
def test_linking_clones_the_repository_and_imports_the_folder(
    bare: Repository, remote_settings: Any
) -> None:
    workspace = _link(f"file://{bare.path}", folder="evals")

    workspace.refresh_from_db()
    clone = Path(workspace.repository_path)
    assert clone.parent == remote_settings.AGENTV_REPOSITORIES_DIR
    assert (clone / "HEAD").is_file() and not (clone / ".git").exists()  # bare, no work tree
    assert workspace.base_commit == bare.head("main")
    assert workspace.repository_folder == "evals"
    assert sorted(Case.objects.values_list("case_id", flat=True)) == ["one", "two"]


@pytest.mark.django_db
def test_publish_pushes_one_commit_on_the_base_to_a_new_branch(
    bare: Repository, remote_settings: Any
) -> None:
    workspace = _link(f"file://{bare.path}")
    base = bare.head("main")
    _edit("two", "Second, reworded?")

    published = publish_and_push(workspace, "agentv-web/team-evals-2026-11-26")

    assert published.pushed
    assert _commits_between(bare, base, "agentv-web/team-evals-2026-11-26") == [
        published.result.commit
    ]
    assert bare.git("rev-parse", f"{published.result.commit}^").strip() == base
    assert "Second, reworded?" in bare.show("agentv-web/team-evals-2026-11-26", PATH)
    assert bare.head("main") == base


@pytest.mark.django_db
def test_publish_over_git_daemon_pushes_a_new_branch(
    bare: Repository, daemon: str, remote_settings: Any
) -> None:
    workspace = _link(daemon)
    base = bare.head("main")
    _edit("one", "First, over the network?")

    published = publish_and_push(workspace, "agentv-web/daemon")

    assert _commits_between(bare, base, "agentv-web/daemon") == [published.result.commit]
    assert "First, over the network?" in bare.show("agentv-web/daemon", PATH)


@pytest.mark.django_db
def test_check_for_changes_fetches_the_remote_first(
    upstream: Repository, bare: Repository, daemon: str
) -> None:
    workspace = _link(daemon)
    upstream.commit({PATH: suite_yaml(("one", "First, upstream?"), ("two", "Second?"))})
    upstream.git("push", "-q", str(bare.path), "main:main")

    commit, report = check_for_changes(workspace)

    assert commit == bare.head("main")
    assert report.counts["updated"] == 1


@pytest.mark.django_db
def test_a_push_the_remote_refuses_publishes_nothing(
    upstream: Repository, bare: Repository, remote_settings: Any
) -> None:
    workspace = _link(f"file://{bare.path}")
    base = bare.head("main")
    bare.git("branch", "review", base)
    theirs = upstream.commit({"notes.md": "A teammate's commit.\n"})
    upstream.git("push", "-q", str(bare.path), f"{theirs}:refs/heads/teammate")
    # The teammate's push lands on `review` while the app's push is under way.
    hook = bare.path / "hooks" / "pre-receive"
    # (Outside the quarantine of the objects being received, where git allows no ref update.)
    hook.write_text(
        "#!/bin/sh\nenv -u GIT_QUARANTINE_PATH -u GIT_OBJECT_DIRECTORY "
        f"-u GIT_ALTERNATE_OBJECT_DIRECTORIES git update-ref refs/heads/review {theirs}\n"
    )
    hook.chmod(0o755)
    _edit("two", "Mine?")
    case = Case.objects.get(case_id="two")

    with pytest.raises(PublishRefused, match="the remote refused the push"):
        publish_and_push(workspace, "review")

    workspace.refresh_from_db()
    assert bare.head("review") == theirs
    assert workspace.base_commit == base and workspace.repository_branch == "main"
    assert workspace.pending_publish is None
    assert Case.objects.get(pk=case.pk).base_document == case.base_document
    clone = Path(workspace.repository_path)
    assert git_repository.branch_commit(clone, "review") == base
    assert not ActivityRecord.objects.filter(action=ActivityRecord.Action.PUBLISHED).exists()


@pytest.mark.django_db
def test_a_push_with_a_stale_expected_value_says_the_branch_moved(
    upstream: Repository, bare: Repository, remote_settings: Any
) -> None:
    workspace = _link(f"file://{bare.path}")
    base = bare.head("main")
    moved = upstream.commit({"notes.md": "Moved.\n"})
    upstream.git("push", "-q", str(bare.path), "main:main")
    transport = git_repository.Transport(("file",), {})
    clone = Path(workspace.repository_path)

    with pytest.raises(git_repository.BranchMoved, match="no longer at"):
        git_repository.push_branch(clone, f"file://{bare.path}", transport, base, "main", base)

    assert bare.head("main") == moved


@pytest.mark.django_db
def test_a_token_is_never_stored_logged_or_shown_in_plain_text(
    remote_settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    workspace = factories.workspace()
    request = LinkRequest(
        url="https://127.0.0.1:1/team/evals.git",  # nothing listens: the fetch fails
        branch="main",
        credential_kind="token",
        secret=TOKEN,
    )

    with caplog.at_level(logging.DEBUG), pytest.raises(git_repository.GitError) as refused:
        link_remote(workspace, request)

    assert TOKEN not in str(refused.value)
    assert TOKEN not in caplog.text
    assert not RepositoryRemote.objects.exists()
    assert not Path(
        remote_settings.AGENTV_REPOSITORIES_DIR, f"workspace-{workspace.pk}.git"
    ).exists()


@pytest.mark.django_db
def test_a_stored_token_is_encrypted(bare: Repository, remote_settings: Any) -> None:
    workspace = _link(f"file://{bare.path}")
    RepositoryRemote.objects.filter(workspace=workspace).update(
        credential_kind="token",
        credential=Fernet(remote_settings.AGENTV_CREDENTIALS_KEY).encrypt(TOKEN.encode()),
    )
    stored = RepositoryRemote.objects.values_list().get()

    assert all(
        TOKEN not in str(bytes(value) if isinstance(value, memoryview) else value)
        for value in stored
    )


@pytest.mark.django_db
def test_linking_with_a_credential_without_a_key_is_refused(remote_settings: Any) -> None:
    remote_settings.AGENTV_CREDENTIALS_KEY = ""
    workspace = factories.workspace()
    request = LinkRequest(
        url="https://example.invalid/team/evals.git",
        branch="main",
        credential_kind="token",
        secret=TOKEN,
    )

    with pytest.raises(LinkRefused, match="no AGENTV_CREDENTIALS_KEY"):
        link_remote(workspace, request)

    assert not RepositoryRemote.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("folder", "message"),
    [("../elsewhere", "cannot contain . or .."), ("missing", "has no folder 'missing'")],
)
def test_a_bad_folder_is_refused_and_nothing_is_kept(
    bare: Repository, remote_settings: Any, folder: str, message: str
) -> None:
    workspace = factories.workspace()

    with pytest.raises(LinkRefused, match=message):
        link_remote(workspace, LinkRequest(f"file://{bare.path}", "main", folder))

    workspace.refresh_from_db()
    assert not workspace.linked and not RepositoryRemote.objects.exists()
    assert not any(Path(remote_settings.AGENTV_REPOSITORIES_DIR).glob("*.git"))


@pytest.mark.django_db
def test_a_missing_branch_is_refused(bare: Repository, remote_settings: Any) -> None:
    workspace = factories.workspace()

    with pytest.raises(LinkRefused, match="no branch 'develop'"):
        link_remote(workspace, LinkRequest(f"file://{bare.path}", "develop"))


@pytest.mark.django_db
def test_a_file_url_outside_the_local_root_is_refused(
    upstream: Repository, remote_settings: Any
) -> None:
    workspace = factories.workspace()

    with pytest.raises(LinkRefused, match="AGENTV_LOCAL_REPOSITORIES_ROOT"):
        link_remote(workspace, LinkRequest(f"file://{upstream.path}", "main"))


@pytest.mark.django_db
def test_import_evals_refuses_a_work_tree_outside_the_local_root(
    upstream: Repository, remote_settings: Any
) -> None:
    errors = StringIO()

    with pytest.raises(CommandError, match="nothing was written"):
        call_command("import_evals", str(upstream.path), workspace="team", stderr=errors)

    assert "AGENTV_LOCAL_REPOSITORIES_ROOT" in errors.getvalue()
    assert not Workspace.objects.exists()


def test_a_deploy_key_is_a_private_file_only_while_git_runs(remote_settings: Any) -> None:
    key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----"
    remote = RepositoryRemote(
        url="git@github.com:team/evals.git",
        branch="main",
        credential_kind="ssh_key",
        credential=encrypt(key),
    )

    with transport_for(remote) as transport:
        command = shlex.split(transport.environment["GIT_SSH_COMMAND"])
        key_file = Path(command[command.index("-i") + 1])
        assert key_file.read_text() == key + "\n"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert key in transport.secrets

    assert not key_file.exists() and not key_file.parent.exists()
