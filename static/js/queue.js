// The review queue: "n" opens the first case waiting for review.
(function () {
  "use strict";

  document.addEventListener("keydown", (event) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (event.key !== "n" || typing || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const first = document.querySelector('[data-shortcut="n"]');
    if (first) {
      window.location.assign(first.href);
    }
  });
})();
