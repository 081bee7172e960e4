"""The book's page on what made the results, as MyST text: the runs' fingerprints (environment,
libraries, CPU, pins), the second-code-path record (which claims it moved) and the last `make
verify` report. A pure function of what `lib.companion.report` read."""
from __future__ import annotations

from lib.companion import fingerprint
from lib.companion.book import list_table, text


def made_line(made: dict[str, dict]) -> str:
    """One line for the index: the machine and environment most results came from."""
    if not made:
        return "No run recorded its fingerprint yet."
    name, entry = max(made.items(), key=lambda kv: len(kv[1]["notebooks"]))
    n, total = len(entry["notebooks"]), sum(len(e["notebooks"]) for e in made.values())
    more = f"; {len(made) - 1} other fingerprint(s)" if len(made) > 1 else ""
    return (f"Results made on {text(fingerprint.summary(entry['fingerprint']))} ({n} of {total} "
            f"notebooks{more}: [what made the results](provenance.md)).")


def fingerprint_rows(made: dict[str, dict]) -> list[list[str]]:
    rows = []
    for name, entry in sorted(made.items(), key=lambda kv: -len(kv[1]["notebooks"])):
        doc = entry["fingerprint"]
        for field, value in flat(doc):
            rows.append([text(name), text(field), text(value)])
        rows.append([text(name), "notebooks", text(", ".join(entry["notebooks"]))])
    return rows


def flat(doc: dict, prefix: str = "") -> list[tuple[str, str]]:
    out = []
    for k in sorted(doc):
        if isinstance(doc[k], dict):
            out += flat(doc[k], f"{prefix}{k}.")
        else:
            out.append((f"{prefix}{k}", str(doc[k])))
    return out


def codepath_lines(record: dict, stale: list[str]) -> list[str]:
    entries = record.get("notebooks", {})
    if not entries:
        return ["No second-code-path record yet (`make codepaths` makes one).", ""]
    claims = [(cid, e) for v in entries.values() for cid, e in v["claims"].items()]
    moved = [(cid, e) for cid, e in claims
             if e["kind"] in ("statistical", "qualitative") and e["here"] != e["there"]
             and e["here"] in ("pass", "fail", "deviation")]
    lines = [f"`make codepaths` re-ran {len(entries)} notebooks at commit "
             f"{text(record.get('commit', '?'))} with the CPU libraries on a second code path "
             f"({text(', '.join(f'{k}={v}' for k, v in record.get('alternative', {}).items()))}) "
             f"and compared each of their {len(claims)} claims. {len(moved)} statistical or "
             "qualitative claim(s) were decided otherwise there; the ledger records each as "
             "`inconclusive`:", ""]
    if moved:
        lines += [list_table(("claim", "here", "second path", "largest relative difference"),
                             [[f"`{cid}`", text(e["here"]), text(e["there"]),
                               text("text differs" if e["max_rel_diff"] is None
                                    else f"{e['max_rel_diff']:.2g}")] for cid, e in moved],
                             "ledger"), ""]
    if stale:
        lines += ["```{warning}", "These notebooks re-ran since the record was made, so their "
                  "claims were not re-decided on the second path: " + ", ".join(stale)
                  + ". Run `make codepaths` again.", "```", ""]
    return lines


def provenance_page(made: dict[str, dict], record: dict, stale: list[str],
                    verify_report: str | None) -> str:
    """The page: fingerprints, the second code path, the last verify report."""
    lines = ["# What made the results", "",
             "Every run records its fingerprint: the locked environment (`requirements.lock`'s "
             "digest, and whether the installed packages are exactly the lock), the builds of "
             "the numerical libraries, the CPU and the settings that pin its code paths "
             "(`lib/companion/numerics.py`). One environment on one kind of CPU repeats every "
             "byte; another CPU keeps every verdict, and `make verify` says which outputs "
             "differ.", "", "## Fingerprints", ""]
    lines += [list_table(("fingerprint", "field", "value"), fingerprint_rows(made), "ledger"), ""] \
        if made else ["No run recorded its fingerprint yet.", ""]
    lines += ["## Verdicts on a second code path", "", *codepath_lines(record, stale)]
    lines += ["## The last `make verify`", ""]
    if verify_report:
        lines += ["````text", verify_report.strip(), "````", ""]
    else:
        lines += ["None on this machine yet (`make verify` writes results/verify/report.md).", ""]
    return "\n".join(lines)
