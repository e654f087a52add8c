/**
 * What a resource type's test fixture (`tests/resources/<module>/<noun>.ts`, beside nothing but
 * other fixtures) exports: every fact about the type that the tests walking every resource type
 * need, in one file. index.ts loads them by the registry's definitions and derives the tables.
 */
import type { RulesContext, TypeRules } from "../support/inputs/cross-field";
import type { Input } from "../support/inputs/rules";
import type { TypeSpec } from "../support/faults/columns";
import type { CloudFixture, SecretValues, SpecResource } from "../support/zero-diff/spec";

/** A secret no other text contains: the value of every secret-bearing input of the fixtures' `valid`. */
export const SECRET_MARK = "Sekr1t-Distinctive-42";

/**
 * A fixture's exports. `valid`: inputs each resource's `check` accepts, with every secret-bearing
 * input set (secrets parity, generated bad inputs); whether the cloud has what they name (a flavor,
 * a key) is for the tests that send them to say.
 */
export interface ResourceFixture {
  valid: Input;
  /** The rules of its inputs that tie several properties together (tests/support/inputs/cross-field.ts). */
  crossFieldRules(ctx: RulesContext): TypeRules;
  /** Its row of the fault matrix (tests/support/faults/). */
  faultRow: FaultRow;
  /** Its resources in the zero-diff suite's two specs (tests/support/zero-diff/). */
  zeroDiffSpec: ZeroDiffSpec;
}

/** A row of the fault matrix without its token (the fixture's type). */
export type FaultRow = Omit<TypeSpec, "token">;

/** What a fixture's zero-diff resources are made with. */
export interface ZeroDiffContext {
  /** What the local cloud holds for the specs (a KMS key, database instances). */
  fx: CloudFixture;
  /** The distinctive secret values. */
  s: SecretValues;
  /** A resource of the spec: its logical name gets the spec's prefix. */
  r: (name: string, type: string, properties: Record<string, unknown>, options?: SpecResource["options"]) => SpecResource;
  /** A reference to another resource's output, `${<prefix>-name.prop}`: any fixture's resource of the same spec. */
  ref: (name: string, prop: string) => string;
}

/** The varied spec's context: a tag making explicit names unique, a file to upload, the timeouts every type with waits sets. */
export interface VariedContext extends ZeroDiffContext {
  tag: string;
  assetFile: string;
  timeouts: { create: string; update: string; delete: string };
}

export interface ZeroDiffSpec {
  /** Minimal inputs: auto-named where a name may be omitted, defaults everywhere. */
  base(c: ZeroDiffContext): SpecResource[];
  /** Every optional property set once where the local cloud can honour it (zero-diff/spec.ts says which are not). */
  varied(c: VariedContext): SpecResource[];
}
