/**
 * diff: pure. Which inputs changed, which of them replace the resource, and whether a replacement
 * must wait for the delete (a unique name); an unknown value may differ, so it is a change, and a
 * replacement for a replace-on key.
 */
import { defaultOf, withWriteOnly } from "../properties";
import { replacementWarning } from "../replacement";
import { inputKeys, PARTIAL_KEY, type AnyDefinition, type DiffResult } from "../resource";
import { jsonEqual } from "../sanitize";
import { containsUnknown } from "../unknown";

/** `oldInputs`: the recorded inputs, where the engine gives them (the native plugin; dynamic providers get outputs only). */
export async function diff(
  def: AnyDefinition,
  id: string,
  recorded: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs?: Record<string, unknown>,
): Promise<DiffResult> {
  const olds = withWriteOnly(def, recorded, news, oldInputs);
  const { changed, replacesKeys } = changesOf(def, olds, news);
  // A replacement under a new name can be created before the old one is deleted; under the same
  // (unique) name it must wait for the delete.
  const nameKey = def.autoName?.property;
  const sameName = nameKey === undefined || containsUnknown(news[nameKey]) || jsonEqual(news[nameKey], olds[nameKey]);
  const warning = replacesKeys.length > 0 ? replacementWarning(def, id, olds, news, replacesKeys) : undefined;
  const notes = changed.length > 0 && def.diffNotes !== undefined && !containsUnknown(news) ? noted(def, id, olds, news) : [];
  return {
    changes: changed.length > 0 || olds[PARTIAL_KEY] !== undefined,
    replaces: replacesKeys,
    diffs: changed,
    ...(warning !== undefined ? { warnings: [warning] } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    // Also without a replace-on change of its own: the engine may replace it anyway (`up --replace`,
    // replaceOnChanges), and then under the same name.
    deleteBeforeReplace: typeof def.deleteBeforeReplace === "function" ? def.deleteBeforeReplace(olds, news) : def.deleteBeforeReplace === true && sameName,
  };
}

/** The inputs that differ (or may: unknown), and those of them that replace the resource. */
function changesOf(def: AnyDefinition, olds: Record<string, unknown>, news: Record<string, unknown>): { changed: string[]; replacesKeys: string[] } {
  const replacesKeys: string[] = [];
  const changed: string[] = [];
  for (const key of inputKeys(def)) {
    const n = news[key];
    const o = olds[key];
    // An unknown value may turn out different: for a replace-on key that is a (possible) replacement.
    const differs = containsUnknown(n) || !jsonEqual(n, o);
    // State written before an input existed lacks it: its default there is no change.
    if (!differs || (o === undefined && jsonEqual(n, defaultOf(def, key)))) continue;
    changed.push(key);
    const replaceIf = def.replaceIf?.[key];
    if (def.replaceOn[key] !== undefined || (replaceIf !== undefined && (containsUnknown(n) || replaceIf.when(o, n)))) replacesKeys.push(key);
  }
  return { changed, replacesKeys };
}

/**
 * The definition's notes on a diff, each naming its resource: `pulumi preview --diff` prints them
 * on stderr as bare lines, apart from the resource's block, so a note must say whose it is. A note
 * that cannot be made (a folder gone since check) is left out, never a failed diff.
 */
function noted(def: AnyDefinition, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  try {
    return def.diffNotes!(olds, news).map((n) => `${def.describe(id)}: ${n}`);
  } catch {
    return [];
  }
}
