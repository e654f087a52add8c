/**
 * Around every operation of a built provider, on both doors (provider/runtime.ts `provider`): the
 * credentials after a rotation (rotation.ts says why and what).
 *
 * Before the first operation of a process whose configured access key came from the configuration
 * Pulumi handed over while the environment holds other credentials, one token request tells
 * whether the identity service still takes the configured key (the token is kept: the operation
 * uses it, no request is added). Refused (401), and with krcloud:projectId set, the environment's
 * credentials are taken for the rest of the process, once they proved to be of that project (their
 * token names it, or the object storage account takes them), and a warning says so. Refused
 * without a project, the operation fails at once, saying where the other credentials are and the
 * one command that takes them. Any other refusal an operation meets gets the same advice.
 */
import {
  authenticated,
  CredentialError,
  currentToken,
  redactError,
  secretValues,
  tokenSourceOf,
  verifyTokenProject,
  type TokenSource,
} from "../../client/core";
import { configuredSettings, currentSettings, stackConfig } from "./config";
import { warn } from "./engine-log";
import { forEngine } from "./operations";
import type { BuiltProvider } from "./provider";
import {
  describeAlternative,
  environmentAlternative,
  fromConfiguration,
  isRefusal,
  rotationAdvice,
  useEnvironmentFor,
  type GuardedOperation,
} from "./rotation";

type Decision = { kind: "keep" } | { kind: "replaced" } | { kind: "refused"; error: unknown };

const DECISIONS = Symbol.for("krcloud.provider.rotationDecisions");

/** One decision per configured key and process, shared by every resource type's provider. */
function decisions(): Map<string, Promise<Decision>> {
  const g = globalThis as unknown as Record<symbol, Map<string, Promise<Decision>> | undefined>;
  return (g[DECISIONS] ??= new Map());
}

/** Forgets the decisions (tests). */
export function resetCredentialGuard(): void {
  decisions().clear();
}

/** The built provider with its check, create, read, update and delete guarded. */
export function guardCredentials(p: BuiltProvider): BuiltProvider {
  const guard =
    <A extends unknown[], R>(op: GuardedOperation, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await settle(op, noticeOf(args));
      try {
        return await fn(...args);
      } catch (e) {
        throw advised(e, op);
      }
    };
  return {
    ...p,
    check: guard("check", p.check.bind(p)),
    create: guard("create", p.create.bind(p)),
    read: guard("read", p.read.bind(p)),
    update: guard("update", p.update.bind(p)),
    delete: guard("delete", p.delete.bind(p)),
  };
}

/** Where an operation's warning goes: the plugin passes its own (on the resource's row); else the engine's log. */
function noticeOf(args: readonly unknown[]): (message: string) => void {
  const last = args[args.length - 1] as { warn?: (m: string) => void } | undefined;
  return typeof last?.warn === "function" ? last.warn : (m) => void warn([m]);
}

async function settle(op: GuardedOperation, notice: (message: string) => void): Promise<void> {
  const configured = configuredSettings();
  const source = tokenSourceOf(configured);
  if (source?.kind !== "access-key" || !fromConfiguration(configured, "credentialId")) return;
  const alt = environmentAlternative(configured, (k) => stackConfig()[k], process.env);
  if (alt === undefined) return;
  const key = `${source.identityEndpoint}\u0000${source.credentialId}\u0000${source.credentialSecret}`;
  let decided = decisions().get(key);
  if (decided === undefined) {
    decided = decide(source, notice);
    decisions().set(key, decided);
  }
  const d = await decided.catch((e: unknown) => {
    throw forEngine(e);
  });
  // A copy per operation: each gets the advice of its own command.
  if (d.kind === "refused") throw forEngine(advised(new CredentialError((d.error as Error).message, 401), op));
}

async function decide(source: Extract<TokenSource, { kind: "access-key" }>, notice: (message: string) => void): Promise<Decision> {
  const configured = configuredSettings();
  try {
    await currentToken(source, { settings: configured });
    return { kind: "keep" };
  } catch (e) {
    // Not a refusal (the network, a 5xx): the operation meets it and reports it.
    if (!isRefusal(e)) return { kind: "keep" };
    if (configured.projectId === undefined) return { kind: "refused", error: e };
    useEnvironmentFor(source);
    const alt = currentSettings();
    // The environment's credentials must be of the configured project before anything is read.
    await verifyTokenProject(await authenticated(alt)).catch((err: unknown) => {
      throw redactError(err, secretValues(alt));
    });
    notice(
      `the access key "${source.credentialId}" (${source.setting}, as Pulumi handed the provider its configuration) was refused by the identity service: ` +
        `it was revoked or has expired. This run uses ${describeAlternative(alt).replace(/^another /, "the ")} instead, of the same project "${configured.projectId}" ` +
        `(krcloud:projectId). Remove the old key from the stack's configuration (\`pulumi config rm-all krcloud:credentialId krcloud:credentialSecret\`), ` +
        `or set the new one there, so that the next \`pulumi up\` records it.`,
    );
    return { kind: "replaced" };
  }
}

/** A refusal with the advice of rotation.ts added to its message (and its one-line stack, provider.ts `forEngine`). */
function advised(e: unknown, op: GuardedOperation): unknown {
  if (!isRefusal(e)) return e;
  const configured = configuredSettings();
  const advice = rotationAdvice(
    op,
    configured,
    environmentAlternative(configured, (k) => stackConfig()[k], process.env),
  );
  const err = e as Error;
  if (advice === undefined || typeof err?.message !== "string" || err.message.includes(advice)) return e;
  const before = err.message;
  err.message = `${before}${advice}`;
  if (err.stack === before) Object.defineProperty(err, "stack", { value: err.message, configurable: true, writable: true });
  return e;
}
