/**
 * The control API's faults and transitions, shown and switched (POST/DELETE /_control/faults, PUT
 * /_control/transitions), so a user sees what their own program does when a request fails, its
 * answer is lost, or a cluster takes minutes to come up. The local cloud checks every value.
 */
import type { Fault, TransitionSetting } from "../../core/wire/index.js";
import { ApiFailure, call, controlApi, type Overview } from "./api.js";
import { append, fill, h } from "./dom.js";

const ACTIONS: Record<string, { label: string; spec: Partial<Fault> }> = {
  "error-500": { label: "answer 500", spec: { action: "error", status: 500 } },
  "error-503": { label: "answer 503", spec: { action: "error", status: 503 } },
  "lose-response": { label: "lose the answer (applied, connection closed)", spec: { action: "lose-response" } },
  drop: { label: "drop (not applied, connection closed)", spec: { action: "drop" } },
  latency: { label: "delay 5 s", spec: { action: "latency", latencyMs: 5000 } },
};

export class FaultsView {
  readonly element = h("section", { class: "faults", "data-view": "faults" });
  private readonly faultRows = h("tbody");
  private readonly transitionRows = h("tbody");
  private readonly message = h("p", { class: "message", role: "status" });

  constructor(overview: Overview) {
    const services = overview.services.map((s) => s.name);
    const operations = h(
      "datalist",
      { id: "operations" },
      ...[...new Set(overview.services.flatMap((s) => s.operations))].map((o) => h("option", { value: o })),
    );
    const faultForm = h(
      "form",
      { class: "add-fault", "aria-label": "inject a fault" },
      field("service", h("select", { name: "service" }, h("option", { value: "" }, "any"), ...services.map((s) => h("option", { value: s }, s)))),
      field("operation", h("input", { name: "operation", list: "operations", placeholder: "any (e.g. CreateBucket)" })),
      field(
        "method",
        h("select", { name: "method" }, ...["", "GET", "HEAD", "PUT", "POST", "PATCH", "DELETE"].map((m) => h("option", { value: m }, m || "any"))),
      ),
      field("path (regular expression)", h("input", { name: "pathRegex", placeholder: "any" })),
      field("then", h("select", { name: "action" }, ...Object.entries(ACTIONS).map(([value, a]) => h("option", { value }, a.label)))),
      field("times", h("input", { name: "times", type: "number", min: 1, value: 1, required: true })),
      h("button", { type: "submit" }, "Inject"),
      operations,
    );
    faultForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const form = new FormData(faultForm);
      const text = (name: string) => value(form, name).trim();
      const spec: Record<string, unknown> = { ...ACTIONS[text("action")]!.spec, times: Number(text("times")) };
      for (const name of ["service", "operation", "method", "pathRegex"]) if (text(name) !== "") spec[name] = text(name);
      void this.act(() => call("POST", controlApi("/faults"), spec), "Fault injected: the next matching request gets it.");
    });

    const kinds = h("select", { name: "kind" });
    const service = h(
      "select",
      { name: "service" },
      ...overview.services.filter((s) => s.transitions.length > 0).map((s) => h("option", { value: s.name }, s.name)),
    );
    const fillKinds = () =>
      fill(
        kinds,
        ...(overview.services.find((s) => s.name === service.value)?.transitions ?? []).map((t) => h("option", { value: t.kind }, `${t.kind}: ${t.moves}`)),
      );
    service.addEventListener("change", fillKinds);
    fillKinds();
    const transitionForm = h(
      "form",
      { class: "set-transition", "aria-label": "set a transition" },
      field("service", service),
      field("kind", kinds),
      field("mode", h("select", { name: "mode" }, ...["duration", "reads", "immediate"].map((m) => h("option", { value: m }, m)))),
      field("seconds or reads", h("input", { name: "amount", type: "number", min: 0, value: 60 })),
      h("button", { type: "submit" }, "Set"),
    );
    transitionForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const form = new FormData(transitionForm);
      const mode = value(form, "mode");
      const amount = Number(form.get("amount"));
      const body: TransitionSetting = {
        service: value(form, "service"),
        kind: value(form, "kind"),
        mode: mode as TransitionSetting["mode"],
        ...(mode === "duration" ? { ms: amount * 1000 } : mode === "reads" ? { reads: amount } : {}),
      };
      void this.act(() => call("PUT", controlApi("/transitions"), body), `${body.service} ${body.kind}: ${describe(body)} from now on.`);
    });

    append(
      this.element,
      this.message,
      h("h2", {}, "Faults"),
      h("p", { class: "hint" }, "The first live fault that matches a request answers it instead of the service (see docs/local-cloud.md, Faults)."),
      faultForm,
      h(
        "table",
        { class: "fault-list" },
        h("thead", {}, h("tr", {}, ...["id", "service", "operation", "method", "path", "action", "fired", "left", ""].map((c) => h("th", {}, c)))),
        this.faultRows,
      ),
      h("button", { type: "button", onclick: () => void this.act(() => call("DELETE", controlApi("/faults")), "Every fault removed.") }, "Remove all faults"),
      h("h2", {}, "Transitions"),
      h(
        "p",
        { class: "hint" },
        "How long a resource takes to settle. Set before the create or change it should slow; a change in flight keeps the setting it began with.",
      ),
      transitionForm,
      h("table", { class: "transition-list" }, h("thead", {}, h("tr", {}, ...["service", "kind", "mode", ""].map((c) => h("th", {}, c)))), this.transitionRows),
    );
  }

  async refresh(): Promise<void> {
    const [{ faults }, { transitions }] = await Promise.all([
      call<{ faults: Fault[] }>("GET", controlApi("/faults")),
      call<{ transitions: TransitionSetting[] }>("GET", controlApi("/transitions")),
    ]);
    fill(
      this.faultRows,
      ...faults.map((f) =>
        h(
          "tr",
          { "data-fault": f.id, class: f.remaining === 0 ? "spent" : "" },
          ...[f.id, f.service ?? "any", f.operation ?? "any", f.method ?? "any", f.pathRegex ?? "any"].map((v) => h("td", {}, v)),
          h("td", {}, f.action === "error" ? `error ${f.status ?? 503}` : f.action === "latency" ? `latency ${f.latencyMs ?? 0} ms` : f.action),
          h("td", { class: "num" }, f.fired),
          h("td", { class: "num" }, f.remaining ?? "∞"),
          h(
            "td",
            {},
            h(
              "button",
              {
                type: "button",
                onclick: () => void this.act(() => call("DELETE", controlApi(`/faults/${encodeURIComponent(f.id)}`)), `Fault ${f.id} removed.`),
              },
              "remove",
            ),
          ),
        ),
      ),
    );
    fill(
      this.transitionRows,
      ...transitions.map((t) =>
        h(
          "tr",
          { "data-transition": `${t.service}/${t.kind}` },
          h("td", {}, t.service),
          h("td", {}, t.kind),
          h("td", {}, describe(t)),
          h(
            "td",
            {},
            t.mode === "immediate"
              ? ""
              : h(
                  "button",
                  {
                    type: "button",
                    onclick: () =>
                      void this.act(
                        () => call("PUT", controlApi("/transitions"), { service: t.service, kind: t.kind, mode: "immediate" }),
                        `${t.service} ${t.kind}: immediate again.`,
                      ),
                  },
                  "make immediate",
                ),
          ),
        ),
      ),
    );
  }

  /** Runs a change through the control API and says how it went (its own message when refused). */
  private async act(change: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await change();
      this.message.className = "message ok";
      fill(this.message, done);
    } catch (error) {
      this.message.className = "message error";
      fill(this.message, error instanceof ApiFailure ? `Refused (${error.status} ${error.code}): ${error.message}` : String(error));
    }
    await this.refresh();
  }
}

function describe(t: TransitionSetting): string {
  return t.mode === "duration" ? `takes ${(t.ms ?? 0) / 1000} s` : t.mode === "reads" ? `settles after ${t.reads ?? 0} reads` : "immediate";
}

/** A text field of a form (its forms have no file inputs). */
function value(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}

function field(label: string, input: HTMLElement): HTMLElement {
  return h("label", {}, h("span", {}, label), input);
}
