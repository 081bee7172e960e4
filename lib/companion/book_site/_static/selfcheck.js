// Fills a hidden <pre id="selfcheck"> once the page and its mathematics are ready, for
// tests/report/test_browser.py, which reads it from headless Chromium's DOM: images loaded,
// claims rows present and shown, formulas typeset and typeset without error, the verdict lines of
// each paper on the index, and the tables whose visible box is wider than the article.
(function () {
  "use strict";
  // the box a table shows in: its nearest scrolling container inside the article, else itself
  function visibleBox(table, article) {
    for (let el = table.parentElement; el && el !== article; el = el.parentElement) {
      const overflow = getComputedStyle(el).overflowX;
      if (overflow === "auto" || overflow === "scroll") return el;
    }
    return table;
  }
  function overflowing() {
    const article = document.querySelector(".bd-article") || document.querySelector("main");
    if (!article) return [];
    const right = article.getBoundingClientRect().right;
    return [...article.querySelectorAll("table")].filter((t) => {
      const box = visibleBox(t, article).getBoundingClientRect();
      return box.width > 0 && box.right > right + 1;
    }).map((t) => ({ classes: t.className, right: visibleBox(t, article)
      .getBoundingClientRect().right, article: right }));
  }
  function verdictLines() {
    const out = {};
    for (const row of document.querySelectorAll("table.verdicts-index tbody tr")) {
      const link = row.querySelector("td a");
      if (!link) continue;
      const paper = (link.getAttribute("href") || "").split("/")[0];
      out[paper] = row.querySelectorAll("span.verdict").length;
    }
    return out;
  }
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
      verdicts: verdictLines(),
      tables_overflowing: overflowing(),
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
