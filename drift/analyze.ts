/**
 * The engine events of one refresh-preview (`pulumi preview --refresh`) turned into a result per
 * resource. Pure: no engine runs here (tests feed it recorded or synthetic events).
 *
 * Two sets of events matter. The refresh events (op `refresh`) carry each resource's inputs before
 * and after the read: what changed in the cloud. The step events carry the plan: where the
 * refreshed inputs differ from the program's. A difference is drift when refresh changed that
 * property (the cloud moved); when the cloud still matches the state it is a change of the program
 * not applied yet, which is reported as pending and does not fail the check.
 */
import { createHash } from "node:crypto";
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import type { Origin, PropertyFinding, ResourceResult } from "./model";
import { STACK_IDENTITY_TOKEN } from "../provider/core/stack-identity";
import { findDefinition } from "../provider/registry";
import { canonical, jsonEqual, leafDiffs, publicInputs, SECRET, topKey, valueAt, type LeafDiff } from "./values";

/** A provider's read that failed, as provider/core reports it with KRCLOUD_READ_ERRORS=report. */
export const READ_ERROR_KEY = "__krcloudReadError";

/** Steps that change nothing in the cloud. */
const NO_CHANGE: ReadonlySet<string> = new Set(["same", "refresh", "read", "discard", "discard-replaced", "remove-pending-replace"]);
/** The steps of one replacement, reported once as `replace`. */
const REPLACE_STEPS: ReadonlySet<string> = new Set(["replace", "create-replacement", "delete-replaced", "read-replacement", "import-replacement"]);
const MAX_PROPERTIES = 50;

export interface Analysis {
  resources: ResourceResult[];
  /** False when the preview stopped before it planned every resource. */
  complete: boolean;
  /** Each changed resource's inputs as refresh read them from the cloud (secrets masked): the values to accept. */
  cloudInputs: Map<string, Record<string, unknown>>;
}

interface Refreshed {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  gone: boolean;
  readError?: string;
  /** Top-level keys the provider said changed in the read (the native plugin says; dynamic providers cannot). */
  reported: Set<string>;
  /** The definition's `driftOutputs`, before and after the read. */
  outputsBefore: Record<string, unknown>;
  outputsAfter: Record<string, unknown>;
}

/** The `driftOutputs` of a resource's type, from `outputs`, secrets masked. */
function driftOutputsOf(type: string, outputs: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of findDefinition(displayType(type))?.driftOutputs ?? []) if (outputs?.[k] !== undefined) out[k] = outputs[k];
  return publicInputs(out);
}

/** `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket` -> `krcloud:objectstorage:Bucket`. */
export function displayType(t: string): string {
  const m = /^pulumi-nodejs:dynamic\/krcloud\/([^:]+):(.+)$/.exec(t);
  return m ? `krcloud:${m[1]}:${m[2]}` : t;
}

export function logicalName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Resources that hold no cloud state of their own: the stack, providers, components. */
function skipped(m: Pick<StepEventMetadata, "type" | "provider">): boolean {
  return m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:") || m.provider === "" || displayType(m.type) === STACK_IDENTITY_TOKEN;
}

export function fingerprintOf(urn: string, path: string, cloud?: unknown, program?: unknown): string {
  const text = `${urn}\n${path}\n${canonical(cloud)}\n${canonical(program)}`;
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

function reportedKeys(m: Pick<StepEventMetadata, "diffs" | "detailedDiff" | "keys"> | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of [...(m?.diffs ?? []), ...Object.keys(m?.detailedDiff ?? {}), ...(m?.keys ?? [])]) out.add(topKey(p));
  return out;
}

/**
 * `resources` in the order of the stack's state (`stateOrder`); those not in it (declared, not
 * created yet) after them, by URN. Events of a refresh arrive in whatever order its concurrent
 * reads finish: a report in that order would differ from run to run on an unchanged stack.
 */
