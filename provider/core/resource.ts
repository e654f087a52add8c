/**
 * The contract of a krcloud resource: one `ResourceDefinition` per resource file is its only
 * declaration. From it come the provider both front doors serve (`provider.ts` binding
 * operations/: check, diff, create with recovery, read, update, delete), the user-facing class
 * (`class.ts`), schema.json and the reference docs (tools/), and which properties are secret
 * (`secrets.ts`).
 *
 * Definitions are only ever reached through `runtime.ts` at run time: nothing here is captured by
 * the serialized provider stub.
 */

import type { z } from "zod";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { Clock, Settings } from "../../client/core";
import type { AutoNameRule } from "./naming";
import { jsonEqual, toPlain } from "./sanitize";

export const PROVIDER_KEY = "__provider";
/** Hidden input carrying the Pulumi logical name, for auto-naming (check does not receive the URN). */
export const LOGICAL_NAME_KEY = "__logicalName";
/**
 * Hidden input carrying the resource's URN (native) or the URN the program computes (dynamic), from
 * which its create key is derived. Its stored name keeps the old word: stacks made by earlier releases
 * carry it in their state.
 */
export const URN_KEY = "__krcloudSeed";
/**
 * Hidden input recorded by check: the resource's create key (naming.ts `createKeyOf`), the same for
 * every attempt at one create and new for each replacement. Names derive from it; a resource
 * without a name carries it as a marker (a query's SQL comment).
 */
export const CREATE_KEY = "__krcloudCreateKey";
/** Hidden input recorded by check when it generated the name (the name derives from the create key). */
export const AUTONAMED_KEY = "__krcloudAutoNamed";
/**
 * Hidden input the dynamic classes pass: the stack's identity, the id of its `krcloud-stack`
 * provider resource (stack-identity.ts, class.ts), part of every create key, so two stacks of the same name and project in
 * different backends never derive the same names or ownership markers. The native plugin takes
 * its provider resource's id instead (CheckOptions.stack).
 */
export const STACK_KEY = "__krcloudStack";
/**
 * Hidden output of a resource recorded after a partial failure: the reason. While it is there, diff
 * plans an update whatever the inputs, so the next `up` resumes (waits, converges) instead of
 * seeing nothing to do; a successful update drops it, a refresh keeps it.
 */
export const PARTIAL_KEY = "__krcloudIncomplete";
/**
 * Hidden output of a read that failed while `KRCLOUD_READ_ERRORS=report` (the drift check): the
 * error, with the recorded outputs kept, so a refresh-preview reports every other resource.
 */
export const READ_ERROR_KEY = "__krcloudReadError";
/** The environment variable that, set to `report`, makes a failed read return `READ_ERROR_KEY` instead of failing (krcloud-drift sets it). */
export const READ_ERRORS_ENV = "KRCLOUD_READ_ERRORS";

/**
 * Hidden input recorded by check for a replacement that keeps the data (`keepsData`, keep-data.ts):
 * the plan its create follows (what to back up, what it is called, whether the name stays), which
 * diff also words for the preview. The definition's create gets it as `ctx.replacing`.
 */
export const REPLACING_KEY = "__krcloudReplacing";

/** Keys the engine or the classes add that are not the definition's inputs. */
export const HIDDEN_KEYS: readonly string[] = [
  PROVIDER_KEY,
  LOGICAL_NAME_KEY,
  URN_KEY,
  STACK_KEY,
  CREATE_KEY,
  AUTONAMED_KEY,
  PARTIAL_KEY,
  READ_ERROR_KEY,
  REPLACING_KEY,
];

