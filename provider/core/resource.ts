/**
 * A typed resource definition turned into a Pulumi dynamic provider.
 *
 * Each resource file declares one `ResourceDefinition` (schemas as factories, replace-on keys,
 * CRUD functions); `buildProvider` adds what every resource shares: validation in `check` with
 * property paths and no network, auto-naming, a pure `diff` that understands unknowns, outputs
 * sanitised to plain JSON, updates that converge against what the cloud has now, the
 * partial-failure error for creates that fail after the cloud accepted them, and "gone" handling.
 *
 * Definitions are only ever reached through `runtime.ts` at run time: nothing here is captured by
 * the serialized provider stub.
 */

import type { z } from "zod";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isNotFound, redactError, secretValues, type Settings } from "../../sdk/core";
import { currentSettings, setStackConfig } from "./config";
import { autoName, type AutoNameRule } from "./naming";
import { jsonEqual, toPlain } from "./sanitize";
import { containsUnknown, parseKnown, UNKNOWN } from "./unknown";

export const PROVIDER_KEY = "__provider";
/** Hidden input carrying the Pulumi logical name, for auto-naming (check does not receive the URN). */
export const LOGICAL_NAME_KEY = "__logicalName";
/**
 * Hidden output of a resource recorded after a partial failure: the reason. While it is there, diff
 * plans an update whatever the inputs, so the next `up` resumes (waits, converges) instead of
 * seeing nothing to do; a successful update drops it, a refresh keeps it.
 */
export const PARTIAL_KEY = "__krcloudIncomplete";

/** What a CRUD function gets: settings for this call, progress output, the resource's names. */
export interface Context {
  settings: Settings;
  /** A progress line on the provider's stdout, which `pulumi up` shows. */
  progress(message: string): void;
  /** The Pulumi logical name when known (create), for messages. */
  logicalName?: string;
  /**
   * Set when the engine gave the operation a timeout (`customTimeouts`, native plugin only): every
   * wait ends by then (see wait.ts). Without it, waits use their own defaults.
   */
  deadline?: Deadline;
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
}

export interface CheckOptions {
  /** Random hex of length n for auto-naming; the native plugin derives it from the engine's seed, so preview and up agree. */
  random?: (n: number) => string;
}

/** `diff` as the dynamic host sees it, plus the changed keys for the native plugin's detailed diff. */
export interface DiffResult extends dynamic.DiffResult {
  /** Every input key whose value differs (or may differ: unknown); `replaces` is a subset. */
  diffs: string[];
}

/** Thrown by a derivation (`derive`) for an input that fails a local check (a missing source file). */
export class CheckError extends Error {
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

export interface ResourceDefinition<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /** `krcloud:<module>:<Type>` */
  token: string;
  description: string;
  /** Input schema (zod object; `.describe()` on every property becomes the schema.json docs). */
  inputs: () => z.ZodType<I>;
  /** Output schema for documentation and schema.json; outputs include the inputs. */
  outputs: () => z.ZodType<O>;
  /** Input keys whose change replaces the resource. */
  replaceOn: readonly (keyof I & string)[];
  /**
   * Input keys whose change replaces the resource only in some cases (e.g. a changed placement of an
   * existing shard, not an added shard): true when the change from `old` to `next` replaces.
   */
  replaceIf?: { readonly [K in keyof I & string]?: (old: unknown, next: unknown) => boolean };
  /** Replacement must delete first (the physical name is unique). */
  deleteBeforeReplace?: boolean;
  /** Inputs that only steer the provider (adopt, forceDestroy): never read from the cloud, updated without a call. */
  localInputs?: readonly (keyof I & string)[];
  /** Output keys that hold secrets. */
  secretOutputs?: readonly (keyof O & string)[];
  /**
   * Output keys that reveal something of an input (a digest, a size): secret whenever that input is.
   * The native plugin applies it; the resource classes of the dynamic path pass the same keys as
   * `additionalSecretOutputs` (they cannot tell whether an Output is secret).
   */
  secretWith?: Partial<Record<keyof I & string, readonly (keyof O & string)[]>>;
  autoName?: AutoNameRule;
  /**
   * Inputs derived in `check` from other inputs and local facts (no network), e.g. the MD5 of a
   * source file, so that a change of content shows up as a diff; or a normalised form of an input,
   * recorded the way read will report it. Each runs only when every input it reads is fully known;
   * otherwise its result is unknown too (or, for a normalisation of a partly unknown value, that
   * value as given). Throw a CheckError for a failure.
   */
  derive?: readonly Derivation<I>[];
  /** The resource's id for messages: `bucket "logs"`. */
  describe(id: string): string;
  create(ctx: Context, inputs: I): Promise<{ id: string; outs: O }>;
  /** The resource as the cloud has it now; undefined when it is gone. */
  read(ctx: Context, id: string, olds: O): Promise<O | undefined>;
  /** Converge from `current` (what read returned just now) to `news`. */
  update(ctx: Context, id: string, current: O, news: I): Promise<O>;
  delete(ctx: Context, id: string, olds: O): Promise<void>;
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
  const shape = inputKeys(def);
  const out: Record<string, unknown> = {};
  for (const k of shape) if (outs[k] !== undefined) out[k] = outs[k];
  return out;
}

