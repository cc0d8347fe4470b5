"""``conformance.html``: the report as one self-contained page (inline CSS and JS only).

The matrix is coloured by pass rate, its columns grouped by framework: eagerpy_xp's
flavours of a backend beside the other namespaces of that framework (``--peers``), each
group framed, with a summary line per column (conformant or not, then passed / failed
per tier: must, should, house; `conformance.tiers`).  A click on an
area opens its functions, a click on a cell lists that cell's failures (and missing
names) with their reproducing calls (the URL's ``#open=<area>&cell=<target>`` does the
same, so a view can be linked).  The page also names the options, versions, devices,
runtime and the estimate made at the start, marks a partial report, shows what got
better or worse against a compared report, and the overhead table when the benchmark
was run.  It needs no network and no other file.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from .report import (
    cell_text,
    change,
    column_summary,
    describe_options,
    estimate_line,
    jobs_line,
    judged_bad,
    pass_rate,
    target_id,
)

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; margin: 0 0 .3em; }
.banner { padding: .6em 1em; margin: .8em 0; border-radius: 4px; font-weight: 600; }
.banner.partial { background: #fde2e1; border: 1px solid #d33; color: #900; }
.banner.complete { background: #e3f6e5; border: 1px solid #3a3; color: #155; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: center; white-space: nowrap; }
th.row, td.row { text-align: left; }
tr.area td.row { font-weight: 600; cursor: pointer; }
tr.area td.row::before { content: "\\25B8  "; }
tr.area.open td.row::before { content: "\\25BE  "; }
tr.function { display: none; }
tr.function.shown { display: table-row; }
tr.function td.row { padding-left: 2em; font-family: monospace; }
td.cell.fail { cursor: pointer; outline: 2px solid #b00; outline-offset: -2px; }
td.na, td.none { background: #eee; color: #888; }
td.selected { box-shadow: inset 0 0 0 3px #225; }
td .delta { font-size: .8em; margin-left: .3em; }
.group-start { border-left: 3px solid #555; }
th.ours { background: #eef3fb; }
th.peer { background: #f7f1e6; }
tr.summary td { font-size: .85em; white-space: normal; max-width: 11em; }
.worse { color: #b00; font-weight: 700; }
.better { color: #070; font-weight: 700; }
#details { border: 1px solid #999; padding: .5em 1em; margin: .8em 0; min-height: 1em; }
#details:empty { display: none; }
li.failure { margin: .4em 0; }
pre.call, pre.message { white-space: pre-wrap; margin: .2em 0; background: #f6f6f6;
  padding: .3em; }
dl.facts dt { font-weight: 600; float: left; clear: left; width: 9em; }
dl.facts dd { margin-left: 10em; }
"""

_JS = """
(function () {
  var failures = JSON.parse(document.getElementById('failures').textContent);
  function toggleArea(row, open) {
    var area = row.getAttribute('data-area');
    var show = open === undefined ? !row.classList.contains('open') : open;
    row.classList.toggle('open', show);
    document.querySelectorAll('tr.function').forEach(function (r) {
      if (r.getAttribute('data-area') === area) { r.classList.toggle('shown', show); }
    });
  }
  function text(tag, cls, value) {
    var e = document.createElement(tag); e.className = cls; e.textContent = value; return e;
  }
  function showCell(td) {
    var area = td.getAttribute('data-area'), fn = td.getAttribute('data-function');
    var target = td.getAttribute('data-target');
    document.querySelectorAll('td.selected').forEach(function (c) {
      c.classList.remove('selected');
    });
    td.classList.add('selected');
    var chosen = failures.filter(function (f) {
      return f.target === target && f.area === area && (!fn || f.function === fn);
    });
    var box = document.getElementById('details');
    box.textContent = '';
    box.appendChild(text('h3', 'where', 'Failures of ' + (fn || area) + ' on ' + target +
                         ' (' + chosen.length + ')'));
    var list = document.createElement('ul');
    chosen.forEach(function (f) {
      var li = document.createElement('li'); li.className = 'failure';
      li.appendChild(text('span', 'tier', '[' + (f.tier || 'must') + '] '));
      li.appendChild(text('code', 'nodeid', f.nodeid));
      li.appendChild(text('pre', 'message', f.message));
      if (f.call) { li.appendChild(text('pre', 'call', 'call: ' + f.call)); }
      list.appendChild(li);
    });
    box.appendChild(list);
  }
  document.querySelectorAll('tr.area td.row').forEach(function (td) {
    td.addEventListener('click', function () { toggleArea(td.parentNode); });
  });
  document.querySelectorAll('td.cell.fail').forEach(function (td) {
    td.addEventListener('click', function () {
      var row = td.parentNode;
      if (row.classList.contains('area')) { toggleArea(row, true); }
      showCell(td);
    });
  });
  var hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get('open')) {
    document.querySelectorAll('tr.area').forEach(function (r) {
      if (r.getAttribute('data-area') === hash.get('open')) {
        toggleArea(r, true);
        var td = r.querySelector('td.cell[data-target="' + hash.get('cell') + '"]');
        if (td && td.classList.contains('fail')) { showCell(td); }
      }
    });
  }
})();
"""


