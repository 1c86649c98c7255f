// Copy buttons: <button data-copy="#element-id"> copies that element's text (a form field's
// value) to the clipboard.
(function () {
  "use strict";

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) {
      return;
    }
    const source = document.querySelector(button.dataset.copy);
    const status = document.getElementById(button.getAttribute("aria-controls") || "");
    try {
      const text = source instanceof HTMLInputElement ? source.value : source.textContent;
      await navigator.clipboard.writeText(text);
      if (status) {
        status.textContent = "Copied to the clipboard.";
      }
    } catch (error) {
      if (status) {
        status.textContent = "Copying was refused by the browser: select the text and copy it.";
      }
    }
  });
})();