/**
 * Adopting an existing resource must never lead to deleting it: every replace-on property of what
 * exists has to match the inputs, or the next update would replace (delete) what was adopted.
 * Throws, naming each difference, before the adopting create changes anything.
 */
export function assertAdoptable(def: AnyDefinition, id: string, existing: Record<string, unknown>, inputs: Record<string, unknown>): void {
  const show = (v: unknown): string => (v === undefined ? "not set" : JSON.stringify(v));
  const replaceIf = (def.replaceIf ?? {}) as Record<string, ((old: unknown, next: unknown) => boolean) | undefined>;
  const diffs = [
    ...def.replaceOn.filter((k) => !jsonEqual(toPlain(existing[k]), toPlain(inputs[k]))),
    ...Object.keys(replaceIf).filter((k) => replaceIf[k]?.(toPlain(existing[k]), toPlain(inputs[k])) === true),
  ].map((k) => `${k} is ${show(existing[k])} there but ${show(inputs[k])} in the program`);
  if (diffs.length === 0) return;
  throw new Error(
    `adopting ${def.describe(id)}: ${diffs.join("; ")}. A change of ${diffs.length > 1 ? "these properties replaces" : "this property replaces"} the resource, so adopting it would lead the next update to delete it; declare the existing values to adopt it, or use another name`,
  );
}

/** The value an input takes when the program omits it (undefined when it has no default). */
function defaultOf(def: AnyDefinition, key: string): unknown {
  const field = (def.inputs() as unknown as { shape?: Record<string, { safeParse?: (v: unknown) => { success: boolean; data?: unknown } }> }).shape?.[key];
  const r = field?.safeParse?.(undefined);
  return r?.success ? toPlain(r.data) : undefined;
}

export function inputKeys(def: AnyDefinition): string[] {
  const schema = def.inputs() as unknown as { shape?: Record<string, unknown> };
  return Object.keys(schema.shape ?? {});
}

function makeContext(operation: "create" | "read" | "update" | "delete", opts?: OperationOptions): Context {
  const ctx: Context = {
    settings: currentSettings(),
    progress: (m) => process.stdout.write(`${m}\n`),
  };
  const seconds = opts?.timeoutSeconds ?? 0;
  if (seconds > 0) {
    const ms = Math.round(seconds * 1000);
    ctx.deadline = { at: Date.now() + ms, signal: AbortSignal.timeout(ms), description: `the ${operation} timeout of ${seconds}s (customTimeouts)` };
  }
  return ctx;
}

function stripProvider(p: Record<string, unknown> | undefined): Record<string, unknown> {
  const { [PROVIDER_KEY]: _p, [LOGICAL_NAME_KEY]: _n, [PARTIAL_KEY]: _i, ...rest } = p ?? {};
  return rest;
}

/** Errors leaving the provider carry no secret, whatever the cause echoed. */
function clean<E>(e: E): E {
  return redactError(e, secretValues(currentSettings()));
}

/**
 * The provider of one definition. The dynamic host calls each method with its usual arguments; the
 * native plugin (provider/native) also passes the trailing options, which the host never does.
 */
