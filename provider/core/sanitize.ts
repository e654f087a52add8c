/**
 * Outputs go into Pulumi state as plain JSON: no undefined (the engine rejects it), no class
 * instances, no Buffers, no functions, keys sorted for stable diffs.
 */
export function toPlain<T>(v: T): T {
  return clean(v) as T;
}

function clean(v: unknown): unknown {
  if (v === undefined || typeof v === "function" || typeof v === "symbol") return undefined;
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("base64");
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : clean(x)));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const c = clean((v as Record<string, unknown>)[k]);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

/** Deep equality on plain JSON values, treating a missing key and undefined alike. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(toPlain(a)) === JSON.stringify(toPlain(b));
}
