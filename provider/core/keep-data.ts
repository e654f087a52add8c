/**
 * A replacement that keeps the data (a definition's `keepsData`): Pulumi's Create does not receive
 * the resource it replaces and Delete cannot tell a replacement from a destroy, but `check` gets the
 * old inputs and already knows whether the change replaces. So check asks the definition for the
 * plan (reads only), records it as the hidden input REPLACING_KEY, and the create follows it with
 * the plan in `ctx.replacing` (docs/changing-stateful-resources.md).
 *
 * The engine checks a replacement twice, the second time without old inputs, and creates what the
 * second check returns; like the replacement key (provider.ts), the plan of the first check is kept
 * for the second, per type and URN.
 */
import { authenticated, SERVICES, type ServiceName } from "../../client/core";
import { replaces } from "./identity";
import { withoutHidden, withWriteOnly } from "./properties";
import { CREATE_KEY, REPLACING_KEY, type AnyDefinition, type Context } from "./resource";

/** The plan a check made for a replacement, by type and URN, until the engine's second check of it. */
const plans = new Map<string, Record<string, unknown>>();

export interface KeepDataCheck {
  /** `<token>\0<urn>`: the key of the replacement-key memo too. */
  memoKey: string;
  /** The old inputs as the engine gave them (hidden keys included): none for a new resource and for the engine's second check of a replacement. */
  olds: Record<string, unknown>;
  /** The checked new inputs. */
  news: Record<string, unknown>;
  /** The create key check chose (the replacement's, when it replaces). */
  createKey: string | undefined;
}

/**
 * What check adds for a replacement that keeps the data: the hidden plan, or the failures that
 * refuse the change. Nothing for a type without `keepsData`, for inputs that do not want it, and
 * for a change that does not replace.
 */
export async function keepDataCheck(
  def: AnyDefinition,
  ctx: Context,
  c: KeepDataCheck,
): Promise<{ hidden: Record<string, unknown>; failures: { property: string; reason: string }[] }> {
  const none = { hidden: {}, failures: [] };
  const remembered = plans.get(c.memoKey);
  plans.delete(c.memoKey);
  const k = def.keepsData;
  if (k === undefined || !k.wanted(c.news)) return none;
  const old = withoutHidden(c.olds);
  // The engine's second check of the replacement: the plan of the first.
  if (Object.keys(old).length === 0) return remembered === undefined ? none : { hidden: { [REPLACING_KEY]: remembered }, failures: [] };
  const nameKey = def.autoName?.property;
  if (!replaces(def, withWriteOnly(def, old, c.news, undefined), c.news, nameKey)) return none;
  const sameName = nameKey !== undefined && c.news[nameKey] === old[nameKey];
  const oldCreateKey = typeof c.olds[CREATE_KEY] === "string" ? c.olds[CREATE_KEY] : undefined;
  // The settings completed by the credential (the token's project, the catalog's endpoints), as checkWithCloud's.
  const service = def.token.split(":")[1] as ServiceName;
  if (SERVICES.includes(service)) ctx.settings = await authenticated(ctx.settings, { service });
  const r = await k.plan(ctx, { old, oldCreateKey, news: c.news, createKey: c.createKey, sameName });
  if ("failures" in r) return { hidden: {}, failures: r.failures };
  plans.set(c.memoKey, r.plan);
  return { hidden: { [REPLACING_KEY]: r.plan }, failures: [] };
}

/** The plan a create of a replacement follows (its inputs' hidden REPLACING_KEY), if any. */
export function replacingOf(inputs: Record<string, unknown>): Record<string, unknown> | undefined {
  const p = inputs[REPLACING_KEY];
  return p !== null && typeof p === "object" && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
}
