/**
 * Every example program under examples/, driven through the real Pulumi CLI (Automation API)
 * against an in-process local cloud: up, no-change preview, secrets and `__provider` size in state,
 * drift detected / recorded / repaired, resources deleted behind Pulumi's back recreated, and a
 * destroy that leaves nothing behind. The tests of one example run in order on one stack.
 */
import { randomBytes } from "node:crypto";
import type { Stack } from "@pulumi/pulumi/automation";
import { Cluster, Redis } from "ioredis";
import type { LocalCloud } from "../../local-cloud";
import {
  backendFiles,
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  exampleStack,
  expectFailure,
  isSecret,
  logicalName,
  newProject,
  Sandbox,
  startCloud,
  stateResources,
  type CloudProject,
  type InventoryEntry,
  type SetupResource,
  withoutSecrets,
  type StateResource,
} from "../harness/engine";
import { cloudSnapshot, recipeFor } from "../resources";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

// YAML examples need the native plugin (the dynamic classes are TypeScript only): they have their
// own test, tests/engine/native-yaml.test.ts.
const examples = discoverExamples().filter((e) => e.runtime === "nodejs");

test("examples/ holds at least one program", () => {
  expect(examples.map((e) => e.name)).toContain("static-site");
});

describe.each(examples.map((e) => [e.name, e] as const))("example %s", (_name, example) => {
  let cloud: LocalCloud;
  let sandbox: Sandbox;
  let project: CloudProject;
  let stack: Stack;
  /** What the example's local-cloud.setup.json created: the cloud's, not the stack's. */
  let setup: SetupResource[] = [];
  /** The project's inventory without the setup's resources. */
  const stackInventory = async (): Promise<InventoryEntry[]> =>
    (await project.control.inventory(project.projectId)).filter((e) => !setup.some((r) => r.service === e.service && r.kind === e.kind && r.id === e.id));
  /** A program-level secret: an example that takes one reads it as config `siteVerification`. */
  const siteVerification = `sv-${randomBytes(12).toString("hex")}`;
  /** Another: an example with a database reads its password as config `dbPassword`. */
  const dbPassword = `db-${randomBytes(12).toString("hex")}`;

  /** The state's resources that have a drift recipe that applies to them (the krcloud resources of the program). */
  async function managed(): Promise<StateResource[]> {
    return stateResources(await stack.exportStack()).filter((r) => {
      const recipe = recipeFor(r.type);
      return recipe !== undefined && (recipe.applies?.(r) ?? true);
    });
  }

  async function snapshots(resources: StateResource[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const r of resources) out.set(r.urn, await cloudSnapshot(project.control, r));
    return out;
  }

  beforeAll(async () => {
    cloud = await startCloud();
    sandbox = new Sandbox({ label: `example-${example.name}` });
    project = await newProject(cloud, example.name);
    ({ stack, setup } = await exampleStack(sandbox, project, example, "engine", {
      siteVerification: { value: siteVerification, secret: true },
      dbPassword: { value: dbPassword, secret: true },
    }));
  });

  afterAll(async () => {
    await cloud?.close();
    sandbox?.cleanup();
  });

  test("a first preview (nothing created yet) succeeds; up succeeds; preview right after, with and without refresh, proposes no changes", async () => {
    // Lookups on resources this update creates are unknown in the first preview, not errors.
    const first = await stack.preview({ color: "never" });
    expect(first.changeSummary.create ?? 0).toBeGreaterThan(1);
    expect(await stackInventory()).toHaveLength(0);

    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create ?? 0).toBeGreaterThan(1);
    expect(await stackInventory()).not.toHaveLength(0);

    await stack.preview({ expectNoChanges: true, color: "never" });
    await stack.preview({ refresh: true, expectNoChanges: true, color: "never" });
  });

  // The cache example's endpoints are real Redis servers on the local cloud (redis-server is installed by make test).
  if (example.name === "cache") {
    test("its cluster takes a cluster-mode client at clusterEndpoint; the instance set's replica serves what its primary took", async () => {
      const outputs = await stack.outputs();
      const at = (key: string) => {
        const [host, port] = String(outputs[key]?.value).split(":");
        return { host: host!, port: Number(port), disconnectTimeout: 100 };
      };
      const sessions = new Cluster([at("clusterEndpoint")], { redisOptions: { disconnectTimeout: 100 } });
      const queue = new Redis(at("queueEndpoint"));
      const reader = new Redis(at("queueReadEndpoint"));
      try {
        await Promise.all(Array.from({ length: 100 }, (_, i) => sessions.set(`session:${i}`, `user-${i}`)));
        expect(await Promise.all(Array.from({ length: 100 }, (_, i) => sessions.get(`session:${i}`)))).toEqual(
          Array.from({ length: 100 }, (_, i) => `user-${i}`),
        );
        await queue.lpush("jobs", "job-1");
        // Replication is asynchronous: ask the replica until it has the job (10 s at most).
        let seen: string | null = null;
        for (const end = Date.now() + 10_000; seen === null && Date.now() < end;) seen = await reader.lindex("jobs", 0);
        expect(seen).toBe("job-1");
        await expect(reader.lpush("jobs", "job-2")).rejects.toThrow(/READONLY/);
      } finally {
        sessions.disconnect();
        queue.disconnect();
        reader.disconnect();
      }
    });
  }

  test("state holds no plaintext secret, and each __provider is under 1024 bytes", async () => {
    const secrets = [project.token, project.credentialSecret, siteVerification, dbPassword];
    const deployment = await stack.exportStack();
    // exportStack() decrypts (it is `pulumi stack export --show-secrets`): each secret is there, but
    // only inside a secret envelope.
    const text = JSON.stringify(deployment);
    for (const secret of secrets) expect(text).toContain(secret);
    const outsideEnvelopes = JSON.stringify(withoutSecrets(deployment));
    for (const secret of secrets) expect(outsideEnvelopes).not.toContain(secret);
    // At rest (checkpoint, history, backups of the file backend) no secret appears at all.
    const stored = backendFiles(sandbox.backendDir);
    expect(stored.some((f) => f.text.includes('"ciphertext"'))).toBe(true);
    for (const { file, text: content } of stored) {
      for (const secret of secrets) expect({ file, leaks: content.includes(secret) }).toEqual({ file, leaks: false });
    }

    const resources = stateResources(deployment).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) {
      for (const props of [r.inputs, r.outputs]) {
        const provider = props?.__provider;
        expect(typeof provider).toBe("string");
        expect(Buffer.byteLength(provider as string)).toBeLessThan(1024);
      }
    }

    // Where the program's secret reached the cloud, state must hold that property encrypted: the
    // check above is then not vacuous.
    for (const r of stateResources(deployment).filter((x) => recipeFor(x.type))) {
      const snap = JSON.stringify(await cloudSnapshot(project.control, r)) ?? "";
      if (!snap.includes(siteVerification)) continue;
      expect(Object.values(r.outputs ?? {}).some(isSecret)).toBe(true);
    }
  });

  test("drift: refresh-preview fails naming resource and property; refresh records it; up puts it back", async () => {
    const resources = await managed();
    expect(resources.length).toBeGreaterThan(0);
    const before = await snapshots(resources);

    const expected: { name: string; urn: string; properties: string[] }[] = [];
    for (const r of resources) {
      expected.push({ name: logicalName(r.urn), urn: r.urn, properties: await recipeFor(r.type)!.drift(project.control, r) });
    }

    const { events, onEvent } = eventCollector();
    const failure = await expectFailure(() => stack.preview({ refresh: true, expectNoChanges: true, color: "never", onEvent }));
    expect(failure).toMatch(/no changes were expected/);
    for (const { name, urn, properties } of expected) {
      // The CLI's step line: `~ pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket site update [diff: ~acl,metadata]`.
      // It cannot name a secret property (it does not know whether the hidden value changed).
      const line = failure.split("\n").find((l) => l.includes(` ${name} update`));
      expect(line ?? `no update line for ${name} in:\n${failure}`).toMatch(/\[diff: /);
      const outputs = resources.find((r) => r.urn === urn)?.outputs ?? {};
      for (const p of properties.filter((k) => !isSecret(outputs[k]))) expect(line).toContain(p);
    }
    const updated = new Set(events.filter((e) => e.resourcePreEvent?.metadata.op === "update").map((e) => logicalName(e.resourcePreEvent!.metadata.urn)));
    expect([...updated].sort()).toEqual(expected.map((e) => e.name).sort());

    await stack.refresh({ color: "never" });
    const refreshed = new Map((await managed()).map((r) => [r.urn, r]));
    for (const r of resources) {
      expect({ urn: r.urn, recorded: recipeFor(r.type)!.recorded(refreshed.get(r.urn)?.outputs ?? {}) }).toEqual({ urn: r.urn, recorded: true });
    }
    // State now records the drift: even a preview without refresh proposes the repair.
    await expectFailure(() => stack.preview({ expectNoChanges: true, color: "never" }));

    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges?.update).toBe(resources.length);
    const after = await snapshots(resources);
    for (const r of resources) expect({ urn: r.urn, cloud: after.get(r.urn) }).toEqual({ urn: r.urn, cloud: before.get(r.urn) });
    await stack.preview({ refresh: true, expectNoChanges: true, color: "never" });
  });

  test("resources deleted behind Pulumi's back are recreated by refresh + up", async () => {
    const resources = await managed();
    const before = await snapshots(resources);

    // Round 1: one resource of each dependent type (a CORS policy, a lifecycle configuration, an object).
    const leaves = [...new Map(resources.filter((r) => !recipeFor(r.type)!.root).map((r) => [r.type, r])).values()];
    for (const r of leaves) {
      const recipe = recipeFor(r.type)!;
      await project.control.deleteResource(recipe.service, recipe.kind, r.id!);
    }
    await stack.refresh({ color: "never" });
    const afterRefresh = new Set((await managed()).map((r) => r.urn));
    for (const r of leaves) expect(afterRefresh.has(r.urn)).toBe(false);

    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges?.create ?? 0).toBe(leaves.length);
    const recreated = await snapshots(await managed());
    for (const r of resources) expect({ urn: r.urn, cloud: recreated.get(r.urn) }).toEqual({ urn: r.urn, cloud: before.get(r.urn) });

    // Round 2: the root resource (the bucket), which takes everything in it along.
    const roots = resources.filter((r) => recipeFor(r.type)!.root);
    for (const r of roots) {
      const recipe = recipeFor(r.type)!;
      await project.control.deleteResource(recipe.service, recipe.kind, r.id!);
    }
    // Nothing of the types with a recipe is left (the others are not deleted here).
    const recipeKinds = new Set(resources.map((r) => `${recipeFor(r.type)!.service}/${recipeFor(r.type)!.kind}`));
    expect((await stackInventory()).filter((e) => recipeKinds.has(`${e.service}/${e.kind}`))).toEqual([]);
    await stack.refresh({ color: "never" });
    const remaining = new Set((await managed()).map((r) => r.urn));
    for (const r of roots) expect(remaining.has(r.urn)).toBe(false);

    await stack.up({ color: "never" });
    const rebuilt = await managed();
    expect(rebuilt.map((r) => r.urn).sort()).toEqual(resources.map((r) => r.urn).sort());
    const rebuiltCloud = await snapshots(rebuilt);
    for (const r of resources) expect({ urn: r.urn, cloud: rebuiltCloud.get(r.urn) }).toEqual({ urn: r.urn, cloud: before.get(r.urn) });
    await stack.preview({ refresh: true, expectNoChanges: true, color: "never" });
  });

  test("destroy leaves nothing in the local cloud", async () => {
    expect(await stackInventory()).not.toHaveLength(0);
    const res = await stack.destroy({ color: "never" });
    expect(res.summary.result).toBe("succeeded");
    expect(await stackInventory()).toEqual([]);
    expect(stateResources(await stack.exportStack()).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
  });
});
