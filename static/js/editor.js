// The case editor's behaviour beyond htmx: unsaved-changes guard, Ctrl/Cmd+S, growing text areas.
(function () {
  "use strict";

  const form = document.querySelector("[data-editor-form]");
  if (!form) {
    return;
  }
  let dirty = false;

  const markDirty = () => { dirty = true; };
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
      event.preventDefault();
      document.getElementById("save-button").click();
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
