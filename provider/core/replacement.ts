/**
 * What the preview says about a replacement before it happens: which properties force it, why
 * (the reason the definition's `replaceOn` or `replaceIf` gives each), and what it loses
 * (`replacementLoses`: the data, the endpoint). The engine's diff display names changed
 * properties but never why one replaces, and a secret property's change shows only as the name it
 * makes change (pulumi/pulumi#3080: a dynamic provider's diff has no detailed diff at all). Both doors log these lines as warnings: the native
 * plugin through the engine on the resource's row, the dynamic classes through the engine too
 * (engine-log.ts). Values are never quoted: a property may be secret. A replacement that keeps the
 * data (keep-data.ts) says how instead of what is lost.
 */
import { replacingOf } from "./keep-data";
import { AUTONAMED_KEY, type AnyDefinition } from "./resource";
import { containsUnknown } from "./unknown";

/** Why a change of `key`, a key of its `replaceOn` or `replaceIf`, replaces a resource of `def`. */
export function replaceReasonOf(def: AnyDefinition, key: string): string | undefined {
  return def.replaceOn[key] ?? def.replaceIf?.[key]?.reason;
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
  const why = causes.map((k) => {
    const reason = replaceReasonOf(def, k);
    return `${k} ${containsUnknown(news[k]) ? "may change (known only at apply)" : "changes"}${reason === undefined ? "" : `, and ${reason}`}`;
  });
  const plan = replacingOf(news);
  const after = plan !== undefined && def.keepsData ? ` ${def.keepsData.words(plan)}` : def.replacementLoses ? ` ${def.replacementLoses}` : "";
  return `${named(def, id, nameKey === undefined ? undefined : olds[nameKey])} will be REPLACED: ${why.join("; ")}.${after}`;
}

/**
 * A resource as the progress lines of its operations name it: by its name, its id after it when the
 * two differ (`cache cluster "sessions" (cluster-1a2b)`), else by its id.
 */
export function named(def: AnyDefinition, id: string, name: unknown): string {
  return typeof name === "string" && name !== "" && name !== id ? `${def.describe(name)} (${id})` : def.describe(id);
}
