"""Import from .zip: a zipped repository folder imported as `import_evals` imports the folder,
its report on the page, and every refusal said there with nothing written."""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.models import ActivityRecord, Job, Membership, Workspace
from evals_app.services.cases.editing import save_case
from tests import factories
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

IMPORT = reverse("workspace_import")
SUITE = factories.eval_document(factories.simple_case("only-case"))


def zipped_folder(folder: Path, prefix: str) -> bytes:
    """The files under `folder` zipped under the top folder `prefix` (as a file manager does)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{prefix}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


def upload(client: Client, data: bytes, name: str = "", filename: str = "repo.zip") -> Any:
    archive = SimpleUploadedFile(filename, data, content_type="application/zip")
    return client.post(IMPORT, {"archive": archive, "name": name})


def report(client: Client, data: bytes, name: str = "") -> tuple[Job, str]:
    """The import's job, which the post queued (and tests run at once), and its page."""
    response = upload(client, data, name)
    job = Job.objects.latest("pk")
    assert response.status_code == 302 and response["Location"] == job.get_absolute_url()
    return job, unescape(client.get(job.get_absolute_url()).content.decode())


@pytest.fixture
def alice(client: Client) -> Client:
    client.force_login(factories.user("alice", password=None))
    return client


@pytest.fixture(autouse=True)
def private_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Imports unpack under this test's own folder, so the test can see what they leave."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_import_page_has_the_form_with_labelled_fields(alice: Client) -> None:
    html = alice.get(IMPORT).content.decode()

    assert '<label for="import-archive">' in html
    assert '<label for="import-name">' in html
    assert 'enctype="multipart/form-data"' in html


def test_a_zipped_repository_is_imported_from_its_top_folder_with_its_report(
    alice: Client, private_temporary_folder: Path
) -> None:
    job, html = report(alice, zipped_folder(EXAMPLES, "examples"))

    assert job.state == Job.State.DONE
    assert "Imported examples: 6 suites, 21 cases and 13 files." in html
    assert "Skipped .github/workflows/evals.yml: not an eval file" in html
    assert "review-missing-attachment" in html  # a warning, with the case it is about
    workspace = Workspace.objects.get(name="examples")
    assert workspace.suites.count() == 6
    assert list(private_temporary_folder.iterdir()) == []


def test_the_importer_owns_the_new_workspace(alice: Client) -> None:
    upload(alice, factories.zip_archive({"evals/a.yaml": SUITE}), name="Alice's evals")

    membership = Membership.objects.get(workspace__name="Alice's evals")
    assert (membership.user.username, membership.role) == ("alice", "owner")


def test_without_a_top_folder_the_workspace_is_named_after_the_zip(alice: Client) -> None:
    data = factories.zip_archive({"README.md": "Our evals.", "evals/a.yaml": SUITE})

    upload(alice, data, filename="team-evals.zip")

    assert Workspace.objects.filter(name="team-evals").exists()


def test_the_import_is_recorded_in_the_activity(alice: Client) -> None:
    data = factories.zip_archive({"repo/evals/a.yaml": SUITE, "repo/evals/b.yaml": SUITE})

    upload(alice, data, "New")

    records = ActivityRecord.objects.filter(workspace__name="New").order_by("pk")
    assert [(r.actor.username, r.action, r.subject) for r in records if r.actor] == [
        ("alice", "workspace_created", "New"),
        ("alice", "suite_imported", "evals/a.yaml"),
        ("alice", "suite_imported", "evals/b.yaml"),
    ]


def test_the_import_s_final_transaction_reads_no_suite_s_text(alice: Client) -> None:
    data = factories.zip_archive({"repo/evals/a.yaml": SUITE, "repo/evals/b.yaml": SUITE})

    with CaptureQueriesContext(connection) as queries:
        upload(alice, data, "New")

    # The texts are megabytes each in a large repository, and the final transaction holds
    # the one writer of SQLite: a save elsewhere waited seconds for them to be read.
    sqls = [query["sql"] for query in queries]
    activity = [index for index, sql in enumerate(sqls) if "evals_app_activityrecord" in sql]
    final = sqls[activity[0] : activity[-1] + 1]
    suites_read = [sql for sql in final if '"evals_app_suite"' in sql]
    assert suites_read and not [sql for sql in suites_read if "source_text" in sql]


def test_an_invalid_eval_file_is_reported_with_its_place_and_nothing_is_written(
    alice: Client,
) -> None:
    bad = factories.eval_document(
        factories.simple_case("bad", input_messages=[{"role": "customer", "content": "Hi"}])
    )
    before = factories.database_snapshot()

    job, html = report(alice, factories.zip_archive({"repo/evals/bad.yaml": bad}), name="Bad")

    assert job.state == Job.State.FAILED
    assert "Failed" in html
    assert "evals/bad.yaml:" in html and "unknown role" in html
    assert "agentv-import-" not in html  # no temporary folder of the server shows
    assert factories.database_snapshot() == before


def test_a_zip_without_eval_files_says_so_without_naming_a_server_folder(alice: Client) -> None:
    job, html = report(alice, factories.zip_archive({"notes.md": "Notes."}), name="Empty")

    assert job.state == Job.State.FAILED
    assert "the .zip: no eval file found" in html
    assert "/tmp" not in html


