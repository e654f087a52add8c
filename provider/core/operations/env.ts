/**
 * What the operations of a built provider share: the environment `buildProvider` binds (the
 * clock), the call's context, signing in, counting an operation's requests, and the shape of the
 * errors the engine gets (one line, no secret, a partial failure it records).
 */
import { authenticated, redactError, secretValues, SERVICES, withAction, withRequestStats, type Clock, type ServiceName } from "../../../client/core";
import { currentSettings } from "../config";
import { withCreateKey } from "../properties";
import { isPartialFailure, PARTIAL_KEY, PROVIDER_KEY, type AnyDefinition, type Context, type OperationOptions } from "../resource";
import { toPlain } from "../sanitize";

/** What `buildProvider` binds beside the definition. */
export interface OperationEnv {
  /** The clock of the provider's own pauses (a fake one in tests). */
  clock: Clock;
}

/**
 * One engine call on a resource: what `buildProvider` binds (the definition and the environment)
 * and the call's trailing options, which only the native plugin passes.
 */
export interface Call<O = OperationOptions> {
  def: AnyDefinition;
  env: OperationEnv;
  opts?: O;
}

export type Operation = "create" | "read" | "update" | "delete";

/** The context of one call: the current settings, where progress goes, and the deadline of the engine's timeout. */
export function contextFor(operation: Operation, env: OperationEnv, opts?: OperationOptions): Context {
  const ctx: Context = {
    settings: currentSettings(),
    progress: opts?.progress ?? ((m) => process.stdout.write(`${m}\n`)),
    clock: env.clock,
  };
  const seconds = opts?.timeoutSeconds ?? 0;
  if (seconds > 0) {
    const ms = Math.round(seconds * 1000);
    ctx.deadline = { at: Date.now() + ms, signal: AbortSignal.timeout(ms), description: `the ${operation} timeout of ${seconds}s (customTimeouts)` };
  }
  return ctx;
}

/** The service a definition's resources live in (its token's module), when it is one. */
export function serviceOf(def: AnyDefinition): ServiceName | undefined {
  const service = def.token.split(":")[1] as ServiceName;
  return SERVICES.includes(service) ? service : undefined;
}

/**
 * The call's settings completed by its credential (credentials.ts `authenticated`): the project and
 * the catalog's endpoints of the token the access key or the token command gives, before anything
 * is read or changed.
 */
export async function signIn(def: AnyDefinition, ctx: Context): Promise<void> {
  const service = serviceOf(def);
  // A core type (the stack's identity) makes no request: it needs no token.
  if (service !== undefined) ctx.settings = await authenticated(ctx.settings, { service });
}

/**
 * Runs one operation counting its requests; when the service throttled some of them, says so in a
 * progress line: the operation succeeded, but it rode out throttling (and took longer for it).
 */
export async function counted<T>(ctx: Context, what: string, fn: () => Promise<T>): Promise<T> {
  const { value, stats } = await withRequestStats(fn).catch((e: unknown) => {
    throw namingTheOperation(e, what);
  });
  if (stats.throttled > 0) ctx.progress(`${what}: ${stats.throttled} of ${stats.requests} requests were throttled (429) and retried`);
  return value;
}

/** Errors of a wait that ended (timed out, a terminal state) name the resource but not what was being done to it. */
const WAIT_ERRORS = new Set(["KRCLOUD_WAITER_TIMEOUT", "KRCLOUD_WAITER_FAILURE", "KRCLOUD_DEADLINE_EXCEEDED"]);

function namingTheOperation(e: unknown, what: string): unknown {
  const inner = isPartialFailure(e) ? e.cause : e;
  return WAIT_ERRORS.has(String((inner as { code?: unknown })?.code)) ? withAction(e, what) : e;
}

/** Errors leaving the provider carry no secret, whatever the cause echoed. */
export function clean<E>(e: E): E {
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
export function partialFailureError(e: unknown, provider: unknown, createKey: string | undefined): unknown {
  if (!isPartialFailure(e)) return e;
  const err = new Error(e.message) as Error & { id: string; properties: Record<string, unknown>; reasons: string[] };
  err.id = e.id;
  err.properties = toPlain({ ...withCreateKey(e.outs, createKey), [PROVIDER_KEY]: provider, [PARTIAL_KEY]: e.message });
  err.reasons = [e.message];
  return err;
}
