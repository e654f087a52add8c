/**
 * Who a resource is, decided at check: its create key (naming.ts `createKeyOf`), its name when the
 * provider generates it, whether it did, and the key to remember for the engine's second check of a
 * replacement. One pure function of what check knows (`identityOf`), so each case reads as a row of
 * its table test (tests/unit/operations/identity.test.ts).
 */
import { autoName, createKeyOf, hexFrom } from "./naming";
import { defaultOf, withoutHidden, withWriteOnly } from "./properties";
import { AUTONAMED_KEY, CREATE_KEY, LOGICAL_NAME_KEY, STACK_KEY, URN_KEY, type AnyDefinition, type CheckOptions, type ReplaceIf } from "./resource";
import { jsonEqual, toPlain } from "./sanitize";
import { containsUnknown, UNKNOWN } from "./unknown";

/** Where a resource stands: the names check derives its identity from. */
export interface Address {
  /** The program's name for it (the auto-name's start). */
  logical: string;
  /** Its URN, or what stands for it (the token and the logical name). */
  urn: string;
  /** The stack's identity; UNKNOWN in the preview of a new stack, absent for a core type's own. */
  stack: unknown;
}

/** What check knows when it decides the identity. */
export interface IdentityFacts extends Address {
  /** The recorded inputs, hidden keys included: none for a new resource, and none at the engine's second check of a replacement. */
  olds: Record<string, unknown>;
  /** The program's inputs without the hidden keys, as given (before any default or generated name). */
  program: Record<string, unknown>;
  /** The inputs as checked (defaults applied, the provisional name in place). */
  checked: Record<string, unknown>;
  /** The key the check before this one remembered for this URN: a replacement's, when this is the engine's second check of it. */
  remembered?: string;
}

export interface Identity {
  /** The create key to record: UNKNOWN while it derives from an unknown stack; undefined for state written before keys existed. */
  createKey: string | undefined;
  /** The generated name to put in the checked inputs; undefined: keep the name they hold. */
  name: string | undefined;
  /** Whether the name is the provider's (recorded, so a replacement generates a new one). */
  autoNamed: boolean;
  /** The key to remember for the next check of this URN; undefined: forget it. */
  memo: string | undefined;
  /** A new resource's first check (not the second check of a replacement): the one that announces an adoption. */
  firstCheck: boolean;
}

/** The names of the resource check is called for: from the native plugin's options, else from the hidden keys the classes pass. */
export function addressOf(def: AnyDefinition, news: Record<string, unknown>, opts: CheckOptions | undefined): Address {
  const logical = typeof news[LOGICAL_NAME_KEY] === "string" ? news[LOGICAL_NAME_KEY] : (def.token.split(":")[2] ?? "");
  const urn = opts?.urn ?? (typeof news[URN_KEY] === "string" ? news[URN_KEY] : `${def.token}::${logical}`);
  return { logical, urn, stack: opts?.stack ?? news[STACK_KEY] };
}

/**
 * A name for the program's omitted one, so the rest of the inputs validates: the recorded name, or
 * the first create's. The final name depends on whether this check replaces (`identityOf`).
 * Undefined when the program names the resource (or the type has no name).
 */
export function provisionalName(def: AnyDefinition, facts: Omit<IdentityFacts, "checked" | "remembered">): string | undefined {
  const nameKey = def.autoName?.property;
  if (nameKey === undefined || isNamed(facts.program, nameKey)) return undefined;
  return previousNameOf(withoutHidden(facts.olds), nameKey) ?? autoName(facts.logical, def.autoName!, hexFrom(createKeyOf(keyBaseOf(facts), undefined)));
}