/** What a CRUD function gets: settings for this call, progress output, the resource's names. */
export interface Context {
  settings: Settings;
  /** A progress line on the provider's stdout, which `pulumi up` shows. */
  progress(message: string): void;
  /** Time and sleep for the provider's own pauses (recovery.ts); the system clock but in tests. */
  clock: Clock;
  /**
   * The resource's create key (create and update): the same for every attempt at one create, so a
   * definition marks what it makes with it (ownership.ts), and keeps the mark when it changes the
   * place that holds it (a description).
   */
  createKey?: string;
  /**
   * Set when the engine gave the operation a timeout (`customTimeouts`, native plugin only): every
   * wait ends by then (see wait.ts). Without it, waits use their own defaults.
   */
  deadline?: Deadline;
  /**
   * Set on the create of a replacement that keeps the data: the plan check recorded
   * (`keepsData.plan`, REPLACING_KEY), naming what it replaces and how.
   */
  replacing?: Record<string, unknown>;
}

export interface Deadline {
  /** Milliseconds since the epoch. */
  at: number;
  /** Aborted at `at`. */
  signal: AbortSignal;
  /** For messages: `the create timeout of 2s (customTimeouts)`. */
  description: string;
}

/** Per-call options the native plugin passes (the dynamic provider host never does). */
export interface OperationOptions {
  /** The engine's timeout for this operation in seconds (`customTimeouts`); 0 or absent: none. */
  timeoutSeconds?: number;
  /** Where progress lines go (the native plugin: the engine's log, on the resource's row); default stdout. */
  progress?: (message: string) => void;
  /** Where a warning goes (the native plugin: the engine's log, on the resource's row); default the dynamic host's engine log. */
  warn?: (message: string) => void;
}

export interface CheckOptions {
  /** The resource's URN (native plugin): from which its create key is derived. The dynamic classes pass `URN_KEY` instead. */
  urn?: string;
  /**
   * The stack's identity (native plugin: the id of the provider resource, unknown in the preview
   * of a new stack). The dynamic classes pass `__krcloudStack` instead.
   */
  stack?: string;
  /** Where a check's notices go (the native plugin: the engine's log, on the resource's row); default stdout. */
  notice?: (message: string) => void;
  /** Where a warning goes, as for an operation (`OperationOptions.warn`). */
  warn?: (message: string) => void;
}

/** `diff` as the dynamic host sees it, plus the changed keys for the native plugin's detailed diff. */
export interface DiffResult extends dynamic.DiffResult {
  /** Every input key whose value differs (or may differ: unknown); `replaces` is a subset. */
  diffs: string[];
  /**
   * Lines for the preview, shown as warnings (the engine's log): why the resource is replaced and
   * what that loses (replacement.ts). The dynamic host ignores the field; runtime.ts and the native
   * plugin log them.
   */
  warnings?: string[];
  /** Lines for the preview, shown as information: what a change of a derived input stands for (`diffNotes`). */
  notes?: string[];
}

