"""Browser fixtures: one Chromium per session, a fresh context per test, console errors fail.

pytest-playwright is not a dependency; these few fixtures are all the browser tests need.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    expect,
    sync_playwright,
)
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from evals_app.models import Membership, Workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.workspaces.memberships import add_member
from tests.browser.pages import (
    PASSWORD,
    SINGLE_TURN,
    editor_url,
    open_editor,
    save_status,
    sign_in,
    text_of,
)
from tests.conftest import EXAMPLES
from tests.factories import member, user

# Playwright's sync API keeps an asyncio event loop running in the test thread while the
# browser is open, and Django then refuses ORM calls from that thread (SynchronousOnlyOperation),
# a guard against blocking an event loop with database calls. Nothing else runs on that loop
# while a test queries the database, so the guard does not apply here. Set at import, before
# any test touches the database.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
EXAMPLE_WORKSPACE = "Example workspace"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    """Logging in with the default hasher costs most of a second per test on a small machine."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, launched once for the whole session."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def expected_console_errors() -> list[str]:
    """Regular expressions of console errors the test expects, e.g. the log of a 409 response."""
    return []


@pytest.fixture
def new_page(
    browser: Browser,
    live_server: LiveServer,
    transactional_db: None,
    expected_console_errors: list[str],
) -> Iterator[Callable[..., Page]]:
    """Open pages, each in a fresh browser context (its own cookies), on the live server.

    At teardown the contexts are closed, then the test fails if any page logged a console
    error (Chromium logs every 4xx and 5xx response there too), raised an uncaught exception
    or reported a Content Security Policy violation, unless the test expected it.
    """
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_page(viewport: dict[str, int] | None = None) -> Page:
        context = browser.new_context(base_url=live_server.url, viewport=viewport or DESKTOP)
        contexts.append(context)
        context.expose_binding(
            "reportCspViolation",
            lambda source, text: errors.append(f"{source['page'].url}: CSP violation {text}"),
        )
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        page = context.new_page()
        page.on("console", lambda message: _record_console_error(errors, page, message))
        page.on("pageerror", lambda error: errors.append(f"{page.url}: uncaught {error}"))
        return page

    yield open_page
    for context in contexts:
        context.close()
    unexpected = [e for e in errors if not any(re.search(p, e) for p in expected_console_errors)]
    if unexpected:
        pytest.fail("The browser reported errors:\n" + "\n".join(unexpected), pytrace=False)


# Run in every page before its own scripts. A violation is reported whatever the console says:
# the event names the directive and what was blocked (an inline style, a script, a URL).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline code"}` +
    ` at ${event.sourceFile || "?"}:${event.lineNumber}: ${event.sample}`
  );
});
"""


def _record_console_error(errors: list[str], page: Page, message: ConsoleMessage) -> None:
    if message.type == "error":
        errors.append(f"{page.url}: console error {message.text}")


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    """A page in a fresh desktop-sized browser context."""
    return new_page()


def editor_of(workspace: Workspace, username: str) -> User:
    """A new account (password `PASSWORD`) with the editor role in `workspace`."""
    account = user(username, PASSWORD)
    add_member(workspace, username, Membership.Role.EDITOR)
    return account


@pytest.fixture
def alice(example_workspace: Workspace) -> User:
    """An editor of the example workspace."""
    return editor_of(example_workspace, "alice")


@pytest.fixture
def example_workspace(transactional_db: None) -> Workspace:
    """The example workspace shipped in the repository, imported as `make run` does, with an
    owner (who never logs in here); the tests' accounts join it as editors."""
    workspace = import_workspace(EXAMPLES, EXAMPLE_WORKSPACE).workspace
    member(workspace, Membership.Role.OWNER)
    return workspace


@pytest.fixture
def editor(page: Page, alice: User, live_server: LiveServer) -> Page:
    """Alice's page, logged in; each test opens the case it needs."""
    sign_in(page, alice, live_server.url)
    return page


@pytest.fixture
def refused_save(
    new_page: Callable[..., Page],
    alice: User,
    example_workspace: Workspace,
    expected_console_errors: list[str],
    live_server: LiveServer,
) -> Page:
    """Bob's editor after his save was refused: Alice saved the case after he opened it.

    Both changed the text of turn 1 of the single-turn case; Bob's save got a 409.
    """
    alice_page, bob_page = new_page(), new_page()
    sign_in(alice_page, alice, live_server.url)
    sign_in(bob_page, editor_of(example_workspace, "bob"), live_server.url)
    open_editor(alice_page, example_workspace, SINGLE_TURN)
    open_editor(bob_page, example_workspace, SINGLE_TURN)

    text_of(alice_page, 1).fill("Alice's question about 429.")
    alice_page.get_by_role("button", name="Save").click()
    expect(save_status(alice_page)).to_have_text("Saved (version 2).")

    text_of(bob_page, 1).fill("Bob's question about 429.")
    # The refusal is a 409 response, which Chromium logs as a console error.
    expected_console_errors.append(r"status of 409 \(Conflict\)")
    url = editor_url(example_workspace, SINGLE_TURN)
    with bob_page.expect_response(lambda response: response.url.endswith(url)) as saving:
        bob_page.get_by_role("button", name="Save").click()
    assert saving.value.status == 409
    return bob_page
