/**
 * The drift report page's script (inlined by html.ts): sorts a table (resources, policy findings)
 * by the column clicked and filters the page by status, stack and text: the resource table (a
 * finding's details follow its row), the policy findings, the stacks' table, and the chart by
 * stack dims the other stacks (a click on a stack in the chart shows that stack only). Without it the page shows everything, unsorted.
 */

const ORDER: Readonly<Record<string, readonly string[]>> = {
  status: ["drifted", "deleted", "unreadable", "pending", "clean", "unverifiable"],
  level: ["mandatory", "advisory"],
};

const table = document.getElementById("resource-table") as HTMLTableElement | null;
const form = document.getElementById("filters") as HTMLFormElement | null;

/** The rows of a table's body, in the page's order (empty when the table is not there). */
function bodyRows(id: string): HTMLTableRowElement[] {
  const t = document.getElementById(id) as HTMLTableElement | null;
  return t ? [...t.tBodies[0]!.rows] : [];
}

function sortable(t: HTMLTableElement): void {
  const body = t.tBodies[0]!;
  const rows = [...body.rows];
  const headers = [...t.tHead!.rows[0]!.cells];
  headers.forEach((th, column) => {
    if (!th.dataset.sort) return;
    th.tabIndex = 0;
    const order = ORDER[th.dataset.sort];
    const sort = (): void => {
      const ascending = th.getAttribute("aria-sort") !== "ascending";
      for (const other of headers) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      const key = (row: HTMLTableRowElement): string | number =>
        order ? order.indexOf(row.dataset[th.dataset.sort!] ?? "") : (row.cells[column]?.textContent ?? "").toLowerCase();
      const sorted = [...rows].sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
      });
      body.append(...sorted);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") sort();
    });
  });
}

if (table && form) {
  const rows = bodyRows("resource-table");
  const violations = bodyRows("policy-table");
  const stackRows = bodyRows("stack-table");
  const chart = [...document.querySelectorAll<HTMLElement>("#stack-chart li")];
  const findings = new Map([...document.querySelectorAll<HTMLElement>("article.finding")].map((a) => [a.id, a]));
  const stackField = form.elements.namedItem("stack") as HTMLSelectElement;
  form.hidden = false;

  const apply = (): void => {
    const data = new FormData(form);
    const field = (name: string): string => {
      const value = data.get(name);
      return typeof value === "string" ? value : "";
    };
    const text = field("text").trim().toLowerCase();
    const stack = field("stack");
    const statuses = new Set(data.getAll("status").map(String));
    const matches = (row: HTMLElement): boolean =>
      (stack === "" || row.dataset.stack === stack) && (text === "" || (row.textContent ?? "").toLowerCase().includes(text));
    let shown = 0;
    for (const row of rows) {
      const visible = statuses.has(row.dataset.status ?? "") && matches(row);
      row.hidden = !visible;
      const finding = findings.get(row.dataset.anchor ?? "");
      if (finding) finding.hidden = !visible;
      if (visible) shown++;
    }
    let policy = 0;
    for (const row of violations) {
      row.hidden = !matches(row);
      if (!row.hidden) policy++;
    }
    for (const row of stackRows) row.hidden = stack !== "" && row.dataset.stack !== stack;
    // The chart keeps every stack (a click on another switches to it); the others are dimmed.
    for (const li of chart) li.classList.toggle("dim", stack !== "" && li.dataset.stack !== stack);
    const output = form.elements.namedItem("shown") as HTMLOutputElement;
    output.value = `${shown} of ${rows.length} resources`;
    const policyShown = document.getElementById("policy-shown");
    if (policyShown) policyShown.textContent = `${policy} of ${violations.length} policy findings`;
  };
  form.addEventListener("input", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  for (const li of chart) {
    li.querySelector("button")?.addEventListener("click", () => {
      stackField.value = stackField.value === li.dataset.stack ? "" : (li.dataset.stack ?? "");
      apply();
    });
  }
  apply();
}

for (const t of document.querySelectorAll<HTMLTableElement>("table.sortable")) sortable(t);

export {};