/** Thrown by a derivation (`derive`) for an input that fails a local check (a missing source file). */
export class CheckError extends Error {
  readonly code = "KRCLOUD_CHECK";
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by a create or update after the cloud accepted the change but a later step failed. */
export class PartialFailure extends Error {
  readonly code = "KRCLOUD_PARTIAL_FAILURE";
  constructor(
    readonly id: string,
    readonly outs: Record<string, unknown>,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

export function isPartialFailure(e: unknown): e is PartialFailure {
  return (e as { code?: unknown })?.code === "KRCLOUD_PARTIAL_FAILURE";
}

/**
 * How a create finds what it made, or what it would collide with. With it, the core (recovery.ts)
 * resolves every create whose outcome is unknown (a lost answer, a closed connection, a 5xx, a
 * crash of the CLI) by finding what was made and taking it over, never by creating it again; it
 * also serves `adopt: true`.
 */
export interface Recovery<I> {
  /** Whether the inputs ask to adopt an existing resource; default: `adopt: true`. */
  adopting?(inputs: I): boolean;
  /** What exists before the create request, for `find` to tell what the request added (a shard has no name). */
  before?(ctx: Context, inputs: I): Promise<unknown>;
  /**
   * The id of the existing resource a create with these inputs made (by its name, or the create
   * key it carries); undefined when there is none. `before` is what `before` returned, or undefined
   * when called for `adopt` or a check first.
   */
  find(ctx: Context, inputs: I, before: unknown): Promise<string | undefined>;
  /**
   * Look before every create and take over what `find` finds (it finds only this resource's own,
   * by its create key): for creates that have no unique name to collide on, such as a query run,
   * so that the run after a crash does not run it a second time.
   */
  lookFirst?: boolean;
  /**
   * The ownership marker the resource `id` carries (ownership.ts: what this definition's create
   * writes into it), or undefined when it carries none. A create that meets an existing resource
   * takes it over only when this is the marker of its own create key; otherwise it refuses,
   * naming `adopt`. Absent: `find` itself finds only what this create made (by its create key, or
   * as what was not there before the request), which is the proof.
   */
  markerOf?(ctx: Context, id: string): Promise<string | undefined>;
}

/** What a refused value of an input could have been: the values offered (and the lookup listing them), or where to look. */
export type Offered =
  | { list(ctx: Context): Promise<string[]>; lookup: string }
  /** `missing`: the hint says the value names nothing, so it is given only where the service answered 404. */
  | { hint: string; missing?: boolean };

/**
 * What a type's `list` is asked, the native plugin's List RPC carries the same (its query, page
 * size and continuation token), so that `krcloud-drift --unmanaged` and the plugin list from the
 * same function.
 */
export interface ListRequest {
  /**
   * Only what has these input values (the RPC's query): the names a type takes are its
   * `list.inputs` (an object's `bucket`, and `key` as a prefix). A name the type does not take is
   * refused.
   */
  query?: Readonly<Record<string, string>>;
  /** At most this many items in the page, where the service pages; a service that does not answers all of them at once. */
  pageSize?: number;
  /** The previous page's `continuation`; absent: the first page. */
  continuation?: string;
}

/** One resource a list found. */
export interface Listed {
  /** The id `pulumi import` and the state use (the bucket name, `<bucket>/<key>`, the cluster id). */
  id: string;
  /** Its name in the cloud, for messages and logical names. */
  name: string;
}

export interface ListPage {
  items: Listed[];
  /** Where the next page starts (the next request's `continuation`); absent: the last page. */
  continuation?: string;
}

/** How a type lists what the project has of it (terraform's `<resource>_list.go`, beside the resource). */
export interface Listing {
  /** What one of them is called, and several: `["bucket", "buckets"]` (krcloud-drift's coverage lines). */
  kind: readonly [string, string];
  /**
   * The input names `query` may filter by, each with what it selects: schema.json declares them as
   * the type's `listInputs` (string properties), which `pulumi do <token> list` offers as flags.
   */
  inputs?: Readonly<Record<string, string>>;
  /**
   * Why krcloud-drift --unmanaged leaves the type out (a shard is part of its cluster, a query run
   * is a one-time run): the plugin's List still lists it.
   */
  notUnmanaged?: string;
  /**
   * Set when the type lists only within another resource (an object within its bucket): `query`
   * must give `input`, that resource's id. krcloud-drift --unmanaged then counts them on the
   * parent's line (a bucket's objects) instead of listing each one.
   */
  parent?: { token: string; input: string };
  /**
   * Appended to an item's `name` for its logical name (krcloud-drift --unmanaged's import file and
   * program) when the item is named after another resource of its own: a bucket's CORS policy is
   * named by its bucket, so it becomes `<bucket>-cors` beside the bucket's `<bucket>`.
   */
  nameSuffix?: string;
  /** One page of what exists, in the service's order. */
  page(ctx: Context, request: ListRequest): Promise<ListPage>;
}

/**
 * A replacement that moves the resource's data into its replacement (keep-data.ts). When a change
 * replaces and `wanted` says so, check asks `plan` (reads only: what exists, how big, the rules a
 * restore must meet) and records the plan as the hidden input REPLACING_KEY, or returns its
 * failures, which refuse the change in the preview. The create of the replacement gets the plan as
 * `ctx.replacing` and does the moving (back up, restore, wait); diff words the plan in the preview.
 */
export interface KeepsData<I> {
  /** Whether these inputs ask for it. */
  wanted(inputs: I): boolean;
  /**
   * The plan of replacing what `old` (the recorded inputs; `oldCreateKey` the key its create wrote)
   * made with `news`, under `createKey` (the replacement's), or the failures refusing it.
   */
  plan(
    ctx: Context,
    change: { old: I; oldCreateKey: string | undefined; news: I; createKey: string | undefined; sameName: boolean },
  ): Promise<{ plan: Record<string, unknown> } | { failures: { property: string; reason: string }[] }>;
  /** The plan in the preview's words (the replacement's warning). */
  words(plan: Record<string, unknown>): string;
}

/**
 * The declaration of a resource type, in groups: what it is (`ResourceSchema`), when a change
 * replaces it (`ReplaceDeclarations`), what check and diff do with its inputs (`InputDeclarations`),
 * its secrets (`SecretDeclarations`), how it is named, found and imported (`IdentityDeclarations`),
 * how drift and List see it (`DriftDeclarations`) and its calls to the cloud
 * (`ResourceOperations`). A definition is one flat object of all of them.
 */
export interface ResourceDefinition<I extends Record<string, unknown>, O extends Record<string, unknown>>
  extends
    ResourceSchema<I, O>,
    ReplaceDeclarations<I, O>,
    InputDeclarations<I, O>,
    SecretDeclarations<I, O>,
    IdentityDeclarations<I, O>,
    DriftDeclarations<O>,
    ResourceOperations<I, O> {}

/** What the resource is: its token, its schemas (the source of schema.json and the args types). */
export interface ResourceSchema<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /** `krcloud:<module>:<Type>` */
  token: string;
  description: string;
  /** Input schema (zod object; `.describe()` on every property becomes the schema.json docs). */
  inputs: () => z.ZodType<I>;
  /** Output schema for documentation and schema.json; outputs include the inputs. */
  outputs: () => z.ZodType<O>;
}

/** When a change replaces the resource, why, what that loses, and in which order (replacement.ts, operations/diff.ts). */
export interface ReplaceDeclarations<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /**
   * The input keys whose change replaces the resource, each with why, in words the preview shows
   * before it happens (replacement.ts): `user: "the cache API has no operation that changes a
   * cluster's user or password"`. A reason ends the preview's sentence "<key> changes, and <reason>."
   */
  replaceOn: { readonly [K in keyof I & string]?: string };
  /**
   * Input keys whose change replaces the resource only in some cases (e.g. a changed placement of an
   * existing shard, not an added shard): `when` is true when the change from `old` to `next`
   * replaces, and `reason` says why, as in `replaceOn`.
   */
  replaceIf?: { readonly [K in keyof I & string]?: ReplaceIf };
  /**
   * What a replacement loses or changes beyond the resource itself (its data, its endpoint), said in
   * the preview beside the reasons: "the replacement is a new cluster with a new endpoint; ...".
   */
  replacementLoses?: string;
  /**
   * Replacement must delete first (the physical name is unique). An auto-named resource gets a
   * new name when it is replaced, so it is created before the old one is deleted. A function
   * decides from the recorded outputs and the new inputs (an object under the same key: first).
   */
  deleteBeforeReplace?: boolean | ((olds: O, news: I) => boolean);
  /** A replacement that keeps the resource's data (a cache's `dataOnReplace: "keep"`); see `KeepsData`. */
  keepsData?: KeepsData<I>;
}

/** A `replaceIf` entry: when a change of its key replaces, and why. */
export interface ReplaceIf {
  when: (old: unknown, next: unknown) => boolean;
  reason: string;
}

/** `replaceOn` entries for keys that replace for one reason: `{ ...reasonFor(["keyId", "triggers"], why) }`. */
export function reasonFor<K extends string>(keys: readonly K[], reason: string): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, reason])) as Record<K, string>;
}

