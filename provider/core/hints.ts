/**
 * Errors that say what to do: when the service refuses a value the program gave for an input that
 * must name something offered (a flavor, an engine version, a parameter group, a KMS key, a
 * database instance), the error adds the values that would work and the lookup that lists them,
 * or where to find them (the definition's `offered`).
 */
import { isApiError } from "../../client/core";
import type { AnyDefinition, Context, Offered } from "./resource";

/** Refusals that are about a value: bad request, not found, unprocessable. */
const REFUSALS = new Set([400, 404, 422]);
const MAX_LISTED = 12;

/** `e` with the offered values of the input it refused added to its message; `e` itself otherwise. */
export async function withOfferedValues<E>(def: AnyDefinition, ctx: Context, inputs: Record<string, unknown>, e: E): Promise<E> {
  if (!isApiError(e) || !REFUSALS.has(e.status) || !def.offered) return e;
  const said = `${e.apiMessage ?? ""} ${e.message}`;
  for (const [key, offered] of Object.entries<Offered | undefined>(def.offered)) {
    const value = inputs[key];
    if (!offered || typeof value !== "string" || !(said.includes(key) || said.includes(`"${value}"`) || said.includes(` ${value} `))) continue;
    // A hint that the value names nothing is wrong for any refusal but "not found".
    if ("hint" in offered && offered.missing === true && e.status !== 404) continue;
    let addition: string;
    if ("hint" in offered) addition = `${key} "${value}": ${offered.hint}`;
    else {
      const values = await offered.list(ctx).catch(() => undefined);
      if (values === undefined) addition = `${key}: ${offered.lookup} lists the values offered`;
      else {
        const shown = values.slice(0, MAX_LISTED).join(", ");
        addition = `${key} "${value}" is not among the values offered: ${shown}${values.length > MAX_LISTED ? `, ... (${values.length} in all)` : ""} (${offered.lookup} lists them)`;
      }
    }
    (e as unknown as Error).message = `${(e as unknown as Error).message}. ${addition}`;
    return e;
  }
  return e;
}
