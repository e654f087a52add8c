/**
 * What the preview says about a replacement before it happens: which properties force it, why
 * (the definition's `replaceReasons`), and what it loses (`replacementLoses`: the data, the
 * endpoint). The engine's diff display names changed properties but never why one replaces, and a
 * secret property's change shows only as the name it makes change (pulumi/pulumi#3080: a dynamic
 * provider's diff has no detailed diff at all). Both doors log these lines as warnings: the native
 * plugin through the engine on the resource's row, the dynamic classes through the engine too
 * (engine-log.ts). Values are never quoted: a property may be secret.
 */
import { AUTONAMED_KEY, type AnyDefinition } from "./resource";
import { containsUnknown } from "./unknown";

/** A replace-on key's reason when its definition gives none. */
export const DEFAULT_REPLACE_REASON = "the service has no operation that changes it in place";

/** Why a change of `key` replaces a resource of `def`. */
export function replaceReasonOf(def: AnyDefinition, key: string): string {
  const reasons = (def.replaceReasons ?? {}) as Record<string, string | undefined>;
  return reasons[key] ?? def.replaceReason ?? DEFAULT_REPLACE_REASON;
}

/**
 * The warning for a diff that replaces: one line naming the resource, each property that forces
 * the replacement with its reason, and what the replacement loses. A generated name that changes
 * only because the resource is replaced is a consequence, not a cause, and is left out when
 * something else forces it. Undefined when nothing replaces.
 */
export function replacementWarning(
  def: AnyDefinition,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  replaces: readonly string[],
): string | undefined {
  const nameKey = def.autoName?.property;
  const generated = nameKey !== undefined && news[AUTONAMED_KEY] === true;
  const causes = replaces.filter((k) => !(generated && k === nameKey && replaces.length > 1));
  if (causes.length === 0) return undefined;
  const name = nameKey !== undefined && typeof olds[nameKey] === "string" && olds[nameKey] !== id ? ` (${olds[nameKey]})` : "";
  const why = causes.map((k) => `${k} ${containsUnknown(news[k]) ? "may change (known only at apply)" : "changes"}, and ${replaceReasonOf(def, k)}`);
  const loses = def.replacementLoses ? ` ${def.replacementLoses}` : "";
  return `${def.describe(id)}${name} will be REPLACED: ${why.join("; ")}.${loses}`;
}