/** The `replaceOn` entry of a name the service cannot change: `{ ...noRename("the cache API", "backup") }`. */
export function noRename(api: string, what: string): { name: string } {
  return { name: `${api} has no rename of a ${what}` };
}

/** What check and diff do with the inputs besides validating them (operations/check.ts, operations/diff.ts). */
export interface InputDeclarations<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /**
   * Inputs the cloud never shows back (passwords, what a list omits, inline content), as dotted
   * paths (`user.password`). After `pulumi import` nothing recorded holds them: where neither the
   * recorded outputs nor the recorded inputs (the native plugin has them) hold a value, diff takes
   * the program's value for what was made, so an import shows no change and the next up records
   * it; a later change is compared with what was recorded. `matches` may check what the cloud does
   * show (an object's ETag against the content's MD5): when it says no, the program's value shows
   * as a change.
   */
  writeOnly?: { paths: readonly string[]; matches?: (recorded: Record<string, unknown>, news: Record<string, unknown>) => boolean };
  /** Inputs that only steer the provider (adopt, forceDestroy): never read from the cloud, updated without a call. */
  localInputs?: readonly (keyof I & string)[];
  /**
   * Inputs that must name something the service offers or the project has (a flavor, an engine
   * version, a KMS key): when the service refuses one, the error adds the values that would work, or
   * where to find them (hints.ts).
   */
  offered?: Partial<Record<keyof I & string, Offered>>;
  /**
   * Inputs derived in `check` from other inputs and local facts (no network), e.g. the MD5 of a
   * source file, so that a change of content shows up as a diff; or a normalised form of an input,
   * recorded the way read will report it. Each runs only when every input it reads is fully known;
   * otherwise its result is unknown too (or, for a normalisation of a partly unknown value, that
   * value as given). Throw a CheckError for a failure.
   */
  derive?: readonly Derivation<I>[];
  /**
   * What a change shows besides the changed input names, for the preview's log: a derived digest
   * says only that something changed (a folder's manifest digest), this says what (which files).
   * Runs in diff when an input changed; `olds` are the recorded outputs.
   */
  diffNotes?: (olds: O, news: I) => string[];
  /**
   * A check that needs the cloud (`check` runs it during preview, after the local validation): it
   * may only read (a GET, cached for the process: `readOnce`), never change anything. It runs only
   * when every input in `from` is known, and returns failures like check's (`property`: the
   * top-level input; `reason`: the full path and the rule, saying that the cloud was read).
   */
  checkWithCloud?: {
    from: readonly (keyof I & string)[];
    run(ctx: Context, inputs: I): Promise<{ property: string; reason: string }[]>;
  };
}

