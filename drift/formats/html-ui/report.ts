/**
 * The drift report page's script (inlined by html.ts): sorts the resource table by the column
 * clicked and filters it by status, stack and text; a finding's details follow its row. Without it
 * the page shows everything, unsorted.
 */

const STATUS_ORDER = ["drifted", "deleted", "unreadable", "pending", "clean", "unverifiable"];

const table = document.getElementById("resource-table") as HTMLTableElement | null;
const form = document.getElementById("filters") as HTMLFormElement | null;

if (table && form) {
  const body = table.tBodies[0]!;
  const rows = [...body.rows];
  const findings = new Map([...document.querySelectorAll<HTMLElement>("article.finding")].map((a) => [a.id, a]));
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
    let shown = 0;
    for (const row of rows) {
      const visible =
        statuses.has(row.dataset.status ?? "") &&
        (stack === "" || row.dataset.stack === stack) &&
        (text === "" || (row.textContent ?? "").toLowerCase().includes(text));
      row.hidden = !visible;
      const finding = findings.get(row.dataset.anchor ?? "");
      if (finding) finding.hidden = !visible;
      if (visible) shown++;
    }
    const output = form.elements.namedItem("shown") as HTMLOutputElement;
    output.value = `${shown} of ${rows.length} resources`;
  };
  form.addEventListener("input", apply);
  form.addEventListener("submit", (event) => event.preventDefault());
  apply();

  const headers = [...table.tHead!.rows[0]!.cells];
  headers.forEach((th, column) => {
    th.tabIndex = 0;
    const sort = (): void => {
      const ascending = th.getAttribute("aria-sort") !== "ascending";
      for (const other of headers) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      const key = (row: HTMLTableRowElement): string | number =>
        th.dataset.sort === "status" ? STATUS_ORDER.indexOf(row.dataset.status ?? "") : (row.cells[column]?.textContent ?? "").toLowerCase();
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

export {};
