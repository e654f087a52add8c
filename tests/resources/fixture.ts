/**
 * What a resource type's test fixture (`tests/resources/<module>/<noun>.ts`, beside nothing but
 * other fixtures) exports: every fact about the type that the tests walking every resource type
 * need, in one file. index.ts loads them by the registry's definitions and derives the tables.
 */
import type { Settings } from "../../client/core";
import type { Control, StateResource } from "../harness/engine";
import type { RulesContext, TypeRules } from "../support/inputs/cross-field";
import type { Input } from "../support/inputs/rules";
import type { ProjectView, TypeSpec } from "../support/faults/columns";
import type { Entry } from "../support/faults/sim-stack";
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
  /** Its resources in the zero-diff suite's two specs (tests/support/zero-diff/), also the drift-all stack's. */
  zeroDiffSpec: ZeroDiffSpec;
  /** What the cloud holds for one of its state entries, as the fault matrix compares them (orphans, duplicates, ghosts). */
  cloudKinds: (entry: Entry) => CloudKind[];
  /** How it drifts behind Pulumi's back and how that is seen, or why the drift check cannot see it. */
  drift: DriftFact;
  /** How it is made outside Pulumi, for a stack to adopt or import, or why it cannot be. */
  outside: OutsideFact;
  /** Whether its inputs hold secrets, and then what the secrets scan does with them. */
  secrets: SecretsFact;
}

/** The names of a fixture's exports, in the order a missing one is named. */
export const FIXTURE_EXPORTS = ["valid", "crossFieldRules", "faultRow", "zeroDiffSpec", "cloudKinds", "drift", "outside", "secrets"] as const;

// ---------------------------------------------------------------------------------------------
// cloudKinds: what the cloud holds for a state entry

/**
 * One thing the cloud holds for a state entry: `kind` as the control API's inventory names it
 * (`object-storage/bucket`, `<service>/<kind>`) and its id there. `present`, for what the inventory
 * does not list (a KMS ciphertext): asks the cloud whether it is there.
 */
export interface CloudKind {
  kind: string;
  id: string;
  present?: (p: ProjectView) => Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// drift: how it drifts behind Pulumi's back

/**
 * How a type drifts behind Pulumi's back, one of:
 *
 * - `recipe`: through the control API, on a record the recipe can snapshot; the examples' drift
 *   test (tests/engine/examples.test.ts) and the drift-all stack both run it;
 * - `change` with `noRecipe`: a change only the drift-all stack makes (through the public API, or
 *   of something without one control record), and why it has no recipe;
 * - `none`: why the drift check cannot see a change (the definition is `unverifiable`).
 */
export type DriftFact = { recipe: DriftRecipe } | { change: DriftChange; noRecipe: string } | { none: string };

export interface DriftRecipe {
  /** Control API service and kind of the record behind a resource (the control id is the resource id). */
  service: string;
  kind: string;
  /** True for the resource others hang off (the bucket): deleting it takes its dependents along. */
  root?: boolean;
  /** The part of the control record that the program manages, to compare before drift and after up. */
  snapshot(record: Record<string, unknown>): unknown;
  /** Changes the resource behind Pulumi's back; returns the input properties expected to show as drifted. */
  drift(control: Control, r: StateResource): Promise<string[]>;
  /** After `refresh`: the drifted value as recorded in state (outputs; secret outputs are skipped). */
  recorded(outputs: Record<string, unknown>): boolean;
  /** Whether the recipe applies to this resource (absent: always); a terminated job cluster cannot be drifted and put back. */
  applies?(r: StateResource): boolean;
}

/** What a drift change may use: the control API, the project's client settings, what the stack's spec was made with. */
export interface DriftContext {
  control: Control;
  settings: Settings;
  fx: CloudFixture;
  s: SecretValues;
}

/** Changes a resource behind Pulumi's back; returns the input properties expected to show as drifted. */
export type DriftChange = (c: DriftContext, r: StateResource) => Promise<string[]>;

// ---------------------------------------------------------------------------------------------
// outside: made outside Pulumi, for a stack to take over

/**
 * How a type is made outside Pulumi (through the client, as a console user or a script would) for
 * a stack to adopt (dynamic classes) or `pulumi import` (native plugin): `make`, with
 * `notAdoptable` saying why a dynamic-class program cannot adopt it when it cannot; or `none`: why
 * nothing is made (the cloud keeps no record of it, or where its take-over is tested instead).
 */
export type OutsideFact = { make: (c: OutsideContext) => Promise<OutsideResource[]>; notAdoptable?: string } | { none: string };

export interface OutsideResource {
  /** Logical name the program declares it under. */
  name: string;
  type: string;
  /** The id `pulumi import` takes. */
  importId: string;
  /** What the program declares: the values it was made with. */
  properties: Record<string, unknown>;
  /**
   * How a dynamic-class program takes it over (`adopt: true`, a shard's `adoptShardId`); absent:
   * it cannot be taken over (its fact's `notAdoptable` says why).
   */
  adopt?: Record<string, unknown>;
}

/** Where the outside resources go in the stack that takes them over. */
export interface StackTargets {
  /** A cluster of the stack: a shard is added to it (a Cluster resource leaves shards it did not add alone). */
  clusterId: string;
  /** A bucket of the stack destroyed with what it holds (`forceDestroy`): documents, query results and an object go there. */
  resultsBucket: string;
}

/**
 * What `make` is given. `set`: `plain`, every input the cloud answers back; `secret`, inputs the
 * cloud never answers back (write-only: passwords, inline content). A type makes its resources of
 * one set or both; `[]` for a set it has nothing in.
 */
export interface OutsideContext {
  set: "plain" | "secret";
  settings: Settings;
  fx: CloudFixture;
  s: SecretValues;
  /** Unique per call: explicit names derive from it. */
  tag: string;
  stack: StackTargets;
  /** The logical name of one of its resources in this set (`zo-bucket`, `zs-cluster`). */
  name: (x: string) => string;
}

// ---------------------------------------------------------------------------------------------
// secrets: what the secrets scan does with a type whose inputs hold secrets

/**
 * Whether its inputs hold secrets (passwords) that the secrets scan (tests/support/secrets/scan.ts)
 * must put in its failing and KMS stacks: `holder`, or `none` saying why not.
 */
export type SecretsFact = { holder: SecretHolder } | { none: string };

export interface SecretHolder {
  /** Its zero-diff base resource's inputs with every password-like input given as a KMS ciphertext (`kms(k)`: that secret value encrypted). */
  asCiphertexts(properties: Record<string, unknown>, kms: (k: keyof SecretValues) => { keyId: string; ciphertext: string }): Record<string, unknown>;
  /** How a run fails after its create request carried the secrets, or why it is not in the failing stack. */
  failing: FailingCreate | { none: string };
}

/** How the secrets scan's failing stack makes a create fail after the request carrying the secrets was accepted. */
export interface FailingCreate {
  /** Its explicit name in the failing stack (an error names it). */
  name(tag: string): string;
  /** Inputs besides its zero-diff base resource's (no references: the failing stack holds nothing else). */
  properties?: Record<string, unknown>;
  /** The create request that carries the secrets, `[service, operation]`: accepted before the run failed. */
  request: readonly [string, string];
  /** Plants the failure through the control API before the run; returns what removes it. */
  plant(control: Control, name: string): Promise<() => Promise<void>>;
}

/** A row of the fault matrix without its token and service (the fixture's type; tests/support/faults/rows.ts adds them). */
export type FaultRow = Omit<TypeSpec, "token" | "service">;

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
