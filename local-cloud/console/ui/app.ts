/**
 * The console's page: which project (from the address, `#project=<id>&tab=<tab>`), the tabs
 * (resources, requests, faults and transitions), and the timers that keep what is shown current.
 * A local cloud without a project, and a project id it does not know, each get a page saying so.
 */
import { ApiFailure, call, consoleApi, type Overview } from "./api.js";
import { append, fill, h } from "./dom.js";
import { FaultsView } from "./faults.js";
import { RequestsView } from "./requests.js";
import { ResourcesView } from "./resources.js";

const TABS = { resources: "Resources", requests: "Requests", faults: "Faults and transitions" } as const;
type Tab = keyof typeof TABS;

const main = document.getElementById("app")!;
const header = document.getElementById("where")!;
let timers: number[] = [];

function route(): { project: string | undefined; tab: Tab } {
  const params = new URLSearchParams(location.hash.slice(1));
  const tab = params.get("tab");
  return { project: params.get("project") ?? undefined, tab: tab !== null && tab in TABS ? (tab as Tab) : "resources" };
}

function link(project: string | undefined, tab: Tab): string {
  const params = new URLSearchParams();
  if (project !== undefined) params.set("project", project);
  params.set("tab", tab);
  return `#${params}`;
}

/** Runs `work` now and every `ms`; a failure shows once and the timer goes on. */
function every(ms: number, work: () => Promise<void>, onError: (e: unknown) => void): void {
  let busy = false;
  const run = () => {
    if (busy) return;
    busy = true;
    work()
      .catch(onError)
      .finally(() => (busy = false));
  };
  run();
  timers.push(window.setInterval(run, ms));
}

function problem(error: unknown): HTMLElement {
  return h(
    "div",
    { class: "problem", role: "alert" },
    error instanceof ApiFailure ? `${error.status} ${error.code}: ${error.message}` : `The local cloud does not answer: ${String(error)}`,
  );
}

async function show(): Promise<void> {
  for (const t of timers) clearInterval(t);
  timers = [];
  const overview = await call<Overview>("GET", consoleApi("/overview"));
  fill(header, overview.url);
  const { tab } = route();
  let { project } = route();
  if (project === undefined && overview.projects.length > 0) project = (overview.projects.find((p) => p.resources > 0) ?? overview.projects[0])!.id;

  const picker = h(
    "select",
    { "aria-label": "project", name: "project" },
    ...overview.projects.map((p) => h("option", { value: p.id, selected: p.id === project }, `${p.id} (${p.resources} resources)`)),
  );
  picker.addEventListener("change", () => (location.hash = link(picker.value, tab)));
  const nav = h(
    "nav",
    {},
    overview.projects.length > 0 ? h("label", {}, "project ", picker) : null,
    ...Object.entries(TABS).map(([t, label]) => h("a", { href: link(project, t as Tab), class: t === tab ? "tab current" : "tab", "data-tab": t }, label)),
  );

  if (overview.projects.length === 0 && tab === "resources") {
    fill(
      main,
      nav,
      h(
        "div",
        { class: "empty", "data-empty": "cloud" },
        h("h2", {}, "This local cloud has no project yet"),
        h("p", {}, "A project appears once it holds a credential or a resource: run make demo, or issue credentials and point a program at them:"),
        h("pre", {}, `curl -X POST ${overview.controlUrl}/credentials -H 'content-type: application/json' -d '{"projectId": "my-project"}'`),
        h("p", {}, "then set krcloud:localCloudUrl, krcloud:projectId and krcloud:authToken in your stack's config and run pulumi up."),
      ),
    );
    every(
      3000,
      async () => {
        const again = await call<Overview>("GET", consoleApi("/overview"));
        if (again.projects.length > 0) void show();
      },
      () => undefined,
    );
    return;
  }
  if (project !== undefined && !overview.projects.some((p) => p.id === project)) {
    const known = h("ul", {}, ...overview.projects.map((p) => h("li", {}, h("a", { href: link(p.id, tab) }, p.id))));
    fill(
      main,
      nav,
      h(
        "div",
        { class: "empty", "data-empty": "unknown-project" },
        h("h2", {}, `No project "${project}" in this local cloud`),
        h("p", {}, "Its projects:"),
        known,
      ),
    );
    return;
  }

  const status = h("div", { class: "status" });
  const onError = (e: unknown) => fill(status, problem(e));
  const ok = () => fill(status);
  fill(main, nav, status);
  if (tab === "resources") {
    const view = new ResourcesView(project!);
    append(main, view.element);
    every(3000, () => view.refresh().then(ok), onError);
  } else if (tab === "requests") {
    const view = new RequestsView(
      project,
      overview.services.map((s) => s.name),
    );
    append(main, view.element);
    every(1000, () => view.poll().then(ok), onError);
  } else {
    const view = new FaultsView(overview);
    append(main, view.element);
    every(2000, () => view.refresh().then(ok), onError);
  }
}

window.addEventListener("hashchange", () => void show().catch((e: unknown) => fill(main, problem(e))));
void show().catch((e: unknown) => fill(main, problem(e)));
