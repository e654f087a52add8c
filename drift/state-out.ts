/**
 * `--state-out FILE`: what the cloud holds now as one state-shaped JSON (the format of `pulumi stack
 * export`), which `pulumi policy analyze --file FILE --policy-pack …` reads offline, with no login:
 *
 * - every managed resource the refresh read, with its inputs and outputs as refresh read them (the
 *   cloud's values, not the last `up`'s); one gone from the cloud is left out;
 * - every resource no checked stack manages (what `--unmanaged` lists), read by its type's own
 *   `read` from its id, as an import reads it, its inputs derived from what the cloud shows.
 *
 * The file never holds a secret: a secret is written as a secret whose value is the text
 * `[secret]` (a `plaintext` envelope, which `pulumi policy analyze` reads without a secrets
 * provider). A policy can tell that a password is set, never what it is. Hidden provider keys
 * (`__provider`, `__krcloud…`) are left out.
 *
 * An unmanaged resource belongs to no stack, but to an account that stacks use: it is written once
 * for each stack whose settings reach its account (`urn:pulumi:<stack>::<project>::<type>::<name>`,
 * the name the one `--unmanaged --import-file` would import it as), so that a rule keyed to stacks
 * (production, read-only) judges it as a resource of every environment that shares the account. A
 * rule it breaks is reported once, under the first of those stacks (by name) where it breaks.
 */
import { inputsFromOutputs, type Context } from "../provider/core/resource";
import { alwaysSecretOutputKeys, secretInputKeys } from "../provider/core/secrets";
import { STACK_IDENTITY_TOKEN } from "../provider/core/stack-identity";
import { findDefinition } from "../provider/registry";
import { definition } from "../provider/runtime";
import { systemClock, type Settings } from "../client/core";
import { displayType, logicalName } from "./analyze";
import { compareText } from "./report";
import type { StackRun } from "./run";
import { discover, type CloudResource, type Discovery } from "./unmanaged/discover";
import { namesOf } from "./unmanaged/generate";
import { isRecord, isSecretEnvelope, SECRET, SECRET_SIG } from "./values";

/** A resource of the state file (`pulumi stack export`'s `deployment.resources[]`). */
export interface StateResource {
  urn: string;
  custom: true;
  id: string;
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  parent?: string;
}

/** What a violation on a URN of the file is about. */
export interface Subject {
  name: string;
  type: string;
  stack: string;
  managed: boolean;
  /** The resource whatever stack's copy: `<type>|<id>` (an unmanaged resource is written once per stack of its account). */
  key: string;
}

export interface LiveState {
  resources: StateResource[];
  subjects: Map<string, Subject>;
}

/** The value of a secret in the file: readable offline, saying nothing. */
const SECRET_VALUE = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(SECRET) };

/** `v` with each secret (an envelope, or the events' `[secret]` mark) as SECRET_VALUE, and no hidden key. */
export function forStateFile(v: unknown, top = true): unknown {
  if (isSecretEnvelope(v) || v === SECRET) return SECRET_VALUE;
  if (Array.isArray(v)) return v.map((x) => forStateFile(x, false));
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (top && k.startsWith("__") ? [] : [[k, forStateFile(x, false)]])));
  return v;
}

/** Resources that are no cloud resource of krcloud's: the stack, providers, components, the stack identity. */
function holdsCloudState(type: string, custom: boolean | undefined): boolean {
  return custom !== false && type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:") && displayType(type) !== STACK_IDENTITY_TOKEN;
}

/** The managed resources of one stack's refresh-preview, as refresh read them, in the state's order. */
export function refreshedResources(run: StackRun): StateResource[] {
  const found = new Map<string, StateResource>();
  for (const e of run.events) {
    const m = e.resOutputsEvent?.metadata;
    if (m?.op !== "refresh" || !m.new?.id || !holdsCloudState(m.type, m.new.custom)) continue;
    const r: StateResource = {
      urn: m.urn,
      custom: true,
      id: m.new.id,
      type: m.type,
      inputs: forStateFile(m.new.inputs ?? {}) as Record<string, unknown>,
      outputs: forStateFile(m.new.outputs ?? {}) as Record<string, unknown>,
    };
    if (m.new.parent && !m.new.parent.includes("::pulumi:pulumi:Stack::")) r.parent = m.new.parent;
    found.set(m.urn, r);
  }
  const rank = new Map((run.stateOrder ?? []).map((u, i) => [u, i]));
  const at = (u: string) => rank.get(u) ?? Number.MAX_SAFE_INTEGER;
  return [...found.values()].sort((a, b) => at(a.urn) - at(b.urn) || compareText(a.urn, b.urn));
}

