// The claims ledger's filter. Above each table.claims-ledger it puts one select per key status,
// kind, provenance and notebook, each read from the element marked data-filter="<key>" in a row
// (else from the column of that name); the choice lives in the address
// (claims.html#status=fail&provenance=paper), so a link can carry a filter.
(function () {
  "use strict";
  const KEYS = ["status", "kind", "provenance", "notebook"];

  function wanted() {
    const out = {};
    for (const part of decodeURIComponent(location.hash.slice(1)).split("&")) {
      const [key, value] = part.split("=");
      if (KEYS.includes(key) && value) out[key] = value;
    }
    return out;
  }

  function setup(table) {
    const head = [...table.tHead.rows[0].cells].map((c) => c.textContent.trim());
    const rows = [...table.tBodies[0].rows];
    const cell = (row, key) => {
      const marked = row.querySelector(`[data-filter="${key}"]`);
      return (marked || row.cells[head.indexOf(key)]).textContent.trim();
    };
    const present = (key) => rows.length > 0 && (head.includes(key) ||
      rows[0].querySelector(`[data-filter="${key}"]`) !== null);
    const bar = document.createElement("div");
    bar.className = "claims-filter";
    const selects = {};
    for (const key of KEYS.filter(present)) {
      const counts = new Map();
      rows.forEach((r) => counts.set(cell(r, key), (counts.get(cell(r, key)) || 0) + 1));
      const select = document.createElement("select");
      select.name = key;
      select.add(new Option(`all (${rows.length})`, ""));
      [...counts.keys()].sort().forEach((v) => select.add(new Option(`${v} (${counts.get(v)})`, v)));
      select.addEventListener("change", () => {
        const parts = Object.entries(selects).filter(([, s]) => s.value)
          .map(([k, s]) => `${k}=${encodeURIComponent(s.value)}`);
        history.replaceState(null, "", parts.length ? `#${parts.join("&")}` : location.pathname);
        apply();
      });
      const label = document.createElement("label");
      label.append(`${key} `, select);
      bar.append(label);
      selects[key] = select;
    }
    const count = document.createElement("span");
    count.className = "claims-count";
    bar.append(count);
    table.closest(".pst-scrollable-table-container, table").before(bar);

    function apply() {
      const want = wanted();
      let shown = 0;
      for (const [key, select] of Object.entries(selects)) select.value = want[key] || "";
      for (const row of rows) {
        const keep = Object.keys(selects).every((k) => !want[k] || cell(row, k) === want[k]);
        row.style.display = keep ? "" : "none";
        shown += keep;
      }
      count.textContent = `${shown} of ${rows.length} claims shown`;
    }
    window.addEventListener("hashchange", apply);
    apply();
  }

  // every claims table (the ledger and those beside figures): colour the status cells (the
  // status is the cell's data-filter="status" element, its reason below it)
  function badges(table) {
    const col = [...table.tHead.rows[0].cells].findIndex((c) => c.textContent.trim() === "status");
    if (col < 0) return;
    for (const row of table.tBodies[0].rows) {
      const status = (row.cells[col].querySelector('[data-filter="status"]') || row.cells[col])
        .textContent.trim();
      row.cells[col].classList.add("claim-status", `status-${status}`);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("table.claims").forEach(badges);
    document.querySelectorAll("table.claims-ledger").forEach(setup);
  });
})();
