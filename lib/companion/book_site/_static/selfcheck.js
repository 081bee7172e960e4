// Fills a hidden <pre id="selfcheck"> once the page and its mathematics are ready, for
// tests/report/test_browser.py, which reads it from headless Chromium's DOM: images loaded,
// claims rows present and shown, formulas typeset and typeset without error, the verdict lines of
// each paper on the index, and the tables wider than the article or with a cell its text
// runs out of.
(function () {
  "use strict";
  // the tables wider than the article (a table in a scrolling container hides the columns
  // past the article's edge, so it counts as much as one that spills over), and those with a
  // cell whose text runs out of it (over the next column)
  function spilling(table) {
    return [...table.querySelectorAll("td, th")].find((c) => c.scrollWidth > c.clientWidth + 1);
  }
  function overflowing() {
    const article = document.querySelector(".bd-article") || document.querySelector("main");
    if (!article) return [];
    const right = article.getBoundingClientRect().right;
    return [...article.querySelectorAll("table")].filter((t) => {
      const box = t.getBoundingClientRect();
      return box.width > 0 && (box.right > right + 1 || spilling(t));
    }).map((t) => ({ classes: t.className, right: t.getBoundingClientRect().right,
      article: right, cell: (spilling(t) || {}).textContent?.trim().slice(0, 80) }));
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
      verdicts_table_top: (() => {
        const table = document.querySelector("table.verdicts-index");
        return table ? table.getBoundingClientRect().top + window.scrollY : null;
      })(),
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
