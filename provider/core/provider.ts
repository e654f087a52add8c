/**
 * A resource definition turned into a Pulumi provider: what every resource shares. Validation in
 * `check` with property paths and no network (but a definition's `checkWithCloud`: reads only,
 * kept for the process), deterministic auto-naming, a pure `diff` that
 * understands unknowns, outputs sanitised to plain JSON, creates that never make a second copy
 * (recovery.ts), updates that converge against what the cloud has now, the partial-failure error
 * for changes that fail after the cloud accepted them, "gone" handling, and errors that carry no
 * secret and no JavaScript stack.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import {
  assertCredentials,
  authenticated,
  endpointOf,
  isNotFound,
  mayHaveApplied,
  redactError,
  secretValues,
  SERVICES,
  systemClock,
  tokenSourceOf,
  verifyTokenProject,
  withAction,
  withRequestStats,
  type Clock,
  type ServiceName,
} from "../../client/core";
import { currentSettings, setStackConfig } from "./config";
import { autoName, createKeyOf, hexFrom } from "./naming";
import { withOfferedValues } from "./hints";
import { keepDataCheck, replacingOf } from "./keep-data";
import { createWithRecovery, describeCreate } from "./recovery";
import { replacementWarning } from "./replacement";
import { beforeDeadline, DeadlineExceededError } from "./wait";
import {
  AUTONAMED_KEY,
  CheckError,
  CREATE_KEY,
  HIDDEN_KEYS,
  inputKeys,
  inputSchema,
  inputsFromOutputs,
  isPartialFailure,
  LOGICAL_NAME_KEY,
  PARTIAL_KEY,
  PROVIDER_KEY,
  READ_ERROR_KEY,
  URN_KEY,
  STACK_KEY,
  type AnyDefinition,
  type CheckOptions,
  type Context,
  type Derivation,
  type DiffResult,
  type OperationOptions,
} from "./resource";
import { jsonEqual, toPlain } from "./sanitize";
import { isCoreToken } from "./stack-identity";
import { containsUnknown, parseKnown, UNKNOWN } from "./unknown";

/**
 * The provider of one definition. The dynamic host calls each method with its usual arguments; the
 * native plugin (provider/plugin) also passes the trailing options, which the host never does.
 */
export interface BuiltProvider {
  configure(req: dynamic.ConfigureRequest): Promise<void>;
  check(olds: Record<string, unknown>, news: Record<string, unknown>, opts?: CheckOptions): Promise<dynamic.CheckResult>;
  /** `oldInputs`: the recorded inputs, where the engine gives them (the native plugin; dynamic providers get outputs only). */
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, oldInputs?: Record<string, unknown>): Promise<DiffResult>;
  create(inputs: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<void>;
}

export interface ProviderOptions {
  /** The clock of the provider's own pauses (tests). */
  clock?: Clock;
}

/** The create key a check chose for a replacement, by type and URN, until the engine's second check of it. */
const replacementKeys = new Map<string, string>();

