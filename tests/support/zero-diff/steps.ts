/**
 * The steps the zero-diff engine files run on either door (zero-diff-dynamic.test.ts, the dynamic
 * classes; zero-diff-native.test.ts, the native plugin) and the upgrade from the previous release
 * (previous-release.test.ts): each step timed, its figures printed at the end of the file; the
 * cycle up, preview, refresh, preview with no changes; and what a stack leaves behind.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { stateResources, type InventoryEntry } from "../../harness/engine";
import { previewNoChanges, typesOf, type Spec, type StackTargets } from ".";
import type { EngineFile } from "../../harness/engine/engine-file";

export interface ZeroDiffSteps {
  /** Runs `fn`, noting how long it took under `label`. */
  timed: <T>(label: string, fn: () => Promise<T> | T) => Promise<T>;
  /** A line of the figures printed at the end of the file. */
  note: (line: string) => void;
  /**
   * A preview with no changes, refresh, a preview with no changes, each timed under `label`; the
   * previews are called `first` and `refreshed` where they fail. Returns what the first counted.
   */
  previewRefreshPreview: (label: string, stack: Stack, first: string, refreshed: string) => Promise<number>;
  /** up, then a preview with no changes; refresh, then a preview with no changes: every step timed, the figures noted under `label`. */
  upPreviewRefresh: (label: string, stack: Stack, spec: Spec) => Promise<void>;
  /** `upPreviewRefresh`, then (whatever it found) the stack destroyed. */
  upPreviewRefreshDestroy: (label: string, stack: Stack, spec: Spec) => Promise<void>;
  /** Destroys `stack` (timed under `label`) and finds nothing of the project's left but the fixture's key and database instance. */
  destroyLeavesNothing: (label: string, stack: Stack) => Promise<void>;
  /** The ids of the stack's cluster and result bucket, which the resources made outside Pulumi refer to. */
  targets: (stack: Stack) => Promise<StackTargets>;
}

/** The steps, for the file's project; the figures are printed under `title` after the file's tests. */
export function zeroDiffSteps(engine: EngineFile, title: string): ZeroDiffSteps {
  const figures: string[] = [];
  const started = Date.now();
  afterAll(() => {
    figures.push(`file total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`${title}:\n  ${figures.join("\n  ")}`);
  });

  const steps: ZeroDiffSteps = {
    timed: async (label, fn) => {
      const t0 = Date.now();
      const v = await fn();
      figures.push(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      return v;
    },
    note: (line) => figures.push(line),
    previewRefreshPreview: async (label, stack, first, refreshed) => {
      const n = await steps.timed(`${label}: preview`, () => previewNoChanges(stack, first));
      await steps.timed(`${label}: refresh`, () => stack.refresh({ color: "never" }));
      await steps.timed(`${label}: preview after refresh`, () => previewNoChanges(stack, refreshed));
      return n;
    },
    upPreviewRefresh: async (label, stack, spec) => {
      const up = await steps.timed(`${label}: up`, () => stack.up({ color: "never" }));
      expect(up.summary.result).toBe("succeeded");
      const n = await steps.previewRefreshPreview(label, stack, `${label} after up`, `${label} after refresh`);
      expect(n).toBe(spec.resources.length);
      figures.push(`${label}: ${n} resources of ${typesOf(spec).size} types, 0 changes after up and after refresh`);
    },
    upPreviewRefreshDestroy: async (label, stack, spec) => {
      try {
        await steps.upPreviewRefresh(label, stack, spec);
      } finally {
        const destroyed = await steps.timed(`${label}: destroy`, () => stack.destroy({ color: "never" }));
        expect(destroyed.summary.result).toBe("succeeded");
      }
    },
    destroyLeavesNothing: async (label, stack) => {
      const destroyed = await steps.timed(label, () => stack.destroy({ color: "never" }));
      expect(destroyed.summary.result).toBe("succeeded");
      expect(await leftBehind(engine)).toEqual([]);
    },
    targets: async (stack) => {
      const state = stateResources(await stack.exportStack());
      const clusterId = state.find((r) => r.urn.endsWith("::zd-cluster"))?.id;
      const resultsBucket = state.find((r) => r.urn.endsWith("::zd-results"))?.id;
      expect([clusterId, resultsBucket]).toEqual([expect.any(String), expect.any(String)]);
      return { clusterId: clusterId!, resultsBucket: resultsBucket! };
    },
  };
  return steps;
}

/** What the local cloud holds for the project that the stacks made (not the fixture's key and database instances). */
async function leftBehind(engine: EngineFile): Promise<InventoryEntry[]> {
  const fixtures = new Set(["kms:key", "data-query:instance"]);
  return (await engine.inventory()).filter((e) => !fixtures.has(`${e.service}:${e.kind}`));
}

/** The file asset the varied spec's object is made from, written into the program's directory. */
export function writeAsset(dir: string): string {
  const asset = path.join(dir, "asset.txt");
  fs.writeFileSync(asset, "a file asset ✓\nsecond line\n");
  return asset;
}
