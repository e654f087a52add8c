/**
 * Building the page: every text goes in as a text node (never as HTML), so a bucket's metadata or
 * an object key holding markup shows as the characters it is.
 */

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** An element with attributes (`on…` ones are listeners) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** Bytes as people read them: 1.2 KiB, 3 MiB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A status as a badge whose colour says how it is going. */
export function badge(status: string): HTMLElement {
  const s = status.toLowerCase();
  const tone = /fail|error|terminated|deactivated|aborted/.test(s)
    ? "bad"
    : /running|active|in-sync|finished|available/.test(s)
      ? "good"
      : /creat|modif|provision|initializ|updating|applying|queued|terminating|pending/.test(s)
        ? "busy"
        : "plain";
  return h("span", { class: `badge ${tone}`, "data-status": status }, status);
}
