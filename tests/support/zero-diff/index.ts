/**
 * The zero-diff suite's programs, described once and served by both front doors: a spec (every
 * krcloud resource type with its inputs) is written as `spec.json` for the dynamic-class program
 * (tests/programs/zero-diff/index.js) and rendered as a Pulumi YAML program for the native plugin.
 * Two variants: `baseSpec` (minimal inputs, auto-names) and `variedSpec` (every optional property
 * set once where the local cloud can honour it, unicode in descriptions and contents, empty lists
 * and maps, lists and map keys out of order). `makeOutside` makes resources outside Pulumi
 * (through the client), to adopt (dynamic classes) or import (native plugin) them.
 *
 * Secret inputs carry distinctive values (`secretValues`), so the secrets scan can look for them.
 *
 * The specs and their rendering are in spec.ts, the resources made outside Pulumi in
 * outside.ts (both re-exported here); the checks of a run are below.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { eventCollector, logicalName } from "../../harness/engine";

export * from "./outside";
export * from "./spec";

export interface StepSummary {
  name: string;
  type: string;
  op: string;
  /** Input keys whose recorded and new values differ, with both values. */
  changed: string[];
}

/** The steps of a run that are not `same` (nor a refresh's `refresh`), with the input keys that differ. */
export function changes(events: readonly EngineEvent[]): StepSummary[] {
  const out: StepSummary[] = [];
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m || m.op === "same" || m.op === "refresh" || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) continue;
    // The providers diff the recorded outputs against the new inputs (a dynamic provider reports no
    // per-property diff): show the input keys where those differ, with both values.
    const olds = m.old?.outputs ?? m.old?.inputs ?? {};
    const news = m.new?.inputs ?? {};
    const keys = m.detailedDiff ? Object.keys(m.detailedDiff) : (m.diffs ?? []);
    const changed = (keys.length > 0 ? keys : Object.keys(news).filter((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k]))).map(
      (k) => `${k}: ${JSON.stringify(olds[k])?.slice(0, 300)} => ${JSON.stringify(news[k])?.slice(0, 300)}`,
    );
    out.push({ name: logicalName(m.urn), type: m.type, op: m.op, changed });
  }
  return out;
}

/**
 * `pulumi preview --expect-no-changes`, through the Automation API: resolves to the number of
 * resources previewed (excluding the stack and providers) when no resource would change; otherwise
 * fails naming every step and the properties that differ.
 */
export async function previewNoChanges(stack: Stack, label: string): Promise<number> {
  const { events, onEvent } = eventCollector();
  let failure: unknown;
  try {
    await stack.preview({ color: "never", expectNoChanges: true, onEvent });
  } catch (e) {
    failure = e;
  }
  const steps = changes(events);
  const seen = new Set(
    events
      .map((e) => e.resourcePreEvent?.metadata)
      // The stack's identity (dynamic classes) is state only, not one of the program's resources.
      .filter((m) => m && m.type !== "pulumi:pulumi:Stack" && !m.type.startsWith("pulumi:providers:") && !m.type.endsWith("krcloud/index:StackIdentity"))
      .map((m) => m!.urn),
  );
  if (steps.length > 0 || failure !== undefined) {
    const detail = steps.map((s) => `${s.name} (${s.type}): ${s.op} [${s.changed.join(", ")}]`).join("\n  ");
    throw new Error(
      `${label}: preview --expect-no-changes found changes:\n  ${detail || "(no step events)"}\n${failure ? String((failure as Error).message ?? failure).slice(0, 4000) : ""}`,
    );
  }
  return seen.size;
}