export function inStateOrder(resources: readonly ResourceResult[], stateOrder: readonly string[] | undefined): ResourceResult[] {
  if (stateOrder === undefined) return [...resources];
  const index = new Map(stateOrder.map((u, i) => [u, i]));
  const rank = (r: ResourceResult) => index.get(r.urn) ?? Number.MAX_SAFE_INTEGER;
  return [...resources].sort((a, b) => rank(a) - rank(b) || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
}

export function analyzeEvents(events: readonly EngineEvent[], opts: { failed?: boolean; stateOrder?: readonly string[] } = {}): Analysis {
  const refreshed = new Map<string, Refreshed>();
  const order: string[] = [];
  const rows = new Map<string, ResourceResult>();
  const cloudInputs = new Map<string, Record<string, unknown>>();
  const seen = (urn: string, type: string): ResourceResult => {
    let r = rows.get(urn);
    if (!r) {
      r = { urn, name: logicalName(urn), type: displayType(type), status: "clean", properties: [] };
      rows.set(urn, r);
      order.push(urn);
    }
    return r;
  };

  for (const e of events) {
    const pre = e.resourcePreEvent?.metadata;
    if (pre?.op === "refresh" && !skipped(pre)) seen(pre.urn, pre.type);
    const out = e.resOutputsEvent?.metadata;
    if (out?.op !== "refresh" || skipped(out)) continue;
    seen(out.urn, out.type);
    const outputs = out.new?.outputs ?? {};
    const readError = outputs[READ_ERROR_KEY];
    refreshed.set(out.urn, {
      before: publicInputs(out.old?.inputs),
      after: publicInputs(out.new?.inputs),
      gone: !out.new || !out.new.id,
      readError: typeof readError === "string" ? readError : undefined,
      reported: reportedKeys(out),
      outputsBefore: driftOutputsOf(out.type, out.old?.outputs),
      outputsAfter: driftOutputsOf(out.type, out.new?.outputs),
    });
  }

  const steps = new Map<string, StepEventMetadata[]>();
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m || NO_CHANGE.has(m.op) || skipped(m)) continue;
    seen(m.urn, m.type);
    steps.set(m.urn, [...(steps.get(m.urn) ?? []), m]);
  }
  for (const [urn, list] of steps) {
    const row = rows.get(urn)!;
    const first = list[0]!;
    const r = refreshed.get(urn);
    row.operation = list.some((m) => REPLACE_STEPS.has(m.op)) ? "replace" : first.op;
    if (first.op === "create") {
      row.status = r?.gone ? "deleted" : "pending";
      row.note = r?.gone ? "deleted outside Pulumi: refresh found it gone; `pulumi up` would create it again" : "declared by the program, not created yet";
      continue;
    }
    if (first.op === "delete") {
      row.status = "pending";
      row.note = "in the stack but no longer declared by the program: `pulumi up` would delete it";
      continue;
    }
    // The step that holds both sides: a replacement's delete step (first when the provider deletes before replacing) has no new state.
    const m = list.find((x) => x.op === "update" || x.op === "replace") ?? list.find((x) => x.old && x.new) ?? first;
    row.properties = propertiesOf(m, r);
    cloudInputs.set(urn, publicInputs(m.old?.inputs));
  }

  for (const r of rows.values()) {
    const info = refreshed.get(r.urn);
    if (info?.readError !== undefined) {
      r.status = "unreadable";
      r.error = info.readError;
      r.properties = [];
      continue;
    }
    if (info?.gone) {
      r.status = "deleted";
      r.note ??= "deleted outside Pulumi: refresh found it gone; `pulumi up` would create it again";
      r.properties = [];
      r.fingerprint = fingerprintOf(r.urn, "(deleted)");
      continue;
    }
    if (info !== undefined) r.properties = [...r.properties, ...outputDrift(r.urn, info)].slice(0, MAX_PROPERTIES);
    // Drift in outputs alone plans no step: its remedies still need the inputs as refresh read them.
    if (info !== undefined && !cloudInputs.has(r.urn)) cloudInputs.set(r.urn, info.after);
    if (r.status === "pending" && r.operation !== undefined && r.properties.length === 0) continue;
    if (r.properties.length > 0) {
      r.status = r.properties.some((p) => p.origin !== "program") ? "drifted" : "pending";
    } else if (r.operation !== undefined) {
      r.status = "pending";
      r.note ??=
        r.operation === "replace"
          ? "`pulumi up` would replace it with no property of its own changed: a resource it depends on is replaced first"
          : `the provider plans a ${r.operation} with no visible property difference (an earlier update may not have finished): run \`pulumi up\``;
    } else {
      // Types whose state holds nothing the cloud keeps for comparison say so on their definition.
      const unverifiable = findDefinition(r.type)?.unverifiable;
      if (unverifiable !== undefined) {
        r.status = "unverifiable";
        r.note = unverifiable;
      }
    }
  }

  if (opts.failed) markFailedReads(events, rows, seen);
  const resources = inStateOrder(
    order.map((u) => rows.get(u)!),
    opts.stateOrder,
  );
  for (const r of resources) if (r.status === "drifted" || r.status === "deleted") r.disposition = "new";
  return { resources, complete: !opts.failed, cloudInputs };
}

