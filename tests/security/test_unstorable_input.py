"""Input no column can store is refused before any write, naming the field:
a lone surrogate (`\\ud800`, half of a character), NUL (which PostgreSQL text cannot hold) and
text longer than its column, at the API, the live preview and the .zip import."""

from __future__ import annotations

import io
import json
import re
import struct
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from evals_app.editor.form_fields import json_value
from evals_app.json_limits import UnstorableText, load_json
from evals_app.models import Case, ReviewStatus, WorkspaceFile
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.api.api_calls import Team, make_team
from tests.editor.test_case_editor_views import case_named, editor_url, form_of
from tests.factories import database_snapshot

pytestmark = pytest.mark.django_db

LONG_ID = "x" * 201
SUITE = factories.eval_document(factories.simple_case("only-case"))


@pytest.fixture
def team() -> Team:
    return make_team()


def put_body(team: Team, content: str) -> str:
    """A PUT body for the first case whose first turn's content is `content`, JSON-escaped by
    hand (json.dumps would refuse to write a lone surrogate as it is sent here)."""
    document = dict(team.first.document)
    document["input_messages"] = [{"role": "user", "content": "PLACEHOLDER"}]
    text = json.dumps({"version": team.first.version, "document": document})
    return text.replace('"PLACEHOLDER"', f'"{content}"')


# The shared check


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (r'{"a": ["x", {"b": "\ud800"}]}', "a[1].b: text cannot hold a lone surrogate"),
        (r'{"a": "\udc00 low half"}', "a: text cannot hold a lone surrogate"),
        (r'{"a": "one\u0000two"}', "a: text cannot hold NUL characters."),
        (r'{"k\u0000": 1}', "the object (a key): text cannot hold NUL characters."),
    ],
)
def test_json_with_unstorable_text_is_refused_naming_where(text: str, message: str) -> None:
    with pytest.raises(UnstorableText, match=re.escape(message)):
        load_json(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (r'{"a": "\ud83d\ude00"}', {"a": "😀"}),  # a surrogate pair is one character
        (r'{"a": "\\ud800"}', {"a": "\\ud800"}),  # an escaped backslash, then plain letters
        (r'{"a": "\\u0000"}', {"a": "\\u0000"}),
    ],
)
def test_json_with_storable_text_is_read_as_it_is(text: str, value: object) -> None:
    assert load_json(text) == value


# The API


@pytest.mark.parametrize(
    ("content", "problem"),
    [(r"\ud800", "text cannot hold a lone surrogate"), (r"a\u0000b", "text cannot hold NUL")],
    ids=["lone surrogate", "nul"],
)
def test_the_api_refuses_a_document_with_unstorable_text_naming_the_field(
    team: Team, content: str, problem: str
) -> None:
    before = database_snapshot()

    response = team.as_role("editor").put(
        "/workspaces/team-evals/case", put_body(team, content), **team.case_query()
    )

    assert response.status_code == 400
    assert response.json()["message"].startswith(f"document.input_messages[0].content: {problem}")
    assert database_snapshot() == before


def test_the_api_refuses_a_case_id_longer_than_the_database_stores(team: Team) -> None:
    body = {"version": team.first.version, "document": {**team.first.document, "id": LONG_ID}}
    before = database_snapshot()

    response = team.as_role("editor").put("/workspaces/team-evals/case", body, **team.case_query())

    assert response.status_code == 422
    assert response.json()["field"] == "id"
    assert "at most 200 characters" in response.json()["message"]
    assert database_snapshot() == before


def test_the_api_answers_an_unknown_over_long_case_id_not_found(team: Team) -> None:
    response = team.as_role("viewer").get(
        "/workspaces/team-evals/case", suite=team.suite.path, id=LONG_ID
    )

    assert response.status_code == 404


