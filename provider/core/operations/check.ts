/**
 * check: validates the program's inputs with property paths and no network (but a definition's
 * `checkWithCloud`: reads only), applies defaults and derivations, and records who the resource is
 * (identity.ts: its create key and generated name). Every resource of both doors passes here first.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { assertCredentials, authenticated, endpointOf, tokenSourceOf } from "../../../client/core";
import { currentSettings } from "../config";
import { addressOf, identityOf, provisionalName, type Identity } from "../identity";
import { keepDataCheck } from "../keep-data";
import { formatPath, issueMessage } from "../issues";
import { withoutHidden } from "../properties";
import {
  AUTONAMED_KEY,
  CREATE_KEY,
  inputSchema,
  PROVIDER_KEY,
  type AnyDefinition,
  type CheckError,
  type CheckOptions,
  type Context,
  type Derivation,
} from "../resource";
import { toPlain } from "../sanitize";
import { containsUnknown, parseKnown, UNKNOWN, type ParseIssue } from "../unknown";
import { clean, contextFor, forEngine, serviceOf, signIn, type Call } from "./env";

type Failure = { property: string; reason: string };

/** The create key a check chose for a replacement, by type and URN, until the engine's second check of it (identity.ts). */
const replacementKeys = new Map<string, string>();

export async function check(call: Call<CheckOptions>, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.CheckResult> {
  const { def, opts } = call;
  const program = withoutHidden(news);
  const facts = { olds, program, ...addressOf(def, news, opts) };
  const nameKey = def.autoName?.property;
  const provisional = provisionalName(def, facts);
  const parsed = parseKnown(inputSchema(def), provisional === undefined ? program : { ...program, [nameKey!]: provisional });
  if (!parsed.ok) return { inputs: news, failures: failuresOf(parsed.issues) };
  const value = parsed.value as Record<string, unknown>;
  await assertConfigured(def);
  const memoKey = `${def.token}\u0000${facts.urn}`;
  const identity = identityOf(def, { ...facts, checked: value, remembered: replacementKeys.get(memoKey) });
  replacementKeys.delete(memoKey);
  if (identity.memo !== undefined) replacementKeys.set(memoKey, identity.memo);
  if (identity.name !== undefined) value[nameKey!] = identity.name;
  // The engine shows the step that takes an existing resource over as a create; say what it is.
  if (identity.firstCheck && adopting(def, value)) {
    (opts?.notice ?? ((m) => process.stdout.write(`${m}\n`)))(adoptNotice(def, facts.logical, value, nameKey));
  }
  return checked(call, news, value, identity, { memoKey, olds });
}

/** The checked inputs derived and checked against the cloud, with the hidden keys the later operations need. */
async function checked(
  { def, env }: Call<CheckOptions>,
  news: Record<string, unknown>,
  value: Record<string, unknown>,
  { createKey, autoNamed }: Identity,
  { memoKey, olds }: { memoKey: string; olds: Record<string, unknown> },
): Promise<dynamic.CheckResult> {
  try {
    const ready = derive(def, value);
    const remote = await checkWithCloud(def, ready, contextFor("read", env));
    if (remote.length > 0) return { inputs: news, failures: remote };
    // A replacement that keeps the data: its plan, recorded for its create (keep-data.ts), or why it is refused.
    const keep = await keepDataCheck(def, contextFor("read", env), { memoKey, olds, news: ready, createKey });
    if (keep.failures.length > 0) return { inputs: news, failures: keep.failures };
    return {
      inputs: toPlain({
        ...ready,
        [PROVIDER_KEY]: news[PROVIDER_KEY],
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
}

/**
 * The engine prints a failure's value by looking `property` up among the top-level inputs (no
 * path parsing, pulumi v3.259 issueCheckFailures): a nested path would print `value {<nil>}`.
 * So the property is the top-level input and the reason carries the full path.
 */
function failuresOf(issues: readonly ParseIssue[]): Failure[] {
  return issues.map((i) => ({
    property: formatPath(i.path.slice(0, 1)),
    reason: `${formatPath(i.path) || "inputs"}: ${issueMessage(i)}`,
  }));
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
async function checkWithCloud(def: AnyDefinition, inputs: Record<string, unknown>, ctx: Context): Promise<Failure[]> {
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
