// Fills a hidden <pre id="selfcheck"> once the page and its mathematics are ready, for
// tests/report/test_browser.py, which reads it from headless Chromium's DOM: images loaded,
// claims rows present and shown, formulas typeset and typeset without error.
(function () {
  "use strict";
  function report() {
    const rows = [...document.querySelectorAll("table.claims-ledger tbody tr")];
    const out = {
      images: [...document.images].map((im) => ({
        src: im.getAttribute("src"), complete: im.complete, naturalWidth: im.naturalWidth })),
      claims_rows: rows.length,
      claims_shown: rows.filter((r) => r.style.display !== "none").length,
      math: document.querySelectorAll("mjx-container").length,
      math_errors: document.querySelectorAll("mjx-merror, [data-mjx-error]").length,
      height: document.documentElement.scrollHeight,
    };
    const pre = document.createElement("pre");
    pre.id = "selfcheck";
    pre.hidden = true;
    pre.textContent = JSON.stringify(out);
    document.body.append(pre);
  }
  window.addEventListener("load", () => {
    const startup = window.MathJax && window.MathJax.startup;
    (startup && startup.promise ? startup.promise : Promise.resolve()).then(report);
  });
})();