def _colour(rate: float | None) -> str:
    """Red (0 %) through yellow to green (100 %); 100 % is a clear green."""
    if rate is None:
        return ""
    hue = 0 if rate < 0.5 else 120 * (rate - 0.5) * 2 * 0.85 if rate < 1 else 120
    return f"background: hsl({hue:.0f}, 70%, {85 if rate < 1 else 80}%)"


def _starts(targets: list[dict[str, Any]]) -> set[str]:
    """The ids of the first column of each framework group."""
    starts, previous = set(), None
    for t in targets:
        if t["backend"] != previous:
            starts.add(t["id"])
            previous = t["backend"]
    return starts


def _cell(counts: dict[str, int] | None, target: dict[str, Any], area: str,
          function: str, delta: str, start: bool = False) -> str:  # fmt: skip
    text = cell_text(counts, target)
    attrs = (f'data-area="{escape(area)}" data-target="{escape(target["id"])}"'
             + (f' data-function="{escape(function)}"' if function else ""))  # fmt: skip
    edge = " group-start" if start else ""
    if text == "n/a":
        return (f'<td class="cell na{edge}" {attrs} '
                f'title="{escape(str(target.get("reason")))}">n/a</td>')
    if text in ("—", "…"):
        return f'<td class="cell none{edge}" {attrs}>{text}</td>'
    ours = bool(target.get("ours", True))
    rate = pass_rate(counts, ours)
    bad = judged_bad(counts, ours)
    classes = ("cell fail" if bad else "cell") + edge
    title = f"pass rate {rate:.1%}" if rate is not None else ""
    return (f'<td class="{classes}" {attrs} style="{_colour(rate)}" title="{title}">'
            f"{escape(text)}{delta}</td>")


def _delta(comparison: dict[str, Any] | None, tid: str) -> str:
    if not comparison or tid not in comparison.get("cells", {}):
        return ""
    rates = comparison["cells"][tid]
    how = change(rates["before"], rates["after"])
    was = f"{rates['before']:.1%}" if rates["before"] is not None else "not run"
    symbol = {"worse": "▼", "better": "▲", "new": "new", "gone": "gone"}[how]
    return f'<span class="delta {how}" title="was {was}">{symbol}</span>'