/** Which inputs and outputs are secret (secrets.ts: the classes, the plugin and schema.json alike). */
export interface SecretDeclarations<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /**
   * Inputs that are always secret (a password, a plaintext): the class makes them secret whatever
   * the program passed, the native plugin returns them (and their output echoes) as secrets, and
   * schema.json marks them, so generated SDKs do too.
   */
  secretInputs?: readonly (keyof I & string)[];
  /** Output keys that hold secrets (besides the echoes of `secretInputs`). */
  secretOutputs?: readonly (keyof O & string)[];
  /**
   * Output keys that reveal something of an input (a digest, a size): secret whenever that input is
   * (native plugin) or may be (dynamic classes: an Output, or inline asset text).
   */
  secretWith?: Partial<Record<keyof I & string, readonly (keyof O & string)[]>>;
}

/** How the resource is named, found again and imported, and whose it is (identity.ts, recovery.ts). */
export interface IdentityDeclarations<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /** What `pulumi import` takes as the id: `the bucket name`, "`<clusterId>/<shardId>`". Absent: not importable. */
  importId?: string;
  autoName?: AutoNameRule;
  /** How a create whose outcome is unknown finds what it made; see `Recovery`. */
  recovery?: Recovery<I>;
  /**
   * The project a read's record names (a bucket record's `project`). A read whose record names the
   * configured project proves the token is the project's, so no separate check of the token's
   * project goes before it (a refresh of N buckets is N requests); a read that finds nothing, or a
   * record of another project, is checked after (a token of another project must be refused, never
   * make a refresh call the resource gone). Absent: the token's project is checked before the read.
   * A read whose request names the project in its path (`/v1/{project}/...`, which the service
   * refuses for another project's token with 403) proves it by finding the resource: it returns
   * `configured`, the project the read was made for.
   */
  projectOf?: (outputs: O, configured: string | undefined) => string | undefined;
}

