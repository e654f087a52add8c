/**
 * Lists of spec 03 C.4: `size`/`page`, repeatable `sort=field,asc|desc` in priority order, and the
 * Spring-style page envelope of C.2.
 */
import { InvalidParameter } from "./errors";
import { LIMITS } from "./model";

export interface PageRequest {
  page: number;
  size: number;
  sort: Array<{ field: string; direction: "asc" | "desc" }>;
}

function integerParam(value: string | null, name: string, min: number, max: number, fallback: number): number {
  if (value === null) return fallback;
  if (!/^\d{1,9}$/.test(value)) throw new InvalidParameter(name, `must be an integer from ${min} to ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw new InvalidParameter(name, `must be an integer from ${min} to ${max}`);
  return n;
}

/** Spring accepts `field`, `field,asc`, `field,desc` (direction in any case). */
export function parsePageRequest(query: URLSearchParams, sortable: readonly string[]): PageRequest {
  const size = integerParam(query.get("size"), "size", 1, LIMITS.pageSizeMax, LIMITS.pageSizeDefault);
  const page = integerParam(query.get("page"), "page", 0, 1_000_000, 0);
  const sort = query.getAll("sort").map((raw): PageRequest["sort"][number] => {
    const [field = "", direction = "asc", ...rest] = raw.split(",");
    const dir = direction.toLowerCase();
    if (!sortable.includes(field) || rest.length > 0 || (dir !== "asc" && dir !== "desc")) {
      throw new InvalidParameter("sort", `"${raw.slice(0, 100)}" must be field,asc or field,desc with a field of ${sortable.join(", ")}`);
    }
    return { field, direction: dir === "desc" ? "desc" : "asc" };
  });
  return { page, size, sort };
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const x = typeof a === "string" ? a : JSON.stringify(a);
  const y = typeof b === "string" ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sorted by the requested keys in priority order; ties keep the service's default order. */
export function sortItems<T extends Record<string, unknown>>(items: T[], sort: PageRequest["sort"]): T[] {
  if (sort.length === 0) return items;
  return items
    .map((item, position) => ({ item, position }))
    .sort((l, r) => {
      for (const { field, direction } of sort) {
        const c = compare(l.item[field], r.item[field]);
        if (c !== 0) return direction === "asc" ? c : -c;
      }
      return l.position - r.position;
    })
    .map((e) => e.item);
}

/** Case-insensitive contains, the reading of the spec's "like-match" / "contains match". */
export function likeMatch(value: unknown, pattern: string | null): boolean {
  if (pattern === null || pattern === "") return true;
  return typeof value === "string" && value.toLowerCase().includes(pattern.toLowerCase());
}

/** The C.2 page envelope. */
export function pageEnvelope<T>(items: T[], request: PageRequest): Record<string, unknown> {
  const offset = request.page * request.size;
  const content = items.slice(offset, offset + request.size);
  const totalPages = Math.ceil(items.length / request.size);
  const sort = { sorted: request.sort.length > 0, unsorted: request.sort.length === 0, empty: request.sort.length === 0 };
  return {
    content,
    pageable: { pageNumber: request.page, pageSize: request.size, sort, offset, paged: true, unpaged: false },
    totalPages,
    totalElements: items.length,
    last: request.page + 1 >= totalPages,
    first: request.page === 0,
    size: request.size,
    number: request.page,
    numberOfElements: content.length,
    sort,
    empty: content.length === 0,
  };
}
