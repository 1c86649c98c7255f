// The suite page's selection: "Select all cases on this page" checks every row, and the rows
// keep it in step (checked when all are, mixed when some are). Without JavaScript the header
// box still works: the server then acts on every case of the page.
(function () {
  "use strict";

  const rows = () => document.querySelectorAll("input.case-select");

  document.addEventListener("change", (event) => {
    const box = event.target;
    const all = document.getElementById("select-all-cases");
    if (!all) {
      return;
    }
    if (box === all) {
      rows().forEach((row) => {
        row.checked = all.checked;
      });
      all.indeterminate = false;
    } else if (box.classList.contains("case-select")) {
      const checked = [...rows()].filter((row) => row.checked).length;
      all.checked = checked > 0 && checked === rows().length;
      all.indeterminate = checked > 0 && !all.checked;
    }
  });
})();
