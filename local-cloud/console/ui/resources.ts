/**
 * The resources of a project: per service a tree (buckets -> objects, clusters -> shards -> nodes,
 * ...), each node's line with its status and a few facts; the selected node's raw record beside it,
 * and its content page by page (an object's bytes, a query's rows). Long lists come 100 at a time.
 */
import type { Preview, SentNode } from "../../core/wire/index.js";
import { call, consoleApi, type ProjectTree } from "./api.js";
import { append, badge, fill, h, size } from "./dom.js";

interface Selected {
  service: string;
  path: string[];
  node: SentNode;
}

export class ResourcesView {
  readonly element = h("section", { class: "resources", "data-view": "resources" });
  private readonly tree = h("div", { class: "tree", role: "tree" });
  private readonly detail = h("div", { class: "detail" });
  /** Nodes opened or closed by hand, kept across refreshes (a service's top groups start open). */
  private readonly open = new Map<string, boolean>();
  private selected: Selected | undefined;
  /** More children were loaded by hand: refreshing would fold them away, so it waits for the user. */
  private paged = false;

  constructor(private readonly projectId: string) {
    const refresh = h("button", { type: "button", class: "refresh", onclick: () => void this.refresh(true) }, "refresh now");
    append(this.element, h("div", { class: "toolbar" }, "Follows changes every 3 s. ", refresh), this.tree, this.detail);
    fill(this.detail, h("p", { class: "hint" }, "Select a resource to see its record."));
  }

  async refresh(force = false): Promise<void> {
    if (this.paged && !force) return;
    this.paged = false;
    const data = await call<ProjectTree>("GET", consoleApi(`/projects/${encodeURIComponent(this.projectId)}`));
    const empty = data.services.every((s) => s.nodes.every((n) => (n.total ?? n.children?.length ?? 0) === 0));
    if (empty) {
      fill(
        this.tree,
        h(
          "div",
          { class: "empty", "data-empty": "project" },
          h("h2", {}, `Project ${this.projectId} has no resources yet`),
          h(
            "p",
            {},
            "Run make demo, or pulumi up a program whose stack config names this project (krcloud:projectId) and this local cloud (krcloud:localCloudUrl).",
          ),
        ),
      );
      return;
    }
    const services = data.services.filter((s) => s.nodes.some((n) => (n.total ?? n.children?.length ?? 0) > 0));
    fill(this.tree, ...services.map((s) => this.serviceBlock(s.name, s.nodes)));
    if (this.selected) {
      const again = find(services.find((s) => s.name === this.selected!.service)?.nodes ?? [], this.selected.path);
      if (again) this.select({ ...this.selected, node: again }, false);
    }
  }

  private serviceBlock(service: string, nodes: SentNode[]): HTMLElement {
    const list = h("ul", { role: "group" });
    for (const node of nodes) if ((node.total ?? node.children?.length ?? 0) > 0) list.appendChild(this.item(service, [], node));
    return h("div", { class: "service", "data-service": service }, h("h2", {}, service), list);
  }

  private item(service: string, parent: string[], node: SentNode): HTMLElement {
    const path = [...parent, `${node.kind}:${node.id}`];
    const key = `${service}/${path.join("/")}`;
    const children = node.children ?? [];
    const line = h(
      "div",
      { class: "line", tabindex: 0 },
      h("span", { class: "label" }, node.label),
      node.kind === "group" ? null : h("span", { class: "kind" }, node.kind),
      node.status !== undefined ? badge(node.status) : null,
      ...Object.entries(node.facts ?? {}).map(([name, value]) =>
        h("span", { class: "fact", "data-fact": name }, `${name}: ${name === "size" && typeof value === "number" ? size(value) : String(value)}`),
      ),
    );
    const li = h("li", {
      role: "treeitem",
      "data-kind": node.kind,
      "data-id": node.id,
      "data-path": key,
      ...(node.status !== undefined ? { "data-status": node.status } : {}),
    });
    li.appendChild(line);
    if (children.length === 0) {
      if (node.kind !== "group") line.addEventListener("click", () => this.select({ service, path, node }, true));
      return li;
    }
    const sub = h("ul", { role: "group" });
    const toggle = () => this.open.set(key, li.classList.toggle("open"));
    line.prepend(h("span", { class: "twisty", "aria-hidden": "true" }));
    line.addEventListener("click", () => {
      toggle();
      if (node.kind !== "group") this.select({ service, path, node }, true);
    });
    if (this.open.get(key) ?? (parent.length === 0 && node.kind === "group")) li.classList.add("open");
    for (const child of children) sub.appendChild(this.item(service, path, child));
    const total = node.total ?? children.length;
    if (total > children.length) sub.appendChild(this.more(service, path, children.length, total));
    li.appendChild(sub);
    return li;
  }

