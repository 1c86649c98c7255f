"""The workspace list and a workspace's page: its suites, a new suite, its guideline patterns."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.writing import eval_file_text
from evals_app.formatting.guideline_patterns import MAX_PATTERN_LENGTH, MAX_PATTERNS
from evals_app.models import Suite, Workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db: None) -> Workspace:
    """A workspace with two suites (two cases, none) and two files, one of them a guideline."""
    workspace = factories.workspace("Team evals")
    review = factories.suite(workspace, "evals/coding/review.yaml")
    factories.case(review, "review-js")
    factories.case(review, "review-py")
    factories.suite(workspace, "evals/support/escalation.yml")
    factories.workspace_file(workspace, "prompts/review.instructions.md", "Be thorough.\n")
    factories.workspace_file(workspace, "fixtures/app.js", "while (false) {}\n")
    return workspace


def page(name: str, workspace: Workspace) -> str:
    return reverse(name, args=[workspace.slug])


@pytest.mark.parametrize("name", ["workspace_list", "workspace_detail"])
def test_anonymous_user_is_sent_to_the_login_page(
    client: Client, team: Workspace, name: str
) -> None:
    target = reverse(name) if name == "workspace_list" else page(name, team)

    response = client.get(target)

    assert response.status_code == 302
    assert response["Location"] == f"/login/?next={target}"


def test_workspace_list_links_each_workspace_by_name_with_its_counts(
    signed_in: Client, team: Workspace
) -> None:
    factories.workspace("Empty one")

    html = signed_in.get(reverse("workspace_list")).content.decode()

    rows = re.findall(
        r'<a href="([^"]+)">([^<]+)</a></th>\s*<td class="num"[^>]*>(\d+)</td>\s*'
        r'<td class="num"[^>]*>(\d+)',
        html,
    )
    assert rows == [
        ("/w/empty-one/", "Empty one", "0", "0"),
        ("/w/team-evals/", "Team evals", "2", "2"),
    ]


def test_workspace_list_says_how_to_import_when_there_is_none(signed_in: Client) -> None:
    html = signed_in.get(reverse("workspace_list")).content.decode()

    assert "python manage.py import_evals PATH" in html


def test_workspace_page_links_each_suite_by_path_with_its_number_of_cases(
    signed_in: Client, team: Workspace
) -> None:
    html = signed_in.get(page("workspace_detail", team)).content.decode()

    review = team.suites.get(path="evals/coding/review.yaml")
    assert re.search(
        rf'<a href="/w/team-evals/suites/{review.pk}/">evals/coding/review.yaml</a></th>\s*'
        r'<td class="num"[^>]*>2</td>',
        html,
    )
    assert ">evals/support/escalation.yml</a>" in html


def test_unknown_workspace_is_not_found(signed_in: Client) -> None:
    assert signed_in.get("/w/nobody/").status_code == 404


def test_workspace_page_has_a_labelled_control_for_every_field(
    signed_in: Client, team: Workspace
) -> None:
    html = signed_in.get(page("workspace_detail", team)).content.decode()

    ids = re.findall(r'<(?:input|textarea|select)[^>]*\bid="([^"]+)"', html)
    labels = set(re.findall(r'<label for="([^"]+)"', html))
    assert ids
    assert set(ids) <= labels
    assert len(ids) == len(set(ids))


def test_adding_a_suite_creates_an_empty_eval_file_and_shows_it(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(page("suite_create", team), {"path": "evals/new.yaml"})

    suite = team.suites.get(path="evals/new.yaml")
    assert response.status_code == 302
    assert response["Location"] == f"/w/team-evals/suites/{suite.pk}/"
    text = eval_file_text(suite.file_format, suite.document, suite.cases_key, [])
    assert text == "prompts:\n- '{{ input }}'\ntests: []\n"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        pytest.param("", "This field is required.", id="empty"),
        pytest.param("evals/notes.txt", "must end in .yaml or .yml", id="not yaml"),
        pytest.param("../outside.yaml", "cannot contain . or .. folders", id="parent folder"),
        pytest.param("evals/./a.yaml", "cannot contain . or .. folders", id="current folder"),
        pytest.param("/evals/a.yaml", "relative to the workspace root", id="absolute"),
        pytest.param("evals\\a.yaml", "Separate folders with /", id="backslash"),
        pytest.param("evals//a.yaml", "empty folder name", id="empty folder"),
        pytest.param(
            ".agentv/evals.yaml", "never reads eval files in a .agentv/ folder", id="config folder"
        ),
        pytest.param(" evals/new.yaml", "cannot start or end with a space", id="leading space"),
        pytest.param("evals/new.yaml ", "cannot start or end with a space", id="trailing space"),
        pytest.param("evals\x07/a.yaml", "control characters", id="control character"),
        pytest.param("evals/coding/review.yaml", "already exists", id="taken by a suite"),
        pytest.param(
            "fixtures/app.js/x.yaml", "would clash with fixtures/app.js", id="under a file"
        ),
    ],
)
def test_adding_a_suite_at_a_bad_path_shows_why_on_the_form(
    signed_in: Client, team: Workspace, path: str, message: str
) -> None:
    response = signed_in.post(page("suite_create", team), {"path": path})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert team.suites.count() == 2


def test_saving_guideline_patterns_keeps_one_glob_per_line_without_blank_lines(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(
        page("workspace_patterns", team),
        {"patterns": "**/*.instructions.md\r\n\r\n  prompts/*.md  \r\n"},
    )

    assert response.status_code == 302
    assert response["Location"] == "/w/team-evals/"
    config = team.files.get(path=".agentv/config.yaml").text
    assert config == (
        "$schema: agentv-config-v2\nguideline_patterns:\n- '**/*.instructions.md'\n- prompts/*.md\n"
    )


def test_saving_guideline_patterns_confirms_with_a_message(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(
        page("workspace_patterns", team), {"patterns": "a/*.md\nb/*.md"}, follow=True
    )

    assert "Saved 2 guideline patterns in .agentv/config.yaml." in response.content.decode()


def test_workspace_page_marks_the_files_that_are_guidelines(
    signed_in: Client, team: Workspace
) -> None:
    html = signed_in.get(page("workspace_detail", team)).content.decode()

    guideline = re.search(r">prompts/review.instructions.md</a>.*?</tr>", html, re.S)
    attachment = re.search(r">fixtures/app.js</a>.*?</tr>", html, re.S)
    assert guideline and 'class="badge">guideline' in guideline.group()
    assert attachment and "guideline" not in attachment.group()
    assert "1 of 2 files matches now" in html


def test_changed_patterns_change_which_files_are_guidelines(
    signed_in: Client, team: Workspace
) -> None:
    signed_in.post(page("workspace_patterns", team), {"patterns": "fixtures/**"})

    html = signed_in.get(page("workspace_detail", team)).content.decode()
    attachment = re.search(r">fixtures/app.js</a>.*?</tr>", html, re.S)
    assert attachment and 'class="badge">guideline' in attachment.group()


@pytest.mark.parametrize(
    ("patterns", "message"),
    [
        pytest.param("", "Give at least one pattern", id="none"),
        pytest.param("\n  \n", "Give at least one pattern", id="blank lines only"),
        pytest.param(
            "ok/*.md\nbad/[z-a].md",
            "Invalid guideline pattern &#x27;bad/[z-a].md&#x27;",
            id="bad glob",
        ),
        pytest.param(
            "**/x[!9-0]", "Invalid guideline pattern &#x27;**/x[!9-0]&#x27;", id="negated"
        ),
    ],
)
def test_unusable_guideline_patterns_are_refused_with_the_reason(
    signed_in: Client, team: Workspace, patterns: str, message: str
) -> None:
    response = signed_in.post(page("workspace_patterns", team), {"patterns": patterns})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert not team.files.filter(path=".agentv/config.yaml").exists()


@pytest.mark.parametrize(
    ("patterns", "message"),
    [
        pytest.param(
            "a/*.md\n\n" + "x" * (MAX_PATTERN_LENGTH + 1),
            f"Line 3: a guideline pattern can be at most {MAX_PATTERN_LENGTH} characters "
            f"(this one has {MAX_PATTERN_LENGTH + 1}).",
            id="too long",
        ),
        pytest.param(
            "\n".join(f"p{number}/*.md" for number in range(MAX_PATTERNS + 1)),
            f"Line {MAX_PATTERNS + 1}: at most {MAX_PATTERNS} guideline patterns are allowed.",
            id="too many",
        ),
        pytest.param(
            "**/*[" + "0-0" * 1000 + "]*d",
            f"Line 1: a guideline pattern can be at most {MAX_PATTERN_LENGTH} characters",
            id="many ranges",
        ),
    ],
)
def test_guideline_patterns_beyond_the_limits_are_refused_naming_the_limit_and_the_line(
    signed_in: Client, team: Workspace, patterns: str, message: str
) -> None:
    response = signed_in.post(page("workspace_patterns", team), {"patterns": patterns})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert not team.files.filter(path=".agentv/config.yaml").exists()


def test_as_many_patterns_as_allowed_each_as_long_as_allowed_are_saved(
    signed_in: Client, team: Workspace
) -> None:
    patterns = [f"{number}/" + "x" * (MAX_PATTERN_LENGTH - 2) for number in range(MAX_PATTERNS)]

    response = signed_in.post(page("workspace_patterns", team), {"patterns": "\n".join(patterns)})

    assert response.status_code == 302
    assert team.files.get(path=".agentv/config.yaml").text.count("- ") == MAX_PATTERNS


def test_refused_patterns_stay_in_the_text_box_to_be_fixed(
    signed_in: Client, team: Workspace
) -> None:
    response = signed_in.post(page("workspace_patterns", team), {"patterns": "keep/*.md\n[z-a]"})

    assert re.search(
        r"<textarea[^>]*>\s*keep/\*\.md\n\[z-a\]</textarea>", response.content.decode()
    )


@pytest.mark.parametrize(
    "config",
    [
        pytest.param("../../x/.agentv/config.yaml", id="outside the workspace"),
        pytest.param("/tmp/x/.agentv/config.yaml", id="absolute"),
        pytest.param("evals/.agentv/config.yaml", id="a config that does not exist"),
        pytest.param("prompts/review.instructions.md", id="a file that is not a config"),
        pytest.param("x/../.agentv/config.yaml", id="not normalised"),
    ],
)
def test_patterns_for_a_config_the_page_does_not_offer_are_refused_and_nothing_is_written(
    signed_in: Client, team: Workspace, config: str
) -> None:
    files_before = dict(team.files.values_list("path", "text"))
    records_before = team.activity.count()

    response = signed_in.post(
        page("workspace_patterns", team), {"config": config, "patterns": "docs/*.md"}
    )

    assert response.status_code == 400
    assert "is not one of this workspace&#x27;s .agentv/config.yaml files" in (
        response.content.decode()
    )
    assert dict(team.files.values_list("path", "text")) == files_before
    assert team.activity.count() == records_before


def test_patterns_are_saved_in_an_existing_config_below_the_root(
    signed_in: Client, team: Workspace
) -> None:
    config = "evals/.agentv/config.yaml"
    factories.workspace_file(
        team, config, "$schema: agentv-config-v2\nguideline_patterns: ['a/*.md']\n"
    )

    response = signed_in.post(
        page("workspace_patterns", team), {"config": config, "patterns": "b/*.md"}
    )

    assert response.status_code == 302
    assert "- b/*.md" in team.files.get(path=config).text


@pytest.mark.parametrize("name", ["suite_create", "workspace_patterns"])
def test_workspace_changes_only_accept_post(signed_in: Client, team: Workspace, name: str) -> None:
    assert signed_in.get(page(name, team)).status_code == 405


def test_workspace_changes_require_the_csrf_token(team: Workspace) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user(password=None))

    response = client.post(page("suite_create", team), {"path": "evals/new.yaml"})

    assert response.status_code == 403
    assert not Suite.objects.filter(path="evals/new.yaml").exists()


def test_workspace_page_queries_do_not_grow_with_suites_and_files(
    signed_in: Client, team: Workspace, django_assert_max_num_queries: Any
) -> None:
    for number in range(30):
        factories.suite(team, f"evals/more/{number}.yaml")
        factories.workspace_file(team, f"notes/{number}.md")

    # The ninth: the open conflicts; then the review report's rules, form, answers and reviews.
    with django_assert_max_num_queries(13):
        response = signed_in.get(page("workspace_detail", team))

    assert response.status_code == 200
