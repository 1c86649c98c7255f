// Keys 1–5 answer the review form's scales (docs/user-guide.md, "Review forms and scores"): the
// scale that holds the focus, else the first scale not answered yet. Ignored while typing text.
(function () {
  "use strict";

  const typingText = (element) =>
    element &&
    (element.isContentEditable ||
      /^(TEXTAREA|SELECT)$/.test(element.tagName) ||
      (element.tagName === "INPUT" && !/^(radio|checkbox)$/.test(element.type)));

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !/^[1-5]$/.test(event.key)) {
      return;
    }
    if (typingText(event.target) || document.querySelector("dialog[open]")) {
      return;
    }
    const scales = [...document.querySelectorAll("fieldset[data-scale]")];
    const focused = event.target.closest ? event.target.closest("fieldset[data-scale]") : null;
    const answered = (scale) => scale.querySelector("input:checked:not([value=''])");
    const scale = focused || scales.find((candidate) => !answered(candidate));
    const choice = scale && scale.querySelector(`input[value="${event.key}"]`);
    if (choice) {
      event.preventDefault();
      choice.checked = true;
      choice.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
})();
