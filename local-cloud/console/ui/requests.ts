/**
 * The request log as it grows (GET /_control/requests?since=N, read every second): method, path,
 * operation, status, duration and the fault applied, filtered as the user types. The newest first;
 * the page keeps the last KEEP requests.
 */
import type { RequestLogEntry } from "../../core/wire/index.js";
import { call, controlApi } from "./api.js";
import { append, fill, h } from "./dom.js";

const KEEP = 2000;

export class RequestsView {
  readonly element = h("section", { class: "requests", "data-view": "requests" });
  private readonly rows = h("tbody");
  private readonly count = h("span", { class: "count" });
  private readonly entries: RequestLogEntry[] = [];
  private lastSeq = 0;
  private readonly text = h("input", { type: "search", placeholder: "path, operation or request id", "aria-label": "filter text", name: "text" });
  private readonly method = select("method", ["any method", "GET", "HEAD", "PUT", "POST", "PATCH", "DELETE"]);
  private readonly outcome = select("outcome", ["any status", "2xx", "3xx", "4xx", "5xx", "faulted"]);
  private readonly service: HTMLSelectElement;
  private readonly mine = h("input", { type: "checkbox", name: "project", checked: true });

  constructor(
    private readonly projectId: string | undefined,
    services: string[],
  ) {
    this.service = select("service", ["any service", ...services]);
    for (const input of [this.text, this.method, this.outcome, this.service, this.mine]) input.addEventListener("input", () => this.render());
    append(
      this.element,
      h(
        "form",
        { class: "filters", onsubmit: (e: Event) => e.preventDefault() },
        this.text,
        this.method,
        this.service,
        this.outcome,
        projectId !== undefined ? h("label", {}, this.mine, ` project ${projectId} only`) : null,
        this.count,
      ),
      h(
        "table",
        { class: "log" },
        h("thead", {}, h("tr", {}, ...["#", "time", "method", "service", "path", "operation", "status", "ms", "fault"].map((c) => h("th", {}, c)))),
        this.rows,
      ),
    );
  }

  /** Reads what was logged since the last read and shows it. */
  async poll(): Promise<void> {
    const page = await call<{ requests: RequestLogEntry[]; lastSeq: number }>("GET", controlApi(`/requests?since=${this.lastSeq}`));
    // A reset of the local cloud empties the log; sequence numbers go on.
    if (page.requests.length === 0 && page.lastSeq === this.lastSeq) return;
    this.entries.push(...page.requests);
    if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
    this.lastSeq = page.lastSeq;
    this.render();
  }

  private render(): void {
    const text = this.text.value.trim().toLowerCase();
    const shown = this.entries.filter(
      (e) =>
        (this.method.selectedIndex === 0 || e.method === this.method.value) &&
        (this.service.selectedIndex === 0 || e.service === this.service.value) &&
        matchesOutcome(e, this.outcome.value, this.outcome.selectedIndex === 0) &&
        (this.projectId === undefined || !this.mine.checked || e.projectId === this.projectId) &&
        (text === "" || `${e.path}?${e.query} ${e.operation}`.toLowerCase().includes(text)),
    );
    fill(this.count, `${shown.length} of ${this.entries.length} requests`);
    fill(
      this.rows,
      ...shown
        .slice(-500)
        .reverse()
        .map((e) =>
          h(
            "tr",
            {
              class: e.fault ? "faulted" : e.status >= 400 || e.status === 0 ? "failed" : "",
              "data-seq": e.seq,
              "data-status": e.status,
              ...(e.fault ? { "data-fault": e.fault } : {}),
            },
            h("td", {}, e.seq),
            h("td", { title: e.time }, e.time.slice(11, 23)),
            h("td", {}, e.method),
            h("td", {}, e.service),
            h("td", { class: "path" }, e.query ? `${e.path}?${e.query}` : e.path),
            h("td", {}, e.operation),
            h("td", {}, e.status === 0 ? "none" : e.status),
            h("td", { class: "num" }, e.durationMs.toFixed(1)),
            h("td", {}, e.fault ?? ""),
          ),
        ),
    );
  }
}

function matchesOutcome(e: RequestLogEntry, outcome: string, any: boolean): boolean {
  if (any) return true;
  if (outcome === "faulted") return e.fault !== undefined;
  return Math.floor(e.status / 100) === Number(outcome[0]);
}

function select(name: string, options: string[]): HTMLSelectElement {
  return h("select", { name, "aria-label": name }, ...options.map((o) => h("option", { value: o }, o)));
}