export function buildProvider(def: AnyDefinition, options: ProviderOptions = {}): BuiltProvider {
  const local = new Set<string>(def.localInputs ?? []);
  const makeContext = (operation: Operation, opts?: OperationOptions) => contextFor(operation, options.clock ?? systemClock, opts);

  return {
    async configure(req) {
      setStackConfig(req.config);
    },

    async check(olds, news, opts) {
      const provider = news[PROVIDER_KEY];
      const input = withoutHidden(news);
      const old = withoutHidden(olds);
      const logical = typeof news[LOGICAL_NAME_KEY] === "string" ? news[LOGICAL_NAME_KEY] : (def.token.split(":")[2] ?? "");
      const urn = opts?.urn ?? (typeof news[URN_KEY] === "string" ? news[URN_KEY] : `${def.token}::${logical}`);
      // The stack's identity joins the URN in the create key: the URN names neither the backend nor the
      // organisation, so a twin stack (same stack and project name, another backend) would derive
      // the same names and ownership markers (ownership.ts). Unknown in the preview of a new stack:
      // then so are a new resource's generated name and create key.
      const stack = opts?.stack ?? news[STACK_KEY];
      const stackUnknown = stack === UNKNOWN;
      const identity = typeof stack === "string" && stack !== "" && !stackUnknown ? `${urn}\u0000${stack}` : urn;
      const isNew = Object.keys(old).length === 0;
      const nameKey = def.autoName?.property;
      const named = nameKey === undefined || (input[nameKey] !== undefined && input[nameKey] !== null);
      const previousName = nameKey !== undefined && typeof old[nameKey] === "string" && old[nameKey] !== "" ? old[nameKey] : undefined;
      // A provisional name so the rest validates; the final one depends on whether this replaces.
      if (!named) input[nameKey] = previousName ?? autoName(logical, def.autoName!, hexFrom(createKeyOf(identity, undefined)));

      const parsed = parseKnown(inputSchema(def), input);
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
      const value = parsed.value as Record<string, unknown>;
      await assertConfigured(def);
      // The create key: the same for every attempt at this create, new for each replacement (a
      // digest of the URN and of the key of what it replaces).
      const replacing = !isNew && replaces(def, withWriteOnly(def, old, value, undefined), value, nameKey);
      const oldKey = typeof olds[CREATE_KEY] === "string" ? olds[CREATE_KEY] : undefined;
      const replacementKey = isNew ? undefined : createKeyOf(identity, oldKey ?? previousName ?? JSON.stringify(toPlain(old)));
      // The engine checks a replacement twice: with the old inputs, then with none (pulumi v3.259
      // step_generator, "recompute the default values"), and creates what the second check returns.
      // Taken for a first create, it would get the old resource's name back, and a replacement made
      // before the old one is deleted would meet (and take over) the resource about to be deleted.
      // So the second check uses the replacement key of the check before it: a replacement the
      // engine decides on its own (replaceOnChanges) gets a new name too.
      const memoKey = `${def.token}\u0000${urn}`;
      const secondCheck = isNew ? replacementKeys.get(memoKey) : undefined;
      replacementKeys.delete(memoKey);
      if (replacementKey !== undefined && !stackUnknown) replacementKeys.set(memoKey, replacementKey);
      // A key that would be derived from the stack's identity while it is unknown is unknown too.
      const derivedKey = isNew || replacing;
      const createKey =
        stackUnknown && derivedKey && secondCheck === undefined
          ? UNKNOWN
          : (secondCheck ?? (isNew ? createKeyOf(identity, undefined) : replacing ? replacementKey : oldKey));
      let autoNamed = olds[AUTONAMED_KEY] === true && !named;
      if (!named && (isNew || replacing || previousName === undefined)) {
        value[nameKey] =
          createKey === UNKNOWN ? UNKNOWN : autoName(logical, def.autoName!, hexFrom(createKey ?? replacementKey ?? createKeyOf(identity, undefined)));
        autoNamed = true;
      }
      // The engine shows the step that takes an existing resource over as a create; say what it is.
      if (isNew && secondCheck === undefined && adopting(def, value)) {
        (opts?.notice ?? ((m) => process.stdout.write(`${m}\n`)))(adoptNotice(def, logical, value, nameKey));
      }
      try {
        const ready = derive(def, value);
        const remote = await checkWithCloud(def, ready, makeContext("read"));
        if (remote.length > 0) return { inputs: news, failures: remote };
        const keep = await keepDataCheck(def, makeContext("read"), { memoKey, isNew, replacing, olds, old, news: ready, createKey });
        if (keep.failures.length > 0) return { inputs: news, failures: keep.failures };
        return {
          inputs: toPlain({
            ...ready,
            [PROVIDER_KEY]: provider,
            ...(createKey !== undefined ? { [CREATE_KEY]: createKey } : {}),
            ...(autoNamed ? { [AUTONAMED_KEY]: true } : {}),
            ...keep.hidden,
          }),
        };
      } catch (e) {
        if ((e as { code?: unknown })?.code !== "KRCLOUD_CHECK") throw forEngine(e);
        const ce = e as CheckError;
        return { inputs: news, failures: [{ property: ce.property, reason: `${ce.property}: ${ce.message}` }] };
      }
    },

    async diff(id, recorded, news, oldInputs) {
      const olds = withWriteOnly(def, recorded, news, oldInputs);
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
        if (def.replaceOn.includes(key) || (replaceIf !== undefined && (containsUnknown(n) || replaceIf(o, n)))) replacesKeys.push(key);
      }
      // A replacement under a new name can be created before the old one is deleted; under the same
      // (unique) name it must wait for the delete.
      const nameKey = def.autoName?.property;
      const sameName = nameKey === undefined || containsUnknown(news[nameKey]) || jsonEqual(news[nameKey], olds[nameKey]);
      const warning = replacesKeys.length > 0 ? replacementWarning(def, id, olds, news, replacesKeys) : undefined;
      const notes = changed.length > 0 && def.diffNotes !== undefined && !containsUnknown(news) ? noted(def, olds, news) : [];
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
    },

    async create(inputs, opts) {
      const provider = inputs[PROVIDER_KEY];
      const news = withoutHidden(inputs);
      const ctx = makeContext("create", opts);
      if (typeof inputs[CREATE_KEY] === "string") ctx.createKey = inputs[CREATE_KEY];
      ctx.replacing = replacingOf(inputs);
      try {
        await signIn(def, ctx);
        if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
        const { id, outs } = await counted(ctx, `creating ${describeCreate(def, news)}`, () => createWithRecovery(def, ctx, news));
        return { id, outs: toPlain(withCreateKey(outs, ctx.createKey)) };
      } catch (e) {
        throw forEngine(clean(partialFailureError(await withOfferedValues(def, ctx, news, e), provider, ctx.createKey)));
      }
    },

    async read(id, props, opts) {
      const ctx = makeContext("read", opts);
      const olds = withoutHidden(props);
      const marker = (props ?? {})[PARTIAL_KEY];
      const createKey = (props ?? {})[CREATE_KEY];
      try {
        const readNow = async () => {
          await signIn(def, ctx);
          // With another project's token a read finds nothing and says "gone": refresh would drop
          // what exists (orphaned for good), so the token is checked here too: first, unless the
          // record the read returns names the project (then only when it does not, or is gone).
          if (!def.projectOf && !isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
          const read = await def.read(ctx, id, olds);
          if (def.projectOf && (read === undefined || def.projectOf(read, ctx.settings.projectId) !== ctx.settings.projectId))
            await verifyTokenProject(ctx.settings);
          return read;
        };
        // `customTimeouts.read` (native plugin) bounds the whole read, a slow answer included.
        const deadline = ctx.deadline;
        const outs = deadline
          ? await beforeDeadline(readNow(), deadline, () => new DeadlineExceededError(`reading ${def.describe(id)}: no answer within ${deadline.description}`))
          : await readNow();
        // An empty id tells the engine the resource is gone: refresh drops it and the next up recreates it.
        if (outs === undefined) return { id: "", props: {} };
        for (const k of local) if (olds[k] !== undefined) outs[k] = olds[k];
        const plain = toPlain(outs);
        const kept = withCreateKey(plain, createKey);
        return { id, props: marker === undefined ? kept : { ...kept, [PARTIAL_KEY]: marker }, inputs: withCreateKey(inputsFromOutputs(def, plain), createKey) };
      } catch (e) {
        const err = clean(e);
        // The drift check (krcloud-drift) reports a resource it could not read and goes on with the others.
        if (process.env.KRCLOUD_READ_ERRORS === "report") {
          const kept = toPlain(olds);
          return {
            id,
            props: { ...withCreateKey(kept, createKey), [READ_ERROR_KEY]: (err as Error)?.message ?? String(err) },
            inputs: withCreateKey(inputsFromOutputs(def, kept), createKey),
          };
        }
        throw forEngine(err);
      }
    },

    async update(id, olds, news, opts) {
      const provider = news[PROVIDER_KEY];
      const desired = withoutHidden(news);
      const ctx = makeContext("update", opts);
      // A definition that rewrites where its ownership marker lives (a description) keeps it.
      const key = news[CREATE_KEY] ?? olds[CREATE_KEY];
      if (typeof key === "string") ctx.createKey = key;
      try {
        await signIn(def, ctx);
        const outs = await counted(ctx, `updating ${def.describe(id)}`, async () => {
          // Converge against the cloud as it is now, not the recorded outputs: after a partial
          // failure or drift the state is not what the cloud has.
          const current = await def.read(ctx, id, withoutHidden(olds));
          if (current === undefined) {
            throw new Error(`${def.describe(id)} no longer exists: run \`pulumi refresh\` so it is recreated`);
          }
          for (const k of local) current[k] = olds[k];
          if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
          return def.update(ctx, id, current, desired);
        });
        return { outs: toPlain(withCreateKey(outs, ctx.createKey)) };
      } catch (e) {
        throw forEngine(clean(partialFailureError(await withOfferedValues(def, ctx, desired, mayHaveBeenApplied(e)), provider, ctx.createKey)));
      }
    },

    async delete(id, props, opts) {
      const ctx = makeContext("delete", opts);
      try {
        await signIn(def, ctx);
        // Another project's token would find nothing, call it deleted and drop it from state.
        if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
        await counted(ctx, `deleting ${def.describe(id)}`, () => def.delete(ctx, id, withoutHidden(props)));
      } catch (e) {
        if (isNotFound(e)) return;
        const unsettled = await settleDelete(def, ctx, id, props, e);
        if (unsettled !== undefined) throw forEngine(clean(unsettled));
      }
    },
  };
}

