"""In Chromium: how long after the last keystroke a typed change shows in the preview.

Playwright drives Debian's Chromium (/usr/bin/chromium; nothing is downloaded). The page
records the time of each `input` event; after typing a word into a turn, the time until the
formatted question holds it (and the next frame is drawn) is one sample. The editor's debounce
(`delay:200ms` in case_editor.html) is part of what is measured.
"""

from __future__ import annotations

from .environment import USERNAME
from .figures import Figure, at_most, median, progress, report
from .server import HOST

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOWN_MILLISECONDS = 400
# Watches the page: resolves with the milliseconds from the last input event until the
# formatted question contains `word` and the following frame is painted.
WATCH = """word => new Promise((resolve, reject) => {
  const shown = () => {
    const question = document.getElementById("formatted-question");
    return question !== null && question.textContent.includes(word);
  };
  const done = () => requestAnimationFrame(
    () => resolve(performance.now() - window.benchLastInput));
  if (shown()) { done(); return; }
  const observer = new MutationObserver(() => {
    if (shown()) { observer.disconnect(); done(); }
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
  setTimeout(() => {
    observer.disconnect();
    reject(new Error("the preview never showed " + word));
  }, 10000);
})"""
RECORD_INPUT = """() => {
  window.benchLastInput = 0;
  document.addEventListener("input", () => { window.benchLastInput = performance.now(); }, true);
}"""


def measure_browser(port: int, password: str, editor_path: str, keystrokes: int) -> Figure:
    """Type `keystrokes` words into the 50-turn case's editor; the median time to show each."""
    from playwright.sync_api import sync_playwright

    progress(f"typing {keystrokes} words in Chromium")
    samples = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(base_url=f"http://{HOST}:{port}", bypass_csp=True)
            page = context.new_page()
            page.goto("/login/")
            page.fill("#id_username", USERNAME)
            page.fill("#id_password", password)
            page.click("button[type=submit]")
            page.wait_for_load_state()
            page.goto(editor_path)
            page.wait_for_selector("#formatted-question")
            page.evaluate(RECORD_INPUT)
            area = page.locator("#conversation textarea[id^='input-']").nth(2)
            area.click()
            for number in range(keystrokes):
                word = f"zq{number}x"
                area.press("Control+End")
                page.keyboard.type(f" {word}", delay=30)
                samples.append(page.evaluate(WATCH, word))
                page.wait_for_timeout(300)
        finally:
            browser.close()
    return report(
        Figure("browser_preview_shown", median(samples), "ms", at_most(SHOWN_MILLISECONDS))
    )