export interface BuiltProvider {
  configure(req: dynamic.ConfigureRequest): Promise<void>;
  check(olds: Record<string, unknown>, news: Record<string, unknown>, opts?: CheckOptions): Promise<dynamic.CheckResult>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<DiffResult>;
  create(inputs: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<void>;
}

export function buildProvider(def: AnyDefinition): BuiltProvider {
  const local = new Set<string>(def.localInputs ?? []);

  return {
    async configure(req) {
      setStackConfig(req.config);
    },

    async check(olds, news, opts) {
      const provider = news[PROVIDER_KEY];
      const input = stripProvider(news);
      const old = stripProvider(olds);
      if (def.autoName && (input[def.autoName.property] === undefined || input[def.autoName.property] === null)) {
        const prev = old[def.autoName.property];
        input[def.autoName.property] =
          typeof prev === "string" && prev !== ""
            ? prev
            : autoName(typeof news[LOGICAL_NAME_KEY] === "string" ? news[LOGICAL_NAME_KEY] : (def.token.split(":")[2] ?? ""), def.autoName, opts?.random);
      }
      const parsed = parseKnown(def.inputs(), input);
      if (!parsed.ok) {
        // The engine prints a failure's value by looking `property` up among the top-level inputs (no
        // path parsing, pulumi v3.259 issueCheckFailures): a nested path would print `value {<nil>}`.
        // So the property is the top-level input and the reason carries the full path.
        const failures = parsed.issues.map((i) => ({
          property: formatPath(i.path.slice(0, 1)),
          reason: `${formatPath(i.path) || "inputs"}: ${issueMessage(i)}`,
        }));
        return { inputs: news, failures };
      }
      try {
        const ready = derive(def, parsed.value as Record<string, unknown>);
        return { inputs: toPlain({ ...ready, [PROVIDER_KEY]: provider }) };
      } catch (e) {
        if (!(e instanceof CheckError)) throw e;
        return { inputs: news, failures: [{ property: e.property, reason: `${e.property}: ${e.message}` }] };
      }
    },

    async diff(_id, olds, news) {
      const replaces: string[] = [];
      const changed: string[] = [];
      const keys = inputKeys(def);
      for (const key of keys) {
        const n = news[key];
        const o = olds[key];
        // An unknown value may turn out different: for a replace-on key that is a (possible) replacement.
        const differs = containsUnknown(n) || !jsonEqual(n, o);
        // State written before an input existed lacks it: its default there is no change.
        if (!differs || (o === undefined && jsonEqual(n, defaultOf(def, key)))) continue;
        changed.push(key);
        const replaceIf = def.replaceIf?.[key];
        if (def.replaceOn.includes(key) || (replaceIf !== undefined && (containsUnknown(n) || replaceIf(o, n)))) replaces.push(key);
      }
      return {
        changes: changed.length > 0 || olds[PARTIAL_KEY] !== undefined,
        replaces,
        diffs: changed,
        deleteBeforeReplace: replaces.length > 0 && def.deleteBeforeReplace === true,
      };
    },

    async create(inputs, opts) {
      const provider = inputs[PROVIDER_KEY];
      const news = stripProvider(inputs);
      const ctx = makeContext("create", opts);
      try {
        const { id, outs } = await def.create(ctx, news);
        return { id, outs: toPlain(outs) };
      } catch (e) {
        throw clean(partialFailureError(e, provider));
      }
    },

    async read(id, props, opts) {
      const ctx = makeContext("read", opts);
      const olds = stripProvider(props);
      try {
        const outs = await def.read(ctx, id, olds);
        // An empty id tells the engine the resource is gone: refresh drops it and the next up recreates it.
        if (outs === undefined) return { id: "", props: {} };
        for (const k of local) if (olds[k] !== undefined) outs[k] = olds[k];
        const plain = toPlain(outs);
        const marker = (props ?? {})[PARTIAL_KEY];
        return { id, props: marker === undefined ? plain : { ...plain, [PARTIAL_KEY]: marker }, inputs: inputsFromOutputs(def, plain) };
      } catch (e) {
        throw clean(e);
      }
    },

    async update(id, olds, news, opts) {
      const provider = news[PROVIDER_KEY];
      const desired = stripProvider(news);
      const ctx = makeContext("update", opts);
      try {
        // Converge against the cloud as it is now, not the recorded outputs: after a partial
        // failure or drift the state is not what the cloud has.
        const current = await def.read(ctx, id, stripProvider(olds));
        if (current === undefined) {
          throw new Error(`${def.describe(id)} no longer exists: run \`pulumi refresh\` so it is recreated`);
        }
        for (const k of local) current[k] = olds[k];
        const outs = await def.update(ctx, id, current, desired);
        return { outs: toPlain(outs) };
      } catch (e) {
        throw clean(partialFailureError(e, provider));
      }
    },

    async delete(id, props, opts) {
      const ctx = makeContext("delete", opts);
      try {
        await def.delete(ctx, id, stripProvider(props));
      } catch (e) {
        if (isNotFound(e)) return;
        throw clean(e);
      }
    },
  };
}

/**
 * The engine records a resource whose create failed after the cloud accepted it when the error
 * carries `id`, `properties` (with `__provider`, or later operations cannot load the provider) and
 * `reasons`; the next `up` then updates it instead of creating a second one.
 */
function partialFailureError(e: unknown, provider: unknown): unknown {
  if ((e as { code?: unknown })?.code !== "KRCLOUD_PARTIAL_FAILURE") return e;
  const pf = e as PartialFailure;
  const err = new Error(pf.message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
  err.id = pf.id;
  err.properties = toPlain({ ...pf.outs, [PROVIDER_KEY]: provider, [PARTIAL_KEY]: pf.message });
  err.reasons = [pf.message];
  return err;
}

/** Runs the definition's derivations over checked inputs, never on an unknown value. */
function derive(def: AnyDefinition, inputs: Record<string, unknown>): Record<string, unknown> {
  const out = { ...inputs };
  for (const d of (def.derive ?? []) as readonly Derivation<Record<string, unknown>>[]) {
    if (d.from.some((k) => containsUnknown(out[k]))) {
      if (!d.from.includes(d.to)) out[d.to] = UNKNOWN;
      continue;
    }
    const v = d.compute(out);
    if (v === undefined) delete out[d.to];
    else out[d.to] = v;
  }
  return out;
}

/**
 * zod reports a record key that fails its schema as "Invalid key in record" and keeps the rule's
 * own message (e.g. "metadata names must be 2 to 64 characters") in nested issues: surface those.
 */
function issueMessage(i: { code?: string; message: string; issues?: readonly { message: string }[] }): string {
  return i.code === "invalid_key" && i.issues?.length ? i.issues.map((n) => n.message).join("; ") : i.message;
}

function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}