/**
 * Runs one operation counting its requests; when the service throttled some of them, says so in a
 * progress line: the operation succeeded, but it rode out throttling (and took longer for it).
 */
async function counted<T>(ctx: Context, what: string, fn: () => Promise<T>): Promise<T> {
  const { value, stats } = await withRequestStats(fn).catch((e: unknown) => {
    throw namingTheOperation(e, what);
  });
  if (stats.throttled > 0) ctx.progress(`${what}: ${stats.throttled} of ${stats.requests} requests were throttled (429) and retried`);
  return value;
}

/**
 * A delete whose outcome is unknown (every answer lost, say) is settled by one read: gone is a
 * successful delete, whichever attempt made it. Still there, the error says so; any other error is
 * returned as it is.
 */
async function settleDelete(def: AnyDefinition, ctx: Context, id: string, props: Record<string, unknown>, e: unknown): Promise<Error | undefined> {
  const err = e as Error;
  if (!mayHaveApplied(e)) return err;
  const still = await def.read(ctx, id, withoutHidden(props)).then(
    (r) => (r === undefined ? "gone" : "there"),
    () => "unknown",
  );
  if (still === "gone") {
    ctx.progress(`${def.describe(id)}: the answer to the delete request was lost, and it is gone: deleted`);
    return undefined;
  }
  const seen = still === "there" ? "it is still there, so it may not have been applied" : "reading it to see failed too";
  if (typeof err?.message === "string")
    err.message += `. The delete request may or may not have been applied (${seen}): run \`pulumi destroy\` (or \`up\`) again, which looks first`;
  return err;
}

