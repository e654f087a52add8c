/**
 * Credentials after a rotation (issue 38 item 4). Pulumi hands a provider the configuration the
 * stack had at the last `pulumi up` when it refreshes or destroys without running the program
 * (the provider resource's recorded inputs, on both doors), while the environment is read as it is
 * now. After a key is rotated, the configuration handed over may therefore carry a key the identity
 * service refuses while `KRCLOUD_*` holds the new one: stack config comes first, setting by setting
 * (client/core/settings.ts), so the new key is never used.
 *
 * What this module decides, without a request of its own (credential-guard.ts makes the one token
 * request and applies it):
 * - which credentials the environment alone gives (`environmentAlternative`), when they differ from
 *   the configured ones;
 * - `useEnvironmentFor`: a refused access key is replaced by the environment's for the rest of this
 *   process, which `withRotation` (config.ts `currentSettings`) applies. Only when krcloud:projectId
 *   is set: the new key's token must name that project, so a key of another project is refused
 *   before anything is read (with it, a refresh would find nothing and drop every resource from the
 *   state, and a destroy would forget them);
 * - otherwise `rotationAdvice`: what the refusal means here, where the other credentials are, and
 *   the one command that takes them.
 */
import { createHash } from "node:crypto";
import { isApiError, resolveSettings, settingOrigin, tokenSourceOf, type Settings, type TokenSource } from "../../client/core";

/** The settings that say who calls; every other setting (endpoints, project, region) stays as configured. */
const CREDENTIAL_SETTINGS = new Set(["authToken", "tokenCommand", "credentialId", "credentialSecret"]);

/** A provider operation, as the engine runs it (check and create in `up`, read in `refresh`, delete in `destroy`). */
export type GuardedOperation = "check" | "create" | "read" | "update" | "delete";

/**
 * The configured settings with their credentials taken from the environment alone; undefined when
 * the environment holds none, or the same ones.
 */
export function environmentAlternative(configured: Settings, config: (key: string) => string | undefined, env: NodeJS.ProcessEnv): Settings | undefined {
  const alt = resolveSettings({}, (k) => (CREDENTIAL_SETTINGS.has(k) ? undefined : config(k)), env);
  const mine = tokenSourceOf(configured);
  const theirs = tokenSourceOf(alt);
  if (theirs !== undefined) return mine !== undefined && digestOf(mine) === digestOf(theirs) ? undefined : alt;
  // Data query and Hadoop take the access key itself, with or without an identity service.
  if (alt.credentialId && alt.credentialSecret && (alt.credentialId !== configured.credentialId || alt.credentialSecret !== configured.credentialSecret))
    return alt;
  return undefined;
}

/** Whether a setting came from the configuration Pulumi handed over (stack config or provider inputs), not the environment. */
export function fromConfiguration(s: Settings, name: "authToken" | "tokenCommand" | "credentialId"): boolean {
  return s.origins?.[name]?.startsWith("krcloud:") === true;
}

function digestOf(source: TokenSource): string {
  const parts =
    source.kind === "access-key"
      ? [source.kind, source.identityEndpoint, source.credentialId, source.credentialSecret]
      : [source.kind, source.kind === "command" ? source.command : source.token];
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

const REPLACED = Symbol.for("krcloud.provider.rotatedCredentials");

function replaced(): Set<string> {
  const g = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  return (g[REPLACED] ??= new Set());
}

/** From now on in this process, settings whose token source is `source` take their credentials from the environment. */
export function useEnvironmentFor(source: TokenSource): void {
  replaced().add(digestOf(source));
}

/** `configured`, or the environment's credentials in place of a source `useEnvironmentFor` replaced. */
export function withRotation(configured: Settings, config: (key: string) => string | undefined, env: NodeJS.ProcessEnv): Settings {
  if (replaced().size === 0) return configured;
  const source = tokenSourceOf(configured);
  if (source === undefined || !replaced().has(digestOf(source))) return configured;
  return environmentAlternative(configured, config, env) ?? configured;
}

/** Forgets every replacement (tests). */
export function resetRotation(): void {
  replaced().clear();
}

/** A refused credential: the identity service refused the access key (401), or a service refused what it was sent (401). */
export function isRefusal(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x !== undefined && x !== null && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    const err = x as { code?: unknown; status?: unknown };
    if ((err.code === "KRCLOUD_CREDENTIALS" && err.status === 401) || (isApiError(x) && x.status === 401)) return true;
  }
  return false;
}

/** What the configured credentials are, for advice: a phrase, and the stack config keys that hold them. */
function configuredCredential(s: Settings): { what: string; keys: string; configured: boolean } | undefined {
  const source = tokenSourceOf(s);
  if (source?.kind === "static") return { what: "token", keys: "krcloud:authToken", configured: fromConfiguration(s, "authToken") };
  if (source?.kind === "command") return { what: "token command", keys: "krcloud:tokenCommand", configured: fromConfiguration(s, "tokenCommand") };
  if (s.credentialId) return { what: "access key", keys: "krcloud:credentialId krcloud:credentialSecret", configured: fromConfiguration(s, "credentialId") };
  return undefined;
}

/** The environment's credentials, named with the variables that hold them. */
export function describeAlternative(alt: Settings): string {
  const source = tokenSourceOf(alt);
  if (source?.kind === "static") return `a token (${settingOrigin(alt, "authToken")})`;
  if (source?.kind === "command") return `a token command (${settingOrigin(alt, "tokenCommand")})`;
  return `another access key "${alt.credentialId ?? ""}" (${settingOrigin(alt, "credentialId")} and ${settingOrigin(alt, "credentialSecret")})`;
}

/**
 * What to add to the message of a refused credential that came from the configuration Pulumi
 * handed over: why Pulumi still uses it, where other credentials are, and the one command that
 * takes them. Undefined when the refused credential came from the environment (no other is known).
 */
export function rotationAdvice(op: GuardedOperation, configured: Settings, alt: Settings | undefined): string | undefined {
  const c = configuredCredential(configured);
  if (c === undefined || !c.configured) return undefined;
  const altIsKey = alt !== undefined && tokenSourceOf(alt)?.kind !== "static" && tokenSourceOf(alt)?.kind !== "command";
  const unpinned = altIsKey && configured.projectId === undefined;
  if (op === "read" || op === "delete") {
    const cmd = op === "read" ? "pulumi refresh" : "pulumi destroy";
    const recorded = ` Without --run-program, \`${cmd}\` configures the provider as the last \`pulumi up\` recorded it, not as the stack is configured now`;
    if (alt === undefined) return `${recorded}: with a new ${c.what} in the stack's configuration since, run \`${cmd} --run-program\`.`;
    return (
      `${recorded}. The environment holds ${describeAlternative(alt)}: run \`${cmd} --run-program\`, which takes the stack's configuration as it is now ` +
      `and the environment for what it does not set (when the stack's configuration still holds the refused ${c.what}, remove it first: \`pulumi config rm-all ${c.keys}\`).` +
      (unpinned ? PIN_HINT : "")
    );
  }
  if (alt === undefined) return undefined;
  return (
    ` The environment holds ${describeAlternative(alt)}, but the stack's configuration comes first: remove the refused ${c.what} from it (\`pulumi config rm-all ${c.keys}\`).` +
    (unpinned ? PIN_HINT : "")
  );
}

const PIN_HINT =
  " krcloud takes the environment's access key in place of a refused one by itself only when krcloud:projectId is set, which proves the new key is of the same project.";