/** How krcloud-drift and the plugin's List see the type. */
export interface DriftDeclarations<O extends Record<string, unknown>> {
  /** How the project's resources of this type are listed (krcloud-drift --unmanaged, the native plugin's List); absent: not listed. */
  list?: Listing;
  /** Why a type without `list` cannot be listed (schema.json and the reference page say it). */
  unlisted?: string;
  /**
   * Why krcloud-drift cannot verify it (its report says "not checked" with this reason): the cloud
   * keeps nothing to compare the state with (a ciphertext made once, a query run once). Absent:
   * a refresh reads it, and a difference is drift.
   */
  unverifiable?: string;
  /**
   * Outputs that are no inputs but whose change in a refresh is drift, reported per path by
   * krcloud-drift (the input the engine compares may be a digest of them): a folder's manifest, the
   * objects under its prefix that it did not upload.
   */
  driftOutputs?: readonly (keyof O & string)[];
  /**
   * Whether the type's list answer carries everything its read needs (list-reads.ts): then reads
   * that arrive together are answered from one walk of the list pages; `no` says, in one line, why
   * not (a bucket's ACL and CORS documents, a group's parameters). Every type declares it
   * (tests/unit/new-resource.test.ts).
   */
  readsFromList?: ListReads<O> | { no: string };
}

/** How a type's reads are answered from its list pages (list-reads.ts). */
export interface ListReads<O extends Record<string, unknown>, R = unknown> {
  /** Every record of the type in the project, by the resource's id: all the list's pages, one walk. */
  walk(ctx: Context): Promise<ReadonlyMap<string, R>>;
  /** What `read` returns for the resource `id` listed as `record` (the same outputs its own read gives). */
  outputs(ctx: Context, id: string, record: R, olds: O): Promise<O | undefined>;
  /** What a read from the list still asks of the cloud per resource, when anything (a cluster's shards), in one line. */
  also?: string;
}

/** The calls to the cloud: what the core's operations run (operations/). */
export interface ResourceOperations<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /** The resource's id for messages: `bucket "logs"`. */
  describe(id: string): string;
  /** Sends the create request, waits until the resource settles, returns what read sees. */
  create(ctx: Context, inputs: I): Promise<{ id: string; outs: O }>;
  /** The resource as the cloud has it now; undefined when it is gone. */
  read(ctx: Context, id: string, olds: O): Promise<O | undefined>;
  /** Converge from `current` (what read returned just now) to `news`. */
  update(ctx: Context, id: string, current: O, news: I): Promise<O>;
  delete(ctx: Context, id: string, olds: O): Promise<void>;
}

/** A definition as `defineResource` takes it: all but the token and the schemas, which come first. */
export type ResourceSpec<I extends Record<string, unknown>, O extends Record<string, unknown>> = Omit<ResourceDefinition<I, O>, "token" | "inputs" | "outputs">;