/**
 * An update step whose request may have been applied before its answer was lost says so: the next
 * `up` reads the cloud and converges from what it finds (a replica added, say), never repeating it
 * blindly.
 */
function mayHaveBeenApplied(e: unknown): unknown {
  const cause = isPartialFailure(e) ? e.cause : e;
  if (!mayHaveApplied(cause)) return e;
  const note =
    " The change may have been applied before the answer was lost: the next `pulumi up` reads the resource as the cloud has it and goes on from there.";
  const err = e as Error;
  if (typeof err?.message === "string" && !err.message.includes(note)) err.message += note;
  return e;
}

/** Errors of a wait that ended (timed out, a terminal state) name the resource but not what was being done to it. */
const WAIT_ERRORS = new Set(["KRCLOUD_WAITER_TIMEOUT", "KRCLOUD_WAITER_FAILURE", "KRCLOUD_DEADLINE_EXCEEDED"]);

function namingTheOperation(e: unknown, what: string): unknown {
  const inner = isPartialFailure(e) ? e.cause : e;
  return WAIT_ERRORS.has(String((inner as { code?: unknown })?.code)) ? withAction(e, what) : e;
}

/** The service a definition's resources live in (its token's module), when it is one. */
function serviceOf(def: AnyDefinition): ServiceName | undefined {
  const service = def.token.split(":")[1] as ServiceName;
  return SERVICES.includes(service) ? service : undefined;
}