def _head(targets: list[dict[str, Any]], starts: set[str]) -> list[str]:
    """Three header rows: the framework (one cell per group), the flavour or namespace,
    the device."""
    head = ["<tr><th class='row' rowspan='3'>area</th>"]
    groups: list[tuple[str, int]] = []
    for t in targets:
        if t["id"] in starts:
            groups.append((t["backend"], 0))
        groups[-1] = (groups[-1][0], groups[-1][1] + 1)
    head += [f"<th class='group group-start' colspan='{n}'>{escape(g)}</th>" for g, n in groups]
    head.append("</tr><tr>")
    for t in targets:
        kind = "ours" if t.get("ours", True) else "peer"
        edge = " group-start" if t["id"] in starts else ""
        head.append(f"<th class='{kind}{edge}' title='{escape(str(t.get('namespace', '')))}'>"
                    f"{escape(str(t['flavour']))}</th>")
    head.append("</tr><tr>")
    head += [f"<th class='{'group-start' if t['id'] in starts else ''}'>"
             f"{escape(str(t['device']))}</th>" for t in targets]  # fmt: skip
    head.append("</tr>")
    return head


def _matrix(report: dict[str, Any]) -> str:
    targets = report["targets"]
    starts = _starts(targets)
    head = _head(targets, starts)
    body = []
    for area in report["area_order"]:
        per_target = report["areas"].get(area, {})
        body.append(f'<tr class="area" data-area="{escape(area)}">'
                    f'<td class="row">{escape(area)}</td>'
                    + "".join(_cell(per_target.get(t["id"]), t, area, "", "", t["id"] in starts)
                              for t in targets) + "</tr>")  # fmt: skip
        for function, counts in report["functions"].get(area, {}).items():
            body.append(f'<tr class="function" data-area="{escape(area)}">'
                        f'<td class="row">{escape(function)}</td>'
                        + "".join(_cell(counts.get(t["id"]), t, area, function, "",
                                        t["id"] in starts) for t in targets) + "</tr>")  # fmt: skip
    comparison = report.get("comparison")
    body.append('<tr class="total"><td class="row"><b>total</b></td>'
                + "".join(_cell(report["totals"].get(t["id"]), t, "total", "",
                                _delta(comparison, t["id"]), t["id"] in starts)
                          for t in targets) + "</tr>")  # fmt: skip
    body.append('<tr class="summary"><td class="row">summary</td>'
                + "".join(f"<td class='{'group-start' if t['id'] in starts else ''}'>"
                          f"{escape(column_summary(report['totals'].get(t['id']), t))}</td>"
                          for t in targets) + "</tr>")  # fmt: skip
    return f"<table id='matrix'>{''.join(head)}{''.join(body)}</table>"


def _facts(report: dict[str, Any]) -> str:
    rows = [("status", report["status"] + (f" — {report['partial_reason']}"
                                           if report.get("partial_reason") else "")),
            ("made", f"{report['generated']} (started {report['started']}, run "
                     f"{report.get('run_id', '?')})"),
            ("runtime", f"{report['runtime_s']:.0f} s"),
            ("estimate", estimate_line(report) or "none"),
            ("options", " ".join(report["options"].get("argv") or []) or "(defaults)"),
            ("machine", ", ".join(f"{k} {v}" for k, v in report.get("machine", {}).items())),
            ("versions", ", ".join(f"{k} {v}" for k, v in report.get("versions", {}).items())),
            ("processes", jobs_line(report).removeprefix("Processes: ")),
            ("devices", "; ".join(f"{t['id']}: {t.get('device_name') or t.get('reason') or '?'}"
                                  for t in report["targets"]))]  # fmt: skip
    return "<dl class='facts'>" + "".join(
        f"<dt>{escape(k)}</dt><dd class='{escape(k)}'>{escape(v)}</dd>" for k, v in rows
    ) + "</dl>"


def _comparison(report: dict[str, Any]) -> str:
    comparison = report.get("comparison")
    if not comparison:
        return ""
    parts = [f"<h2>Compared with {escape(str(comparison['old']['generated']))}</h2>",
             f"<p><span class='worse'>{len(comparison['worse'])} worse</span>, "
             f"<span class='better'>{len(comparison['better'])} better</span>, "
             f"{len(comparison['added'])} added, {len(comparison['removed'])} removed.</p>"]
    for label in ("worse", "better"):
        if comparison[label]:
            items = "".join(f"<li class='{label}'><code>{escape(n)}</code></li>"
                            for n in comparison[label])  # fmt: skip
            parts.append(f"<ul id='{label}'>{items}</ul>")
    return "".join(parts)