def test_the_api_refuses_a_review_note_with_a_nul_naming_it(team: Team) -> None:
    response = team.as_role("editor").post(
        "/workspaces/team-evals/case/review",
        r'{"action": "submit", "note": "see\u0000this"}',
        **team.case_query(),
    )

    assert response.status_code == 400
    assert response.json() == {"message": "note: text cannot hold NUL characters."}
    assert Case.objects.get(pk=team.first.pk).status == ReviewStatus.DRAFT


# The live preview


@pytest.fixture
def editor(example_root: Path) -> Client:
    import_workspace(example_root, "Example workspace")
    client = Client()
    client.force_login(factories.admin())
    return client


def test_the_preview_refuses_a_field_with_a_lone_surrogate_naming_it(editor: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(editor.get(editor_url(case)).content.decode())
    body = json.dumps({**form, "input-0-block-0-value": "PLACEHOLDER"})

    response = editor.post(
        editor_url(case, "preview/"),
        body.replace('"PLACEHOLDER"', r'"half \ud800"'),
        content_type="application/json",
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 400
    assert "input-0-block-0-value: text cannot hold a lone surrogate" in response.content.decode()


def test_the_preview_refuses_hidden_json_with_a_lone_surrogate_naming_it(editor: Client) -> None:
    case = case_named("http-429-meaning")
    form = form_of(editor.get(editor_url(case)).content.decode())
    meta = next(name for name in form if name.endswith("-meta"))

    response = editor.post(
        editor_url(case, "preview/"),
        {**form, meta: r'{"extra": {"note": "\udfff"}, "key_order": []}'},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 400
    assert f"{meta}.extra.note: text cannot hold a lone surrogate" in unescape(
        response.content.decode()
    )


# The .zip import


def import_zip(client: Client, data: bytes, *, failed: bool = True) -> str:
    upload = io.BytesIO(data)
    upload.name = "team.zip"
    response = client.post(
        "/workspaces/import/", {"name": "Zipped", "archive": upload}, follow=True
    )
    html = unescape(response.content.decode())
    # The import's job, run at once in tests.
    assert ("Failed" in html) == failed and ("Done" in html) != failed
    return html


@pytest.fixture
def importer(client: Client) -> Client:
    client.force_login(factories.user("alice", password=None))
    return client


def importer_user() -> User:
    return User.objects.get(username="alice")


def with_central_directory_offset_moved(data: bytes, by: int) -> bytes:
    """`data` whose end record places the central directory `by` bytes later than it is:
    every entry's local header then lies before the start of the file."""
    patched = bytearray(data)
    end = patched.rfind(b"PK\x05\x06")
    offset = struct.unpack_from("<I", patched, end + 16)[0]
    struct.pack_into("<I", patched, end + 16, offset + by)
    return bytes(patched)


def test_a_damaged_zip_is_refused_with_a_clear_message(importer: Client) -> None:
    data = factories.zip_archive({"evals/a.yaml": SUITE})
    before = database_snapshot()

    html = import_zip(importer, with_central_directory_offset_moved(data, 1000))

    assert "evals/a.yaml: it is damaged" in html
    assert database_snapshot() == before


def test_a_zip_entry_with_a_path_longer_than_stored_is_refused(importer: Client) -> None:
    long_path = "/".join(["d" * 200] * 6) + "/a.yaml"  # 1,011 characters below the top folder
    data = factories.zip_archive({long_path: SUITE})
    before = database_snapshot()

    html = import_zip(importer, data)

    assert "A path can be at most 1000 characters." in html
    assert database_snapshot() == before


# NUL anywhere in imported text: refused by the one reader of eval files, naming the file, the
# case and the field, the same on every database (PostgreSQL cannot store it; SQLite did).

NUL_IN_IMPORTS = {
    "a value": (
        {"team/evals/a.yaml": 'tests:\n  - id: t1\n    input: "h\\0i"\n'},
        "evals/a.yaml:3: case 't1': input: text cannot hold NUL characters",
    ),
    "a case id": (
        {"team/evals/a.yaml": 'tests:\n  - id: "t\\0"\n    input: hi\n'},
        "evals/a.yaml:2: case 't␀': id: text cannot hold NUL characters",
    ),
    "a key": (
        {"team/evals/a.yaml": 'tests:\n  - id: t1\n    input: hi\n    metadata: {"k\\x00": 1}\n'},
        "case 't1': metadata.k␀: text cannot hold NUL characters",
    ),
    "a top-level field": (
        {"team/evals/a.yaml": 'description: "\\u0000"\ntests:\n  - id: t1\n    input: hi\n'},
        "evals/a.yaml:1: description: text cannot hold NUL characters",
    ),
    "a JSONL file of cases": (
        {
            "team/evals/a.yaml": "tests: file://cases.jsonl\n",
            "team/evals/cases.jsonl": '{"id": "t1", "input": "h\\u0000i"}\n',
        },
        "evals/cases.jsonl: case 't1': input: text cannot hold NUL characters",
    ),
    "a CSV file of cases": (
        {
            "team/evals/a.yaml": "tests: file://cases.csv\n",
            "team/evals/cases.csv": "id,question\nt1,h\x00i\n",
        },
        "evals/cases.csv: case 't1': vars.question: text cannot hold NUL characters",
    ),
}


@pytest.mark.parametrize("where", NUL_IN_IMPORTS)
def test_a_zip_with_nul_in_its_text_is_refused_naming_file_case_and_field(
    importer: Client, where: str
) -> None:
    files, message = NUL_IN_IMPORTS[where]  # in a folder `team`, zipped
    before = database_snapshot()

    html = import_zip(importer, factories.zip_archive(files))

    assert message in html
    assert "Traceback" not in html and "DataError" not in html
    assert database_snapshot() == before


def test_pasted_yaml_with_a_nul_escape_is_refused_naming_the_field(importer: Client) -> None:
    workspace = factories.workspace("Pasting")
    suite = factories.suite(workspace)
    workspace.memberships.create(user=importer_user(), role="editor")
    before = database_snapshot()

    response = importer.post(
        f"/w/{workspace.slug}/suites/{suite.pk}/cases/paste/",
        {"yaml": 'id: t1\ncriteria: Says hi.\ninput: "h\\0i"\n'},
    )

    assert response.status_code == 422
    assert "case t1: input: text cannot hold NUL characters" in unescape(response.content.decode())
    assert database_snapshot() == before


# Other files are not text when they hold NUL: the import keeps them out, saying so.
NUL_IN_OTHER_FILES = {
    "a file a case reads": (
        {
            "team/evals/a.yaml": "tests:\n  - id: t1\n    input:\n      - role: user\n"
            "        content: [{type: file, value: ./p.md}]\n",
            "team/evals/p.md": "h\x00i",
        },
        'Test "t1", input message 1: file "./p.md" is not UTF-8 text',
        "evals/p.md",
    ),
    "a config": (
        {
            "team/.agentv/config.yaml": "guideline_patterns: ['\x00']\n",
            "team/evals/a.yaml": "tests:\n  - id: t1\n    input: hi\n",
        },
        ".agentv/config.yaml: holds NUL characters; the config is skipped",
        ".agentv/config.yaml",
    ),
}


@pytest.mark.parametrize("where", NUL_IN_OTHER_FILES)
def test_a_file_with_nul_is_kept_out_of_an_import_with_a_warning(
    importer: Client, where: str
) -> None:
    files, message, path = NUL_IN_OTHER_FILES[where]

    html = import_zip(importer, factories.zip_archive(files), failed=False)

    assert message in html
    assert not WorkspaceFile.objects.filter(path=path).exists()


# The editor's JSON text areas


def test_an_editor_json_text_area_with_a_lone_surrogate_is_a_problem_of_that_field() -> None:
    problems: list[tuple[str, str]] = []

    value = json_value(r'{"note": "\ud800"}', "input-0-vars", problems)

    assert value is None
    assert problems == [
        (
            "input-0-vars",
            "note: text cannot hold a lone surrogate (half of a UTF-16 character, e.g. \\ud800).",
        )
    ]