/**
 * The call's settings completed by its credential (credentials.ts `authenticated`): the project and
 * the catalog's endpoints of the token the access key or the token command gives, before anything
 * is read or changed.
 */
async function signIn(def: AnyDefinition, ctx: Context): Promise<void> {
  const service = serviceOf(def);
  // A core type (the stack's identity) makes no request: it needs no token.
  if (service !== undefined) ctx.settings = await authenticated(ctx.settings, { service });
}

/**
 * A missing endpoint or credential fails the preview, not only the `up` after it: the service of
 * the resource (its token's module) must have an endpoint and the credentials it authenticates
 * with, and a token command or an access key must give a token (one per process, kept: a wrong or
 * revoked key fails the preview with one token request). Settings still unknown in a preview (an
 * explicit provider configured from outputs) pass.
 */
async function assertConfigured(def: AnyDefinition): Promise<void> {
  const service = serviceOf(def);
  if (service === undefined) return;
  const settings = currentSettings();
  if (Object.values(settings).some((v) => v === UNKNOWN) || Object.values(settings.endpoints).some((v) => v === UNKNOWN)) return;
  try {
    const source = tokenSourceOf(settings);
    // Without a token that could bring a catalog, the endpoint must be configured.
    if (source === undefined || source.kind === "static") endpointOf(settings, service);
    assertCredentials(service, settings);
    // A token is issued whatever the service (it checks the access key); the service's own call
    // then says what the catalog lacks, when it does.
    const complete = await authenticated(settings);
    endpointOf(complete.endpoints[service] === undefined ? await authenticated(settings, { service }) : complete, service);
  } catch (e) {
    throw forEngine(clean(e));
  }
}

/**
 * The definition's check that needs the cloud (a read, never a change), when every input it reads
 * is known; a preview with an unknown one skips it (the engine checks again before the change).
 * Its errors are the definition's to turn into failures; anything it throws fails the check with
 * the reason, secrets removed.
 */
async function checkWithCloud(def: AnyDefinition, inputs: Record<string, unknown>, ctx: Context): Promise<{ property: string; reason: string }[]> {
  const spec = def.checkWithCloud;
  if (spec === undefined || spec.from.some((k) => containsUnknown(inputs[k]))) return [];
  try {
    // The settings completed by the credential: the token's project and the catalog's endpoints.
    await signIn(def, ctx);
    return await spec.run(ctx, inputs);
  } catch (e) {
    throw forEngine(clean(e));
  }
}