/**
 * Without KRCLOUD_READ_ERRORS=report (a provider that predates it) a failed read stops the
 * preview: the resources whose errors the engine reported are unreadable, the rest unknown.
 */
function markFailedReads(events: readonly EngineEvent[], rows: Map<string, ResourceResult>, seen: (urn: string, type: string) => ResourceResult): void {
  for (const e of events) {
    const d = e.diagnosticEvent;
    if (!d || d.severity !== "error" || !d.urn) continue;
    const type = d.urn.split("::")[2] ?? "";
    if (type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:")) continue;
    const row = rows.get(d.urn) ?? seen(d.urn, type.split("$").pop() ?? type);
    row.status = "unreadable";
    row.properties = [];
    row.error = [row.error, d.message.trim().replace(/^error: /, "")].filter(Boolean).join("\n");
  }
}

function propertiesOf(m: StepEventMetadata, r: Refreshed | undefined): PropertyFinding[] {
  const cloud = publicInputs(m.old?.inputs);
  const program = publicInputs(m.new?.inputs);
  const before = r?.before ?? cloud;
  const reported = reportedKeys(m);
  const replacing = REPLACE_STEPS.has(m.op);
  // A replacement is checked again without its old inputs, so an auto-named resource gets a new
  // name there: a difference of the program's on a key the provider did not name is that, not a change.
  const diffs = leafDiffs(cloud, program).filter(
    (d) => !replacing || d.secret || reported.has(topKey(d.path)) || !jsonEqual(valueAt(before, d.path), valueAt(cloud, d.path)),
  );
  const plain = diffs.filter((d) => !d.secret);
  const out: PropertyFinding[] = [];
  for (const d of diffs) {
    if (d.secret && plain.length > 0 && !reported.has(topKey(d.path))) continue;
    out.push(finding(m.urn, d, originOf(d.path, d.secret === true, before, cloud, r)));
  }
  return out.slice(0, MAX_PROPERTIES);
}

/** What a refresh changed in the outputs a definition reports per path (`driftOutputs`): the cloud's value beside the recorded one. */
function outputDrift(urn: string, r: Refreshed): PropertyFinding[] {
  return leafDiffs(r.outputsAfter, r.outputsBefore).map((d) => finding(urn, d, "cloud"));
}

/** A difference as the report shows it: the cloud's value and the program's (or the state's), a secret masked. */
function finding(urn: string, d: LeafDiff, origin: Origin): PropertyFinding {
  const f: PropertyFinding = { path: d.path, origin, disposition: "new", fingerprint: "" };
  if (d.secret) {
    f.secret = true;
    f.cloud = SECRET;
    f.program = SECRET;
  } else {
    if (d.a !== undefined) f.cloud = d.a;
    if (d.b !== undefined) f.program = d.b;
  }
  f.fingerprint = fingerprintOf(urn, f.path, f.cloud, f.program);
  return f;
}

function originOf(path: string, secret: boolean, before: Record<string, unknown>, after: Record<string, unknown>, r: Refreshed | undefined): Origin {
  if (!r) return "cloud";
  if (secret) return r.reported.has(topKey(path)) ? "cloud" : "unknown";
  return jsonEqual(valueAt(before, path), valueAt(after, path)) ? "program" : "cloud";
}