def test_an_unsafe_entry_is_refused_by_name_and_nothing_is_written(
    alice: Client, private_temporary_folder: Path
) -> None:
    data = factories.zip_archive({"evals/a.yaml": SUITE, "../../escape.md": "Gotcha."})

    job, html = report(alice, data, name="Unsafe")

    assert job.state == Job.State.FAILED
    assert "../../escape.md: its path leaves the folder (..)." in html
    assert not Workspace.objects.filter(name="Unsafe").exists()
    assert list(private_temporary_folder.iterdir()) == []
    assert not (private_temporary_folder.parent / "escape.md").exists()


def test_a_zip_over_the_size_limit_is_refused(alice: Client, settings: Any) -> None:
    settings.AGENTV_MAX_IMPORT_BYTES = 100
    data = factories.zip_archive({"evals/a.yaml": SUITE, "big.md": "x" * 5000})

    response = upload(alice, data, name="Big")

    assert response.status_code == 422
    assert "the limit is 100." in response.content.decode()
    assert not Workspace.objects.filter(name="Big").exists()


def test_an_owner_may_import_into_their_workspace_keeping_what_the_app_made(
    client: Client,
) -> None:
    workspace = factories.workspace("Team evals")
    old = factories.suite(workspace, "evals/a.yaml")
    factories.case(old, "old-case")
    kept = factories.suite(workspace, "evals/kept.yaml")
    client.force_login(factories.member(workspace, "owner"))

    data = factories.zip_archive({"team/evals/a.yaml": SUITE})

    job, _ = report(client, data, name="Team evals")

    assert job.state == Job.State.DONE
    assert sorted(workspace.suites.values_list("path", flat=True)) == [
        "evals/a.yaml",
        "evals/kept.yaml",
    ]
    # The three-way rule (docs/sync.md): a case made in the app stays, before the files' cases.
    assert list(workspace.suites.get(path="evals/a.yaml").cases.values_list("case_id")) == [
        ("old-case",),
        ("only-case",),
    ]
    assert workspace.suites.filter(pk=kept.pk).exists()


def reimport_page(client: Client, workspace: Workspace, files: dict[str, Any]) -> str:
    _, page = report(client, factories.zip_archive(files), name=workspace.name)
    return page


def test_a_reimport_says_what_was_added_changed_kept_and_in_conflict(client: Client) -> None:
    first = factories.simple_case("first", outcome="One.")
    second = factories.simple_case("second", outcome="Two.")
    third = factories.simple_case("third", outcome="Three.")
    owner = factories.user("olivia", password=None)
    client.force_login(owner)
    upload(
        client,
        factories.zip_archive({"team/evals/a.yaml": factories.eval_document(first, second, third)}),
    )
    workspace = Workspace.objects.get(name="team")
    in_app = workspace.suites.get().cases.get(case_id="third")
    document = {**in_app.document, "outcome": "Three, as the app has it."}
    save_case(in_app, document, in_app.version, owner)
    changed_second = {**second, "outcome": "Two, as the files have it."}
    conflicting_third = {**third, "outcome": "Three, as the files have it."}
    added = factories.simple_case("fourth", outcome="Four.")

    page = reimport_page(
        client,
        workspace,
        {
            "team/evals/a.yaml": factories.eval_document(
                first, changed_second, conflicting_third, added
            )
        },
    )

    assert "Re-imported into team: 1 added, 1 changed, 1 kept, 1 in conflict." in page
    assert "<li>Conflict: evals/a.yaml: third</li>" in page


def test_the_import_report_opens_with_the_link_to_the_workspace(alice: Client) -> None:
    _, html = report(alice, zipped_folder(EXAMPLES, "examples"))

    page = html[html.index('id="job-status"') :]
    assert page.index("Open the workspace") < page.index("AgentV skips")


def test_the_import_warnings_are_folded_under_their_count(alice: Client) -> None:
    _, html = report(alice, zipped_folder(EXAMPLES, "examples"))

    # The skipped file and the four warnings, folded under their count.
    assert re.search(r"<details[^>]*>\s*<summary>5 notes</summary>", html)


@pytest.mark.parametrize("role", ["editor", "reviewer", "viewer", None])
def test_nobody_but_an_owner_imports_into_an_existing_workspace_and_is_told_only_it_is_taken(
    client: Client, role: str | None
) -> None:
    workspace = factories.workspace("Team evals")
    factories.case(factories.suite(workspace, "evals/a.yaml"), "old-case")
    account = factories.member(workspace, role) if role else factories.user("outsider", None)
    client.force_login(account)
    before = factories.database_snapshot()

    job, html = report(client, factories.zip_archive({"evals/a.yaml": SUITE}), name="Team evals")

    assert job.state == Job.State.FAILED
    # The words anyone gets for a taken name: nothing about who owns it.
    assert "A workspace named 'Team evals' already exists; choose another name." in html
    assert "not its owner" not in html
    assert factories.database_snapshot() == before


def test_a_top_folder_named_like_someone_elses_workspace_is_refused(client: Client) -> None:
    factories.workspace("examples")
    client.force_login(factories.user("alice", password=None))

    job, html = report(client, factories.zip_archive({"examples/evals/a.yaml": SUITE}))

    assert job.state == Job.State.FAILED
    assert "A workspace named 'examples' already exists; choose another name." in html


def test_a_post_without_a_file_asks_for_one(alice: Client) -> None:
    response = alice.post(IMPORT, {"name": "Nothing"})

    assert response.status_code == 422
    assert "This field is required." in response.content.decode()


def test_the_import_needs_the_csrf_token(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user("alice", password=None))

    response = upload(client, factories.zip_archive({"evals/a.yaml": SUITE}), name="Forged")

    assert response.status_code == 403
    assert not Workspace.objects.filter(name="Forged").exists()