/** Whether the checked inputs replace what `old` recorded (replace-on keys other than the auto-name, known values only). */
function replaces(def: AnyDefinition, old: Record<string, unknown>, next: Record<string, unknown>, nameKey: string | undefined): boolean {
  for (const key of def.replaceOn) {
    if (key === nameKey || containsUnknown(next[key])) continue;
    if (!jsonEqual(toPlain(next[key]), toPlain(old[key])) && !(old[key] === undefined && jsonEqual(toPlain(next[key]), defaultOf(def, key)))) return true;
  }
  for (const [key, replaceIf] of Object.entries((def.replaceIf ?? {}) as Record<string, ((o: unknown, n: unknown) => boolean) | undefined>)) {
    if (replaceIf && !containsUnknown(next[key]) && replaceIf(toPlain(old[key]), toPlain(next[key]))) return true;
  }
  return false;
}

/**
 * The recorded outputs with the write-only inputs the cloud could not show filled in: from the
 * recorded inputs where they hold them, else (right after an import) from the program, unless the
 * definition's `matches` finds that what the cloud shows disagrees.
 */
function withWriteOnly(
  def: AnyDefinition,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const wo = def.writeOnly;
  if (wo === undefined) return olds;
  const missing = (v: unknown) => v === undefined || v === null || v === "";
  const unshown = wo.paths.filter((p) => missing(valueAt(olds, p)));
  if (unshown.length === 0) return olds;
  const filled = structuredClone(olds);
  let trusted: boolean | undefined;
  for (const p of unshown) {
    const before = oldInputs === undefined ? undefined : valueAt(oldInputs, p);
    if (!missing(before)) setAt(filled, p, before);
    else if ((trusted ??= wo.matches?.(olds, news) ?? true)) setAt(filled, p, valueAt(news, p));
  }
  return filled;
}

/**
 * The inputs a read returns, with the write-only values the recorded inputs hold and the cloud
 * could not show kept: a refresh must not forget the password an up recorded.
 */
export function keepWriteOnly(def: AnyDefinition, inputs: Record<string, unknown>, recorded: Record<string, unknown>): Record<string, unknown> {
  const missing = (v: unknown) => v === undefined || v === null || v === "";
  const kept = (def.writeOnly?.paths ?? []).filter((p) => missing(valueAt(inputs, p)) && !missing(valueAt(recorded, p)));
  if (kept.length === 0) return inputs;
  const out = structuredClone(inputs);
  for (const p of kept) setAt(out, p, valueAt(recorded, p));
  return out;
}

function valueAt(o: unknown, path: string): unknown {
  let v = o;
  for (const k of path.split(".")) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Sets (or, for undefined, removes) the value at `path` where its parent object exists. */
function setAt(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let parent: unknown = o;
  for (const k of keys.slice(0, -1)) parent = parent !== null && typeof parent === "object" ? (parent as Record<string, unknown>)[k] : undefined;
  if (parent === null || typeof parent !== "object") return;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete (parent as Record<string, unknown>)[last];
  else (parent as Record<string, unknown>)[last] = value;
}

/** Whether checked inputs ask to take over an existing resource (`adopt: true`, or the definition's own rule: a shard's `adoptShardId`). */
function adopting(def: AnyDefinition, value: Record<string, unknown>): boolean {
  return def.recovery?.adopting ? def.recovery.adopting(value) : value.adopt === true;
}

/** The line a preview (and an up) prints for a resource it adopts instead of creating. */
export function adoptNotice(def: AnyDefinition, logical: string, value: Record<string, unknown>, nameKey: string | undefined): string {
  // What `describe` takes: a named resource's name, a bucket document's bucket, an adopted shard's id.
  const id = [nameKey === undefined ? undefined : value[nameKey], value.bucket, value.adoptShardId].find((v) => typeof v === "string");
  const what = typeof id === "string" && !containsUnknown(id) ? def.describe(id) : `${def.token.split(":")[2]} it names`;
  return `${logical}: will be adopted (adopt: true): pulumi up takes over the existing ${what} instead of creating it; the engine shows the step as a create`;
}

/** The value an input takes when the program omits it (undefined when it has no default). */
function defaultOf(def: AnyDefinition, key: string): unknown {
  const field = (inputSchema(def) as unknown as { shape?: Record<string, { safeParse?: (v: unknown) => { success: boolean; data?: unknown } }> }).shape?.[key];
  const r = field?.safeParse?.(undefined);
  return r?.success ? toPlain(r.data) : undefined;
}

type Operation = "create" | "read" | "update" | "delete";

function contextFor(operation: Operation, clock: Clock, opts?: OperationOptions): Context {
  const ctx: Context = {
    settings: currentSettings(),
    progress: opts?.progress ?? ((m) => process.stdout.write(`${m}\n`)),
    clock,
  };
  const seconds = opts?.timeoutSeconds ?? 0;
  if (seconds > 0) {
    const ms = Math.round(seconds * 1000);
    ctx.deadline = { at: Date.now() + ms, signal: AbortSignal.timeout(ms), description: `the ${operation} timeout of ${seconds}s (customTimeouts)` };
  }
  return ctx;
}

/**
 * Outputs (or a read's inputs) with the create key check recorded: kept in the outputs too, as a
 * hidden property, because a dynamic provider's read gets only the outputs, and a refresh records
 * the inputs read returns. Without it, a refreshed resource would forget its key, and an update
 * that rewrites its ownership marker (a description) could not keep it.
 */
function withCreateKey<T extends Record<string, unknown>>(props: T, createKey: unknown): T {
  return typeof createKey === "string" && createKey !== UNKNOWN ? { ...props, [CREATE_KEY]: createKey } : props;
}

/** The definition's own properties: without the keys the engine, the classes and check add. */
export function withoutHidden(p: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p ?? {})) if (!HIDDEN_KEYS.includes(k)) out[k] = v;
  return out;
}

