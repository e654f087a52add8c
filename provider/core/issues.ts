/** How a failed validation reads: the path of the property and the rule it broke. */

/**
 * zod reports a record key that fails its schema as "Invalid key in record" and keeps the rule's
 * own message (e.g. "metadata names must be 2 to 64 characters") in nested issues: surface those.
 */
export function issueMessage(i: { code?: string; message: string; issues?: readonly { message: string }[] }): string {
  return i.code === "invalid_key" && i.issues?.length ? i.issues.map((n) => n.message).join("; ") : i.message;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}
