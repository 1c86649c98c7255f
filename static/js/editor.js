// The case editor's behaviour beyond htmx: unsaved-changes guard, Ctrl/Cmd+S, shortcuts, a
// preview of fields changed before htmx started, growing text areas. A read-only editor
// (reviewers, viewers) has nothing to save or lose.
(function () {
  "use strict";

  const form = document.querySelector("[data-editor-form]");
  if (!form) {
    return;
  }
  const readOnly = form.hasAttribute("data-read-only");
  let dirty = false;

  const markDirty = () => { dirty = !readOnly; };
  form.addEventListener("input", markDirty);
  form.addEventListener("change", markDirty);
  document.body.addEventListener("turns-changed", markDirty);
  document.body.addEventListener("case-saved", () => { dirty = false; });
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-discard]")) {
      dirty = false;
    }
  });
  form.addEventListener("submit", () => {
    // A plain (non-htmx) submit reloads the page with the edits in it: nothing is lost.
    dirty = false;
  });

  window.addEventListener("beforeunload", (event) => {
    if (dirty) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      // Not the browser's "Save page" either: on a read-only editor the key does nothing.
      event.preventDefault();
      const save = document.getElementById("save-button");
      if (save) {
        save.click();
      }
    }
  });

  // Single-key shortcuts (listed in the "?" dialog), ignored while typing in a field.
  const shortcuts = document.getElementById("shortcuts");
  const typing = (element) =>
    element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
  // "a" and "r" do not act at once: they put the cursor in the review note and name the step
  // that Enter then takes (Shift+Enter starts a new line, Escape cancels).
  let pending = null;
  const prepare = (id) => {
    const button = document.getElementById(id);
    const note = document.getElementById("review-note");
    const hint = document.getElementById("review-pending");
    if (!button || button.disabled || !note) {
      return;
    }
    pending = id;
    if (hint) {
      hint.textContent = `Enter: ${button.textContent.trim().toLowerCase()} with this note. Escape: cancel.`;
    }
    note.focus();
  };
  const cancel = () => {
    pending = null;
    const hint = document.getElementById("review-pending");
    if (hint) {
      hint.textContent = "";
    }
  };
  document.addEventListener("keydown", (event) => {
    if (!pending || event.target.id !== "review-note") {
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      const button = document.getElementById(pending);
      cancel();
      if (button && !button.disabled) {
        button.click();
      }
    } else if (event.key === "Escape") {
      cancel();
      event.target.blur();
    }
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-show-shortcuts]")) {
      shortcuts.showModal();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    if (shortcuts.open && event.key !== "Escape") {
      return;
    }
    const link = document.querySelector(`[data-shortcut="${event.key}"]`);
    if (event.key === "?") {
      shortcuts.showModal();
    } else if (link) {
      window.location.assign(link.href);
    } else if (event.key === "a" || event.key === "r") {
      event.preventDefault(); // the letter is not typed into the note it focuses
      prepare(event.key === "a" ? "approve-button" : "request-changes-button");
    } else if (event.key === "c") {
      const box = document.getElementById("comment-text");
      if (box) {
        event.preventDefault(); // the "c" is not typed into the box it focuses
        box.focus();
      }
    }
  });

  // The preview follows the fields through the events htmx listens to, but fields can change
  // before it listens: the page can be typed or pasted in as soon as it shows, while its
  // deferred scripts still load (htmx starts once all have run), and going Back the browser
  // puts unsaved text back in the fields. The page was rendered, preview included, from the
  // fields' default values: when htmx has started, ask for a preview if any field differs.
  const preview = document.getElementById("preview");
  const fields = () => [
    ...form.elements,
    ...document.querySelectorAll("#preview-controls input, #candidate-answer"),
  ];
  const edited = (field) => {
    if (field instanceof HTMLSelectElement) {
      const initial = [...field.options].find((option) => option.defaultSelected) || field.options[0];
      return initial !== undefined && !initial.selected;
    }
    if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      return field.checked !== field.defaultChecked;
    }
    return (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)
      && field.value !== field.defaultValue;
  };
  document.body.addEventListener("htmx:load", (event) => {
    // htmx fires it on <body> once, when it has started; later ones come from swapped content.
    if (preview && event.target === document.body && fields().some(edited)) {
      preview.dispatchEvent(new CustomEvent("preview-stale"));
    }
  });

  // A preview request that fails (the server answered with an error, or not at all) would leave
  // the preview showing an older state of the case as if it were current. Say so beside it and
  // ask again, a little later each time, until one succeeds; any later edit asks at once anyway.
  const failed = document.getElementById("preview-failed");
  let retries = 0;
  const previewFailed = (event) => {
    if (!preview || event.target !== preview || !failed) {
      return;
    }
    const status = event.detail.xhr && event.detail.xhr.status;
    const wait = Math.min(1000 * 2 ** retries, 30000);
    retries += 1;
    failed.textContent = `The preview is out of date: ${status ? `the server answered ${status}` : "the server did not answer"}. Trying again in ${wait / 1000} s.`;
    failed.hidden = false;
    window.setTimeout(() => preview.dispatchEvent(new CustomEvent("preview-stale")), wait);
  };
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach((name) =>
    document.body.addEventListener(name, previewFailed));
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (preview && event.target === preview && failed) {
      retries = 0;
      failed.hidden = true;
    }
  });

  // Browsers without CSS `field-sizing: content` get text areas that grow with their text.
  if (!(window.CSS && CSS.supports("field-sizing", "content"))) {
    const grow = (area) => {
      area.style.height = "auto";
      area.style.height = area.scrollHeight + 2 + "px";
    };
    const growAll = (root) => root.querySelectorAll("textarea.grow").forEach(grow);
    document.addEventListener("input", (event) => {
      if (event.target.matches("textarea.grow")) {
        grow(event.target);
      }
    });
    document.body.addEventListener("htmx:afterSettle", (event) => growAll(event.target));
    growAll(document);
  }
})();