/** An account the run's stacks reach: its settings and those stacks, by name. */
export interface Account {
  settings: Settings;
  stacks: string[];
  project: string;
}

/** Each unmanaged resource of the accounts, read by its type's own `read`; what failed to list or read, by service. */
export async function unmanagedResources(
  accounts: readonly Account[],
  tracked: ReadonlySet<string>,
): Promise<{ resources: StateResource[]; subjects: Map<string, Subject>; errors: Discovery["errors"] }> {
  const resources: StateResource[] = [];
  const subjects = new Map<string, Subject>();
  const errors: Discovery["errors"] = [];
  for (const account of accounts) {
    const found = await discover(account.settings, tracked);
    errors.push(...found.errors);
    const unmanaged = found.resources.filter((r) => !r.managed).sort(byTokenAndName);
    const names = namesOf(unmanaged);
    const ctx: Context = { settings: account.settings, progress: () => undefined, clock: systemClock };
    for (const r of unmanaged) {
      const def = definition(r.token);
      let outs: Record<string, unknown> | undefined;
      try {
        outs = await def.read(ctx, r.id, {});
      } catch (e) {
        errors.push({ service: r.service, error: `reading ${r.token} "${r.id}": ${(e as Error)?.message ?? String(e)}` });
        continue;
      }
      if (!outs) continue;
      const name = names.get(r)!;
      const inputs = masked(r.token, inputsFromOutputs(def, outs), "in");
      const outputs = masked(r.token, outs, "out");
      for (const stack of account.stacks) {
        const urn = `urn:pulumi:${stack}::${account.project}::${r.token}::${name}`;
        resources.push({ urn, custom: true, id: r.id, type: r.token, inputs, outputs });
        subjects.set(urn, { name, type: r.token, stack, managed: false, key: `${r.token}|${r.id}` });
      }
    }
  }
  return { resources, subjects, errors };
}

function byTokenAndName(a: CloudResource, b: CloudResource): number {
  return compareText(a.token, b.token) || compareText(a.name, b.name) || compareText(a.id, b.id);
}

/** A read's values with the type's secret properties written as secrets (a read rarely returns one; never in clear). */
function masked(token: string, values: Record<string, unknown>, side: "in" | "out"): Record<string, unknown> {
  const def = findDefinition(token);
  const secret = new Set(def ? (side === "in" ? secretInputKeys(def) : alwaysSecretOutputKeys(def)) : []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) out[k] = secret.has(k) && v !== undefined && v !== null ? SECRET_VALUE : forStateFile(v, false);
  return out;
}

/** The state file: the managed resources of each stack run (in the report's order of stacks), then the unmanaged ones. */
export function liveState(runs: readonly StackRun[], unmanaged: { resources: StateResource[]; subjects: Map<string, Subject> }): LiveState {
  const resources: StateResource[] = [];
  const subjects = new Map<string, Subject>();
  for (const run of [...runs].sort((a, b) => compareText(a.stack, b.stack))) {
    for (const r of refreshedResources(run)) {
      resources.push(r);
      subjects.set(r.urn, { name: logicalName(r.urn), type: displayType(r.type), stack: run.stack, managed: true, key: r.urn });
    }
  }
  resources.push(...unmanaged.resources);
  for (const [u, s] of unmanaged.subjects) subjects.set(u, s);
  return { resources, subjects };
}

/** The JSON text of the file (`pulumi stack export`'s shape, version 3). */
export function stateFileText(state: LiveState, now: Date, toolVersion: string): string {
  const deployment = {
    version: 3,
    deployment: {
      manifest: { time: now.toISOString(), magic: "", version: `krcloud-drift ${toolVersion}` },
      resources: state.resources,
    },
  };
  return `${JSON.stringify(deployment, null, 2)}\n`;
}