def _overhead(report: dict[str, Any]) -> str:
    data = report.get("overhead")
    if not data or not data.get("backends"):
        return ""
    variants = list(dict.fromkeys(v for b in data["backends"].values() for v in b["added_us"]))
    head = "".join(f"<th>{escape(v)}</th>" for v in variants)
    rows = []
    for backend, entry in data["backends"].items():
        cells = "".join(f"<td>{entry['added_us'][v]:+.2f}</td>" if v in entry["added_us"]
                        else "<td>n/a</td>" for v in variants)  # fmt: skip
        rows.append(f"<tr><td class='row'>{escape(backend)}</td>{cells}</tr>")
    left_out = "".join(f"<li>{escape(x)}</li>" for x in data.get("left_out", []))
    return (f"<h2>Overhead per operation</h2><p>Added µs per operation over native code "
            f"(medians; <code>python -m benchmarks.overhead</code>, "
            f"{escape(str(data.get('generated')))}).</p>"
            f"<table id='overhead'><tr><th class='row'>backend</th>{head}</tr>"
            f"{''.join(rows)}</table>" + (f"<p>Left out:</p><ul>{left_out}</ul>" if left_out
                                          else ""))  # fmt: skip


def _failure_records(report: dict[str, Any]) -> list[dict[str, str]]:
    return [{"target": target_id(r), "area": r["area"],
             "function": r["function"], "nodeid": r["nodeid"], "message": r["message"],
             "call": r.get("call", ""), "tier": r.get("tier", "must")}
            for r in report["results"] if r["outcome"] in ("failed", "missing")]  # fmt: skip


def render_html(report: dict[str, Any]) -> str:
    failures = _failure_records(report)
    complete = report["status"] == "complete"
    banner = ("<div class='banner complete'>Complete run.</div>" if complete else
              f"<div class='banner partial'>PARTIAL REPORT: "
              f"{escape(report.get('partial_reason') or 'run not finished')}. Not finished: "
              f"{escape(', '.join(report.get('not_run', [])) or 'none')}. "
              f"The counts cover only what ran.</div>")  # fmt: skip
    listed = "".join(f"<li class='failure'>[{escape(f['tier'])}] "
                     f"<code>{escape(f['nodeid'])}</code>"
                     f"<pre class='message'>{escape(f['message'])}</pre>"
                     + (f"<pre class='call'>call: {escape(f['call'])}</pre>" if f["call"] else "")
                     + "</li>" for f in failures[:500])  # fmt: skip
    data = json.dumps(failures).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>eagerpy_xp conformance{'' if complete else ' (partial)'}</title>
<style>{_CSS}</style></head>
<body>
<h1>eagerpy_xp conformance: Python Array API {escape(report.get('api_version', ''))}</h1>
{banner}
<p>{escape(describe_options(report))}</p>
<p>Cells: passed/failed test items, coloured by pass rate; <b>click an area</b> to open its
functions, <b>click a cell with failures</b> (red frame) to list them with their
reproducing calls. "(m missing)": items the namespace lacks a name for (counted among the
failed); failed counts the must failures (the standard's normative text), "(+n should)" and
"(+n house)" the failures of its recommendations and of eagerpy_xp's own contract
(conformance/tiers.py; a column is conformant with no must failure, and another namespace
is never judged by the house tier); "(+n kf)": known failures; n/a: not available; —:
nothing to test; …: not run yet. Columns are grouped by framework: eagerpy_xp's flavours (blue), then other
namespaces of the same framework (sand).</p>
{_matrix(report)}
<div id="details"></div>
{_comparison(report)}
<h2>Run</h2>
{_facts(report)}
{_overhead(report)}
<h2>All failures ({len(failures)})</h2>
<details><summary>list</summary><ul>{listed}</ul></details>
<script type="application/json" id="failures">{data}</script>
<script>{_JS}</script>
</body></html>
"""
