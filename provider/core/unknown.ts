/** During preview, inputs not yet known arrive as this sentinel string. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** True when `path` (from a validation issue) runs through an unknown value of `root`. */
export function pathHitsUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === UNKNOWN) return true;
    if (cur === null || typeof cur !== "object") return false;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return containsUnknown(cur);
}
