"""What the browser tests do and look at, named as a user would: log in, open a case, add a turn.

Input turns are labelled "turn 1", "turn 2"…, expected messages "expected message 1"…; turns are
looked up inside the "Input turns" section all the same, as a person scanning the page would.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from evals_app.models import Case, Workspace

PASSWORD = "correct horse battery"
MULTI_TURN = "debug-checkout-typeerror"  # system, user, assistant, user (the last with a file)
SINGLE_TURN = "http-429-meaning"  # one user turn: a flat question


def log_in(page: Page, account: User, password: str = PASSWORD) -> None:
    """Log in through the real login form and wait until the page shows the account."""
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(account.get_username())
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def sign_in(page: Page, account: User, server_url: str) -> None:
    """Give the page's browser context a logged-in session, without the login form.

    Faster than `log_in`, for tests about something else; the form has its own tests.
    """
    client = Client()
    client.force_login(account)
    name = settings.SESSION_COOKIE_NAME
    page.context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": server_url}]
    )


def editor_url(workspace: Workspace, case_id: str) -> str:
    """The editor of the case `case_id` of `workspace`."""
    case = Case.objects.select_related("suite").get(suite__workspace=workspace, case_id=case_id)
    return reverse("case_editor", args=[workspace.slug, case.suite.pk, case.pk])


def open_editor(page: Page, workspace: Workspace, case_id: str) -> None:
    """Go to a case's editor and wait until its preview is shown."""
    page.goto(editor_url(workspace, case_id))
    expect(question(page)).to_be_visible()


def question(page: Page) -> Locator:
    """The text of the "Formatted question" preview (without its heading)."""
    return page.get_by_label("Formatted question").locator("pre")


def input_turns(page: Page) -> Locator:
    """The input turns, in order."""
    return page.get_by_role("region", name="Input turns").get_by_role("listitem")


def role_of(page: Page, turn: int) -> Locator:
    """The role menu of input turn `turn` (counted from 1)."""
    return input_turns(page).nth(turn - 1).get_by_label(f"Role of turn {turn}")


def text_of(page: Page, turn: int, block: int | None = None) -> Locator:
    """The text box of a one-text turn, or of text block `block` (from 1) of a longer one."""
    name = f"Text of turn {turn}" if block is None else f"Text of turn {turn}, block {block}"
    return input_turns(page).nth(turn - 1).get_by_role("textbox", name=name, exact=True)


def file_of(page: Page, turn: int) -> Locator:
    """The path box of the file block of input turn `turn`."""
    return input_turns(page).nth(turn - 1).get_by_role("combobox", name="File", exact=True)


def add_turn(page: Page, role: str) -> Locator:
    """Add an input turn; return its text box once it has the keyboard focus."""
    number = input_turns(page).count() + 1
    page.get_by_role("button", name=f"Add {role} turn").click()
    text_box = text_of(page, number)
    expect(text_box).to_be_focused()
    return text_box


def attach_file(page: Page, turn: int, path: str) -> Locator:
    """Attach a file to a turn with its "+ File" button and type the path; return the box."""
    page.get_by_role("button", name=f"Attach a file to turn {turn}").click()
    path_box = file_of(page, turn).last
    expect(path_box).to_be_focused()
    page.keyboard.type(path)
    return path_box


def save_status(page: Page) -> Locator:
    """Where the editor says whether the case was saved."""
    return page.locator("#save-status")


# The enabled, visible buttons whose text contrasts less than WCAG AA's 4.5 with the first
# opaque background behind it (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
_UNREADABLE_BUTTONS = """root => {
  const rgba = color => color.match(/[\\d.]+/g).map(Number);
  const channel = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const contrast = element => {
    let behind = element;
    let background = rgba(getComputedStyle(behind).backgroundColor);
    while (background.length === 4 && background[3] === 0 && behind.parentElement) {
      behind = behind.parentElement;
      background = rgba(getComputedStyle(behind).backgroundColor);
    }
    const text = luminance(rgba(getComputedStyle(element).color));
    const [light, dark] = [text, luminance(background)].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
  };
  return [...root.querySelectorAll("button")]
    .filter(button => !button.disabled && button.checkVisibility())
    .map(button => [button.getAttribute("aria-label") || button.innerText, contrast(button)])
    .filter(([, ratio]) => ratio < 4.5)
    .map(([name, ratio]) => `${name}: ${ratio.toFixed(1)}`);
}"""


def unreadable_buttons(within: Locator) -> list[str]:
    """The buttons in `within` whose text is hard to read, each with its contrast ratio."""
    return list(within.evaluate(_UNREADABLE_BUTTONS))
