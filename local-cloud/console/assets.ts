/**
 * The console's files: its HTML page and style sheet (here), and its scripts, compiled from ui/
 * into the package beside this file and read on first use (a local cloud nobody opens the console
 * of never reads them).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NotFound } from "../core/errors";
import type { ApiResponse } from "../core/http";

/** Every answer of the console: its own files only, requests to the local cloud only, never framed. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>krcloud local cloud console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/_console/console.css">
<script type="module" src="/_console/ui/app.js"></script>
</head>
<body>
<header><h1>krcloud local cloud</h1><span id="where"></span></header>
<main id="app"><p class="hint">Loading…</p></main>
<noscript><p>The console is a page of JavaScript: allow scripts from the local cloud to see it.</p></noscript>
</body>
</html>
`;

const STYLE = `
:root { --fg: #1d2430; --muted: #5d6879; --line: #d8dde6; --bg: #f6f7f9; --accent: #2457c5; --good: #1d7a3a; --busy: #9a6700; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1em; align-items: baseline; padding: .6em 1.2em; background: #16202e; color: #fff; }
header h1 { font-size: 1.1em; margin: 0; }
header #where { color: #b7c3d6; font-family: ui-monospace, monospace; }
main { padding: .8em 1.2em; }
nav { display: flex; gap: .4em; align-items: center; margin-bottom: .8em; flex-wrap: wrap; }
nav label { margin-right: 1em; }
.tab { padding: .35em .8em; border: 1px solid var(--line); border-radius: 4px; color: var(--accent); text-decoration: none; background: #fff; }
.tab.current { background: var(--accent); color: #fff; border-color: var(--accent); }
.resources { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(320px, 1.2fr); gap: 1em; align-items: start; }
.toolbar { grid-column: 1 / -1; color: var(--muted); }
.tree, .detail { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .6em; overflow: auto; }
.detail { position: sticky; top: .5em; max-height: calc(100vh - 2em); }
.service h2 { font-size: 1em; margin: .4em 0; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.tree ul { list-style: none; margin: 0; padding-left: 1.1em; }
.tree > .service > ul { padding-left: 0; }
.tree li > ul { display: none; }
.tree li.open > ul { display: block; }
.line { display: flex; flex-wrap: wrap; gap: .45em; align-items: baseline; padding: .1em .3em; border-radius: 3px; cursor: pointer; }
.line:hover, .line.selected { background: #e9effb; }
.twisty::before { content: "▸"; display: inline-block; width: .8em; color: var(--muted); }
li.open > .line > .twisty::before { content: "▾"; }
.label { font-weight: 600; word-break: break-all; }
.kind, .fact { color: var(--muted); font-size: .9em; }
.badge { font-size: .8em; padding: 0 .45em; border-radius: 8px; border: 1px solid currentColor; }
.badge.good { color: var(--good); } .badge.busy { color: var(--busy); } .badge.bad { color: var(--bad); } .badge.plain { color: var(--muted); }
pre { background: #f3f5f8; padding: .6em; border-radius: 4px; overflow: auto; max-height: 60vh; white-space: pre-wrap; word-break: break-all; }
.where, .hint, .count { color: var(--muted); }
.pager { display: flex; gap: .6em; align-items: center; margin: .4em 0; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border-bottom: 1px solid var(--line); padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #eef1f5; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.path { font-family: ui-monospace, monospace; word-break: break-all; }
tr.failed td { color: var(--bad); }
tr.faulted td { background: #fff4e5; color: var(--bad); }
tr.spent td { color: var(--muted); }
.filters, .add-fault, .set-transition { display: flex; flex-wrap: wrap; gap: .6em; align-items: end; margin: .6em 0; }
.add-fault label, .set-transition label { display: flex; flex-direction: column; font-size: .85em; color: var(--muted); }
input, select, button { font: inherit; padding: .25em .4em; }
button { cursor: pointer; }
.message.ok { color: var(--good); } .message.error { color: var(--bad); }
.empty { background: #fff; border: 1px dashed var(--line); border-radius: 6px; padding: 1.2em; }
.problem { background: #fdecea; color: var(--bad); padding: .5em .8em; border-radius: 4px; margin-bottom: .6em; }
`;

const scripts = new Map<string, Buffer>();

/** A file of the console by its name under /_console/. */
export function asset(name: string): ApiResponse {
  if (name === "" || name === "index.html") return { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" }, body: PAGE };
  if (name === "console.css") return { status: 200, headers: { "Content-Type": "text/css; charset=utf-8" }, body: STYLE };
  const script = /^ui\/([a-z][a-z-]*\.js)$/.exec(name)?.[1];
  if (script !== undefined) {
    let body = scripts.get(script);
    if (body === undefined) {
      try {
        body = readFileSync(join(__dirname, "ui", script));
      } catch {
        throw new NotFound(`No console file ${name.slice(0, 100)}.`);
      }
      scripts.set(script, body);
    }
    return { status: 200, headers: { "Content-Type": "text/javascript; charset=utf-8" }, body };
  }
  throw new NotFound(`No console file ${name.slice(0, 100)}.`);
}