/** Errors leaving the provider carry no secret, whatever the cause echoed. */
function clean<E>(e: E): E {
  return redactError(e, secretValues(currentSettings()));
}

/** Programming errors keep their stacks: they are defects to report. */
const DEFECTS = new Set(["TypeError", "ReferenceError", "SyntaxError", "RangeError"]);

/**
 * Pulumi's dynamic provider host prints `${e}: ${e.stack}` for a failed check, diff, read or
 * delete. An error of ours says what was done to what and why; its JavaScript stack would only make
 * it look like a crash. So the text the host prints becomes one line, `ApiError: <message>`.
 */
export function forEngine<E>(e: E): E {
  const err = e as unknown as Error;
  if (typeof err !== "object" || err === null || typeof err.message !== "string" || DEFECTS.has(err.name)) return e;
  const name = err.name || "Error";
  Object.defineProperty(err, "stack", { value: err.message, configurable: true, writable: true });
  Object.defineProperty(err, "toString", { value: () => name, configurable: true, writable: true });
  return e;
}

/**
 * The engine records a resource whose create failed after the cloud accepted it when the error
 * carries `id`, `properties` (with `__provider`, or later operations cannot load the provider) and
 * `reasons`; the next `up` then updates it instead of creating a second one.
 */
function partialFailureError(e: unknown, provider: unknown, createKey: string | undefined): unknown {
  if (!isPartialFailure(e)) return e;
  const err = new Error(e.message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
  err.id = e.id;
  err.properties = toPlain({ ...withCreateKey(e.outs, createKey), [PROVIDER_KEY]: provider, [PARTIAL_KEY]: e.message });
  err.reasons = [e.message];
  return err;
}

/** Runs the definition's derivations over checked inputs, never on an unknown value. */
/** The definition's notes on a diff; a note that cannot be made (a folder gone since check) is left out, never a failed diff. */
function noted(def: AnyDefinition, olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  try {
    return def.diffNotes!(olds, news);
  } catch {
    return [];
  }
}

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
export function issueMessage(i: { code?: string; message: string; issues?: readonly { message: string }[] }): string {
  return i.code === "invalid_key" && i.issues?.length ? i.issues.map((n) => n.message).join("; ") : i.message;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}
