/**
 * Which properties of a resource are secret, from its definition alone. Both front doors use these:
 * the dynamic classes (class.ts) and the native plugin (provider/plugin) and schema.json, so a
 * property cannot be secret on one door and plain on the other.
 */
import type { AnyDefinition } from "./resource";

/** Inputs that are always secret: made secret by the class whatever the program passed, marked secret in schema.json. */
export function secretInputKeys(def: AnyDefinition): string[] {
  return [...(def.secretInputs ?? [])];
}

/** Outputs that are always secret: the secret inputs' echoes and the definition's secret outputs. */
export function alwaysSecretOutputKeys(def: AnyDefinition): string[] {
  return [...new Set<string>([...(def.secretInputs ?? []), ...(def.secretOutputs ?? [])])];
}

/**
 * The outputs to keep secret for one set of inputs: the always-secret ones, plus what reveals an
 * input that is (or may be) secret (`secretWith`: an object's ETag and size follow its content).
 */
export function secretOutputsFor(def: AnyDefinition, inputIsSecret: (key: string) => boolean): string[] {
  const keys = new Set<string>(alwaysSecretOutputKeys(def));
  for (const [input, outputs] of Object.entries((def.secretWith ?? {}) as Record<string, readonly string[] | undefined>)) {
    if (inputIsSecret(input)) for (const o of outputs ?? []) keys.add(o);
  }
  return [...keys];
}
