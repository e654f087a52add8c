/**
 * The rules of each resource's inputs that tie several properties together, written by hand from
 * the definitions (their refinements and descriptions) and the service's contract, in each type's
 * fixture (tests/resources/<module>/<noun>.ts, `crossFieldRules`): the generated bad inputs
 * (rules.ts) read everything else from the schemas, but a refinement is a function whose rule no
 * walk can read. Per resource type:
 * - `values`: how to make valid values for schema paths whose rules live in a refinement of their
 *   container (a backup cron, a subnet that must be one of `subnetIds`, a file that must exist);
 * - `keep`: turns an input that keeps every single-property rule into one that keeps the
 *   cross-field rules too (the generated valid inputs go through it);
 * - `rules`: each cross-field rule, with inputs that break it, the property path `check` must name
 *   and the text its reason must carry. `at` is the schema path of the refined container (`""` for
 *   the whole input); every refined container of a schema needs at least one rule here. Two more
 *   kinds sit beside them: `derive`, facts check computes (a source file must exist), and
 *   `service`, rules of the service a schema did not state until generated inputs that check
 *   accepted were refused by the local cloud or the client at create.
 */
import fc, { type Arbitrary } from "fast-check";
import { isPlainObject, type Input } from "./rules";

export interface BrokenInput {
  input: Input;
  /** The property path check must name. */
  path: string;
  /** Texts the reason must carry. */
  texts: string[];
}

export interface CrossFieldRule {
  /** The rule, for test names and reports. */
  rule: string;
  /** The schema path of the container whose refinement checks it; `""` for the whole input; `derive` or `service` (see above). */
  at: string;
  /** Inputs breaking it, made from a valid one (a clone: change it freely). */
  break: Arbitrary<(valid: Input) => BrokenInput>;
}

export interface TypeRules {
  values?: Record<string, Arbitrary<unknown>>;
  keep?(input: Input): void;
  rules: CrossFieldRule[];
}

/** Local facts some checks read: a file that exists (BucketObject sources). */
export interface RulesContext {
  file: string;
}

// ---------------------------------------------------------------------------------------------
// What the rules of every type use: small accessors of a generated input, how a rule is written,
// the password given either as a value or as a KMS ciphertext, and the durations every type's
// `timeouts` takes.

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Removes properties (the generated input must not carry them at all, not even as undefined). */
export function drop(o: Obj, ...keys: string[]): void {
  for (const k of keys) delete o[k];
}

/**
 * Rules of the service that a property's schema did not state: found by sending generated inputs
 * that check accepted to the local cloud (or through the client), which refused them at create. Kept
 * here, by hand, so that they stay enforced whatever the schema says.
 */
export function serviceRules<T>(r: string, values: Arbitrary<T>, make: (v: T) => (valid: Input) => BrokenInput): CrossFieldRule[] {
  return [{ rule: r, at: "service", break: values.map(make) }];
}

export const rule = (r: string, at: string, make: Arbitrary<(valid: Input) => BrokenInput>): CrossFieldRule => ({ rule: r, at, break: make });

// ---------------------------------------------------------------------------------------------
// A password given either as a value or as a KMS ciphertext (provider/kms/encrypted-input.ts)

const KMS_ENCRYPTED = { keyId: "key-1", ciphertext: "kms:1:AAAA" };

/** Keeps exactly one of `plain` and `encrypted` in `o` (or neither, when the password is optional). */
export function keepOneOf(o: Obj, plain: string, encrypted: string, required: boolean): void {
  if (o[plain] !== undefined && o[encrypted] !== undefined) delete o[encrypted];
  if (required && o[plain] === undefined && o[encrypted] === undefined) o[plain] = "pw-1";
}

/** The two rules of such a pair: not both; one of them when required. `where` reaches the object holding them. */
export function oneOfRules(at: string, where: (i: Input) => Obj, plain: string, encrypted: string, required: boolean, path: string): CrossFieldRule[] {
  const prefix = path ? `${path}.` : "";
  const both = rule(
    `${prefix}${plain} or ${encrypted}, not both`,
    at,
    fc.constant((valid) => {
      const input = structuredClone(valid);
      Object.assign(where(input), { [plain]: "pw-1", [encrypted]: KMS_ENCRYPTED });
      return { input, path: `${prefix}${encrypted}`, texts: [`give either ${plain} or ${encrypted}, not both`] };
    }),
  );
  if (!required) return [both];
  const neither = rule(
    `${prefix}${plain} or ${encrypted} is required`,
    at,
    fc.constant((valid) => {
      const input = structuredClone(valid);
      const o = where(input);
      delete o[plain];
      delete o[encrypted];
      return { input, path: `${prefix}${plain}`, texts: [`is required (or ${encrypted}, the same as a KMS ciphertext)`] };
    }),
  );
  return [both, neither];
}

/** The cache user: present in the valid input, with exactly one of password and its ciphertext. */
export function cacheUserRules(): { keep(i: Input): void; rules: CrossFieldRule[] } {
  return {
    keep(i) {
      if (isPlainObject(i.user)) keepOneOf(i.user, "password", "passwordCiphertext", true);
    },
    rules: oneOfRules(
      "user",
      (i) => (isPlainObject(i.user) ? i.user : ((i.user = { name: "app" }), i.user as Obj)),
      "password",
      "passwordCiphertext",
      true,
      "user",
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Timeouts

/** A duration `parseDuration` reads: `1h30m`, `45m`, `90s`, more than zero. */
const duration = fc
  .tuple(fc.option(fc.integer({ min: 0, max: 99 })), fc.option(fc.integer({ min: 0, max: 999 })), fc.option(fc.integer({ min: 0, max: 9999 })))
  .filter(([h, m, s]) => (h ?? 0) + (m ?? 0) + (s ?? 0) > 0)
  .map(([h, m, s]) => `${h === null ? "" : `${h}h`}${m === null ? "" : `${m}m`}${s === null ? "" : `${s}s`}`);

/** Values every type with these properties takes (rules the schema states as refinements of one value). */
export const TIMEOUTS = { "timeouts.create": duration, "timeouts.update": duration, "timeouts.delete": duration };