  /** The next page of a long list of children, loaded when asked. */
  private more(service: string, path: string[], loaded: number, total: number): HTMLElement {
    const button = h("button", { class: "more", type: "button" }, `show ${Math.min(100, total - loaded)} more of ${total - loaded} not shown`);
    const li = h("li", { class: "more-row" }, button);
    button.addEventListener("click", () => {
      this.paged = true;
      const query = new URLSearchParams([["service", service], ...path.map((step) => ["step", step]), ["offset", String(loaded)]]);
      void call<{ nodes: SentNode[]; total: number }>("GET", consoleApi(`/projects/${encodeURIComponent(this.projectId)}/children?${query}`)).then((page) => {
        const items = page.nodes.map((n) => this.item(service, path, n));
        const next = loaded + page.nodes.length;
        li.replaceWith(...items, ...(page.total > next ? [this.more(service, path, next, page.total)] : []));
      });
    });
    return li;
  }

  private select(selected: Selected, fresh: boolean): void {
    this.selected = selected;
    for (const el of this.tree.querySelectorAll(".selected")) el.classList.remove("selected");
    this.tree.querySelector(`[data-path="${CSS.escape(`${selected.service}/${selected.path.join("/")}`)}"] > .line`)?.classList.add("selected");
    const { node, service } = selected;
    const record = h("pre", { class: "record", "data-record": node.id }, JSON.stringify(node.record ?? null, null, 2));
    const heading = h("h3", {}, node.label, " ", node.status !== undefined ? badge(node.status) : null);
    if (!fresh) {
      // A refresh: the record and status change, the content page the user is reading stays.
      this.detail.querySelector("h3")?.replaceWith(heading);
      this.detail.querySelector("pre.record")?.replaceWith(record);
      return;
    }
    const content = h("div", { class: "preview" });
    fill(
      this.detail,
      heading,
      h(
        "p",
        { class: "where" },
        node.control ? `GET /_control/resources/${service}/${node.control.kind}/${node.control.id}` : `${service} ${node.kind} (shown by the console only)`,
      ),
      record,
      content,
    );
    if (node.preview) void this.showPreview(content, service, node, 0);
  }

  private async showPreview(target: HTMLElement, service: string, node: SentNode, offset: number): Promise<void> {
    const query = new URLSearchParams({ service, kind: node.kind, id: node.id, offset: String(offset) });
    const page = await call<Preview>("GET", consoleApi(`/projects/${encodeURIComponent(this.projectId)}/preview?${query}`));
    const step = page.kind === "rows" ? page.rows.length : page.text !== undefined ? new TextEncoder().encode(page.text).length : (page.hex?.length ?? 0) / 2;
    const end = page.offset + step;
    const nav = h(
      "div",
      { class: "pager" },
      h(
        "span",
        {},
        page.kind === "rows" ? `rows ${page.offset + 1}–${end} of ${page.total}` : `bytes ${page.offset}–${end} of ${page.total} (${size(page.total)})`,
      ),
      page.offset > 0
        ? h("button", { type: "button", onclick: () => void this.showPreview(target, service, node, Math.max(0, page.offset - pageSize(page))) }, "previous")
        : null,
      end < page.total ? h("button", { type: "button", onclick: () => void this.showPreview(target, service, node, end) }, "next") : null,
    );
    const body =
      page.kind === "rows"
        ? h(
            "table",
            { class: "rows" },
            h("thead", {}, h("tr", {}, ...page.columns.map((c) => h("th", {}, c)))),
            h("tbody", {}, ...page.rows.map((r) => h("tr", {}, ...r.map((v) => h("td", {}, v))))),
          )
        : h("pre", { class: page.hex !== undefined ? "content hex" : "content" }, page.text ?? hexLines(page.hex ?? "", page.offset));
    fill(target, h("h4", {}, page.kind === "rows" ? "Result" : `Content (${page.contentType ?? "unknown type"})`), nav, body);
  }
}

function pageSize(page: Preview): number {
  return page.kind === "rows" ? 200 : 64 * 1024;
}

/** A hex dump, 16 bytes a line with the offset first. */
function hexLines(hex: string, offset: number): string {
  const lines: string[] = [];
  for (let i = 0; i < hex.length; i += 32) lines.push(`${(offset + i / 2).toString(16).padStart(8, "0")}  ${hex.slice(i, i + 32).replace(/(..)/g, "$1 ")}`);
  return lines.join("\n");
}

function find(nodes: SentNode[], path: string[]): SentNode | undefined {
  let found: SentNode | undefined;
  for (const step of path) {
    found = nodes.find((n) => `${n.kind}:${n.id}` === step);
    if (!found) return undefined;
    nodes = found.children ?? [];
  }
  return found;
}
