/**
 * A resource's properties as the operations see them: the definition's own (without the keys the
 * engine, the classes and check add), the create key kept beside the outputs, the write-only values
 * the cloud never shows filled in from what was recorded, and the default of an omitted input.
 */
import { CREATE_KEY, HIDDEN_KEYS, inputSchema, type AnyDefinition } from "./resource";
import { toPlain } from "./sanitize";
import { UNKNOWN } from "./unknown";

/** The definition's own properties: without the keys the engine, the classes and check add. */
export function withoutHidden(p: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p ?? {})) if (!HIDDEN_KEYS.includes(k)) out[k] = v;
  return out;
}

/**
 * Outputs (or a read's inputs) with the create key check recorded: kept in the outputs too, as a
 * hidden property, because a dynamic provider's read gets only the outputs, and a refresh records
 * the inputs read returns. Without it, a refreshed resource would forget its key, and an update
 * that rewrites its ownership marker (a description) could not keep it.
 */
export function withCreateKey<T extends Record<string, unknown>>(props: T, createKey: unknown): T {
  return typeof createKey === "string" && createKey !== UNKNOWN ? { ...props, [CREATE_KEY]: createKey } : props;
}

/** The value an input takes when the program omits it (undefined when it has no default). */
export function defaultOf(def: AnyDefinition, key: string): unknown {
  const field = (inputSchema(def) as unknown as { shape?: Record<string, { safeParse?: (v: unknown) => { success: boolean; data?: unknown } }> }).shape?.[key];
  const r = field?.safeParse?.(undefined);
  return r?.success ? toPlain(r.data) : undefined;
}

/**
 * The recorded outputs with the write-only inputs the cloud could not show filled in: from the
 * recorded inputs where they hold them, else (right after an import) from the program, unless the
 * definition's `matches` finds that what the cloud shows disagrees.
 */
export function withWriteOnly(
  def: AnyDefinition,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const wo = def.writeOnly;
  if (wo === undefined) return olds;
  const unshown = wo.paths.filter((p) => missing(valueAt(olds, p)));
  if (unshown.length === 0) return olds;
  const filled = structuredClone(olds);
  let trusted: boolean | undefined;
  for (const p of unshown) {
    const before = oldInputs === undefined ? undefined : valueAt(oldInputs, p);
    if (!missing(before)) setAt(filled, p, before);
    else if ((trusted ??= wo.matches?.(olds, news) ?? true)) setAt(filled, p, valueAt(news, p));
  }
  return filled;
}

/**
 * The inputs a read returns, with the write-only values the recorded inputs hold and the cloud
 * could not show kept: a refresh must not forget the password an up recorded.
 */
export function keepWriteOnly(def: AnyDefinition, inputs: Record<string, unknown>, recorded: Record<string, unknown>): Record<string, unknown> {
  const kept = (def.writeOnly?.paths ?? []).filter((p) => missing(valueAt(inputs, p)) && !missing(valueAt(recorded, p)));
  if (kept.length === 0) return inputs;
  const out = structuredClone(inputs);
  for (const p of kept) setAt(out, p, valueAt(recorded, p));
  return out;
}

/** What the cloud shows for a write-only value it never returns. */
function missing(v: unknown): boolean {
  return v === undefined || v === null || v === "";
}

function valueAt(o: unknown, path: string): unknown {
  let v = o;
  for (const k of path.split(".")) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Sets (or, for undefined, removes) the value at `path` where its parent object exists. */
function setAt(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let parent: unknown = o;
  for (const k of keys.slice(0, -1)) parent = parent !== null && typeof parent === "object" ? (parent as Record<string, unknown>)[k] : undefined;
  if (parent === null || typeof parent !== "object") return;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete (parent as Record<string, unknown>)[last];
  else (parent as Record<string, unknown>)[last] = value;
}