/**
 * A resource's definition from its token and its input and output schemas: the definition's types
 * are the schemas' (what check parses, what read returns), and the rest of it is checked against them.
 */
export function defineResource<I extends Record<string, unknown>, O extends Record<string, unknown>>(
  token: string,
  inputs: () => z.ZodType<I>,
  outputs: () => z.ZodType<O>,
  spec: ResourceSpec<NoInfer<I>, NoInfer<O>>,
): ResourceDefinition<I, O> {
  return { token, inputs, outputs, ...spec };
}

export interface Derivation<I> {
  /** The inputs `compute` reads. */
  from: readonly (keyof I & string)[];
  /** The input it sets. */
  to: keyof I & string;
  compute(inputs: I): unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDefinition = ResourceDefinition<any, any>;

/** The inputs of `def` as the cloud's outputs show them, for read's `inputs` (no false diff after refresh). */
export function inputsFromOutputs(def: AnyDefinition, outs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of inputKeys(def)) if (outs[k] !== undefined) out[k] = outs[k];
  return out;
}

/**
 * Adopting an existing resource must never lead to deleting it: every replace-on property of what
 * exists has to match the inputs, or the next update would replace (delete) what was adopted.
 * Throws, naming each difference, before the adopting create changes anything.
 */
export function assertAdoptable(def: AnyDefinition, id: string, existing: Record<string, unknown>, inputs: Record<string, unknown>): void {
  const show = (v: unknown): string => (v === undefined ? "not set" : JSON.stringify(v));
  const replaceIf = (def.replaceIf ?? {}) as Record<string, ReplaceIf | undefined>;
  const diffs = [
    ...Object.keys(def.replaceOn).filter((k) => !jsonEqual(toPlain(existing[k]), toPlain(inputs[k]))),
    ...Object.keys(replaceIf).filter((k) => replaceIf[k]?.when(toPlain(existing[k]), toPlain(inputs[k])) === true),
  ].map((k) => `${k} is ${show(existing[k])} there but ${show(inputs[k])} in the program`);
  if (diffs.length === 0) return;
  throw new Error(
    `adopting ${def.describe(id)}: ${diffs.join("; ")}. A change of ${diffs.length > 1 ? "these properties replaces" : "this property replaces"} the resource, so adopting it would lead the next update to delete it; declare the existing values to adopt it, or use another name`,
  );
}

const INPUT_SCHEMAS = new WeakMap<AnyDefinition, z.ZodType>();
const OUTPUT_SCHEMAS = new WeakMap<AnyDefinition, z.ZodType>();
const KEYS = new WeakMap<AnyDefinition, string[]>();

/** What `build` makes of a definition, made once per definition and process and kept in `made`. */
function perDefinition<T>(made: WeakMap<AnyDefinition, T>, def: AnyDefinition, build: (def: AnyDefinition) => T): T {
  let value = made.get(def);
  if (value === undefined) {
    value = build(def);
    made.set(def, value);
  }
  return value;
}

/**
 * The definition's input schema, built once per definition and process: building a zod schema
 * costs more than parsing with it (a bucket's, about 0.3 ms), and check, diff and the recovery
 * would otherwise build it on every call. Schemas are immutable, so sharing one is safe.
 */
export function inputSchema(def: AnyDefinition): z.ZodType {
  return perDefinition(INPUT_SCHEMAS, def, (d) => d.inputs());
}

/** The definition's output schema, built once per definition and process (see `inputSchema`). */
export function outputSchema(def: AnyDefinition): z.ZodType {
  return perDefinition(OUTPUT_SCHEMAS, def, (d) => d.outputs());
}

/** The input property names of a definition (computed once per definition). */
export function inputKeys(def: AnyDefinition): string[] {
  return perDefinition(KEYS, def, (d) => Object.keys((inputSchema(d) as unknown as { shape?: Record<string, unknown> }).shape ?? {}));
}

export * from "./listing";