/**
 * The identity decision. The create key is the same for every attempt at one create and new for
 * each replacement (a digest of the URN and the stack's identity, and of the key of what it
 * replaces). The engine checks a replacement twice: with the old inputs, then with none (pulumi
 * v3.259 step_generator, "recompute the default values"), and creates what the second check
 * returns. Taken for a first create, it would get the old resource's name back, and a replacement
 * made before the old one is deleted would meet (and take over) the resource about to be deleted.
 * So every check of a recorded resource remembers its replacement key, and the second check uses
 * it: a replacement the engine decides on its own (replaceOnChanges) gets a new name too.
 */
export function identityOf(def: AnyDefinition, facts: IdentityFacts): Identity {
  const old = withoutHidden(facts.olds);
  const isNew = Object.keys(old).length === 0;
  const nameKey = def.autoName?.property;
  const named = nameKey === undefined || isNamed(facts.program, nameKey);
  const previousName = nameKey === undefined ? undefined : previousNameOf(old, nameKey);
  const base = keyBaseOf(facts);
  // The stack's identity joins the URN in the create key: the URN names neither the backend nor the
  // organisation, so a twin stack (same stack and project name, another backend) would derive the
  // same names and ownership markers (ownership.ts). Unknown in the preview of a new stack: then so
  // are a new resource's generated name and create key.
  const stackUnknown = facts.stack === UNKNOWN;
  const replacing = !isNew && replaces(def, withWriteOnly(def, old, facts.checked, undefined), facts.checked, nameKey);
  const oldKey = typeof facts.olds[CREATE_KEY] === "string" ? facts.olds[CREATE_KEY] : undefined;
  const replacementKey = isNew ? undefined : createKeyOf(base, oldKey ?? previousName ?? JSON.stringify(toPlain(old)));
  const secondCheck = isNew ? facts.remembered : undefined;
  // A key that would be derived from the stack's identity while it is unknown is unknown too.
  const createKey =
    stackUnknown && (isNew || replacing) && secondCheck === undefined
      ? UNKNOWN
      : (secondCheck ?? (isNew ? createKeyOf(base, undefined) : replacing ? replacementKey : oldKey));
  const generates = !named && (isNew || replacing || previousName === undefined);
  const name = !generates ? undefined : createKey === UNKNOWN ? UNKNOWN : autoName(facts.logical, def.autoName!, hexFrom(createKey ?? replacementKey!));
  return {
    createKey,
    name,
    autoNamed: generates || (facts.olds[AUTONAMED_KEY] === true && !named),
    memo: replacementKey !== undefined && !stackUnknown ? replacementKey : undefined,
    firstCheck: isNew && secondCheck === undefined,
  };
}

/** Whether the checked inputs replace what `old` recorded (replace-on keys other than the auto-name, known values only). */
export function replaces(def: AnyDefinition, old: Record<string, unknown>, next: Record<string, unknown>, nameKey: string | undefined): boolean {
  for (const key of Object.keys(def.replaceOn)) {
    if (key === nameKey || containsUnknown(next[key])) continue;
    if (!jsonEqual(toPlain(next[key]), toPlain(old[key])) && !(old[key] === undefined && jsonEqual(toPlain(next[key]), defaultOf(def, key)))) return true;
  }
  for (const [key, replaceIf] of Object.entries((def.replaceIf ?? {}) as Record<string, ReplaceIf | undefined>)) {
    if (replaceIf && !containsUnknown(next[key]) && replaceIf.when(toPlain(old[key]), toPlain(next[key]))) return true;
  }
  return false;
}

/** What the create key digests besides what it replaces: the URN, and the stack's identity when known. */
function keyBaseOf(a: Address): string {
  return typeof a.stack === "string" && a.stack !== "" && a.stack !== UNKNOWN ? `${a.urn}\u0000${a.stack}` : a.urn;
}

function isNamed(program: Record<string, unknown>, nameKey: string): boolean {
  return program[nameKey] !== undefined && program[nameKey] !== null;
}

function previousNameOf(old: Record<string, unknown>, nameKey: string): string | undefined {
  const v = old[nameKey];
  return typeof v === "string" && v !== "" ? v : undefined;
}
