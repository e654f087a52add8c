/**
 * BucketFolder through the real engine, on both doors (the dynamic class from a TypeScript program,
 * the native plugin from a YAML program): 300 files up; a preview with no changes; a deploy from a
 * fresh clone costs the listing only, and its one changed and one deleted file 1 PUT and 1 DELETE; one file changed,
 * one added, one removed is exactly 2 PUTs and 1 DELETE; a file changed behind Pulumi's back is
 * found by krcloud-drift with its key, and so is an object under the prefix the folder did not
 * upload; destroy leaves nothing. On the plugin door, the `import` option takes over a prefix
 * made outside Pulumi, and the same up uploads only what differs.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../local-cloud";
import {
  changedSteps,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  installNativePlugin,
  newProject,
  objectText,
  providerConfig,
  REPO_ROOT,
  Sandbox,
  startCloud,
  type CloudProject,
} from "../harness/engine";
import { resolveSettings } from "../../client/core";
import { ObjectStorageClient } from "../../client/objectstorage";
import { driftedPaths, parseReport, resourceNamed, runDrift } from "../support/drift";
import { spawnPulumi } from "../support/faults/reliability";
import { killedPulumi } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;

beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(async () => {
  await cloud?.close();
});

/** node_modules of the repository, except `pulumi-krcloud`, which is this checkout. */
function linkThisCheckout(programDir: string): void {
  const nm = path.join(programDir, "node_modules");
  const shared = fs.realpathSync(path.join(REPO_ROOT, "node_modules"));
  fs.rmSync(nm, { recursive: true, force: true });
  fs.mkdirSync(nm);
  for (const e of fs.readdirSync(shared)) if (e !== "pulumi-krcloud") fs.symlinkSync(path.join(shared, e), path.join(nm, e));
  fs.symlinkSync(REPO_ROOT, path.join(nm, "pulumi-krcloud"), "dir");
}

const cursor = () => cloud.control.requests().at(-1)?.seq ?? 0;
const operations = (since: number) =>
  cloud.control
    .requests(since)
    .filter((e) => e.service === "object-storage")
    .map((e) => e.operation);
const count = (ops: string[], op: string) => ops.filter((o) => o === op).length;

async function fault(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${cloud.controlUrl}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service: "object-storage", ...body }),
  });
  expect(res.status).toBe(201);
}
const clearFaults = async () => void (await fetch(`${cloud.controlUrl}/faults`, { method: "DELETE" }));

/** The folder's files as keys under `site/` with their MD5s. */
function folderContent(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of fs.readdirSync(folder, { recursive: true }) as string[]) {
    const file = path.join(folder, rel);
    if (fs.statSync(file).isFile()) out[`site/${rel.split(path.sep).join("/")}`] = createHash("md5").update(fs.readFileSync(file)).digest("hex");
  }
  return out;
}

/** The bucket's objects under `site/` with their ETags, from the JSON listing. */
async function bucketContent(project: CloudProject, bucket: string): Promise<Record<string, string>> {
  const res = await fetch(`${project.cloud.url}/object-storage/v1/${project.projectId}/${bucket}?format=json&prefix=site/`, {
    headers: { "x-auth-token": project.token },
  });
  expect(res.status).toBe(200);
  const list = (await res.json()) as { name: string; hash: string }[];
  return Object.fromEntries(list.map((o) => [o.name, o.hash]));
}

describe.each([
  ["dynamic", "bucket-folder"],
  ["native", "bucket-folder-yaml"],
])("the %s door", (door, program) => {
  let sandbox: Sandbox;
  let project: CloudProject;
  let stack: Stack;
  let dir: string;
  let folder: string;
  let bucket: string;

  beforeAll(async () => {
    sandbox = new Sandbox({ label: `bucket-folder-${door}` });
    project = await newProject(cloud, `folder${door}`);
    if (door === "native") await installNativePlugin(sandbox);
    dir = sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", program));
    if (door === "dynamic") linkThisCheckout(dir);
    folder = path.join(sandbox.root, "content");
    for (let i = 0; i < 300; i++) {
      fs.mkdirSync(path.join(folder, `d${i % 10}`), { recursive: true });
      fs.writeFileSync(path.join(folder, `d${i % 10}`, `f${i}.txt`), `file ${i}\n`.repeat(1 + (i % 7)));
    }
    stack = await sandbox.createStack(dir, "folder", providerConfig(project, { [`krcloud-test-${program}:folder`]: { value: folder } }));
  });
  afterAll(() => sandbox?.cleanup());

  /** An up of the stack: the file count it outputs and how many PUTs and DELETEs it sent. */
  async function upWrites(): Promise<{ fileCount: unknown; putsDeletes: number[] }> {
    const since = cursor();
    const up = await stack.up({ color: "never" });
    const ops = operations(since);
    return { fileCount: up.outputs.fileCount!.value, putsDeletes: [count(ops, "PutObject"), count(ops, "DeleteObject")] };
  }

  test("300 files up, then a preview with no changes", async () => {
    const since = cursor();
    const up = await stack.up({ color: "never" });
    expect(up.outputs.fileCount!.value).toBe(300);
    bucket = up.outputs.bucketName!.value as string;
    expect(count(operations(since), "PutObject")).toBe(300);
    expect(await objectText(project, bucket, "site/d3/f13.txt")).toBe("file 13\n".repeat(7));
    const quiet = eventCollector();
    await stack.preview({ color: "never", onEvent: quiet.onEvent, expectNoChanges: true } as never);
    expect(changedSteps(quiet.events)).toEqual([]);
  });

  test("a deploy from a fresh clone (another path, new file times, no hash cache): the listing only, no PUT, each file hashed once; then one file changed and one deleted: exactly 1 PUT and 1 DELETE", async () => {
    // A clone: the same files at another path, each a new inode with a new time, and no hash cache.
    const clone = path.join(sandbox.root, `clone-${door}`);
    fs.cpSync(folder, clone, { recursive: true });
    const cache = fs.mkdtempSync(path.join(sandbox.root, "hashes-"));
    const env = (stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
    env.KRCLOUD_FOLDER_HASH_CACHE = cache;
    try {
      await stack.setConfig(`krcloud-test-${program}:folder`, { value: clone });
      const since = cursor();
      const up = await stack.up({ color: "never" });
      expect(up.outputs.fileCount!.value).toBe(300);
      const ops = operations(since);
      // One listing page (300 keys; 1,000 a page) and, once per provider process, the HEAD of the
      // account that checks the token is the project's: never a request per file.
      expect(count(ops, "ListObjects")).toBe(1);
      expect(ops.filter((o) => o !== "ListObjects" && o !== "HeadAccount")).toEqual([]);
      expect(count(ops, "HeadAccount")).toBeLessThanOrEqual(1);
      // Every file was hashed and its hash kept for the next process (which then reads none).
      const [saved] = fs.readdirSync(cache);
      expect(Object.keys((JSON.parse(fs.readFileSync(path.join(cache, saved!), "utf8")) as { files: object }).files)).toHaveLength(300);

      fs.writeFileSync(path.join(clone, "d5", "f5.txt"), "changed in the clone\n");
      fs.rmSync(path.join(clone, "d6", "f6.txt"));
      expect(await upWrites()).toEqual({ fileCount: 299, putsDeletes: [1, 1] });
      expect(await objectText(project, bucket, "site/d5/f5.txt")).toBe("changed in the clone\n");
    } finally {
      delete env.KRCLOUD_FOLDER_HASH_CACHE;
      await stack.setConfig(`krcloud-test-${program}:folder`, { value: folder });
    }
    // Back to the first folder (its two files go up again), as the next tests expect.
    await stack.up({ color: "never" });
  });

  test("one file changed, one added, one removed: exactly 2 PUTs and 1 DELETE; on the plugin door, preview --diff names the folder and its files", async () => {
    fs.writeFileSync(path.join(folder, "d1", "f1.txt"), "changed\n");
    fs.writeFileSync(path.join(folder, "d1", "new.txt"), "added\n");
    fs.rmSync(path.join(folder, "d2", "f2.txt"));
    if (door === "native") {
      // `--diff` prints the plugin's note on stderr as a bare line outside the resource's block: it names the folder.
      const diffed = await stack.preview({ color: "never", diff: true });
      expect(diffed.stdout).toMatch(/~ manifestDigest\s*: "sha256:/);
      expect(diffed.stderr).toContain(
        `folder "${bucket}/site/": 3 files differ (1 changed, 1 added, 1 removed): ~site/d1/f1.txt, +site/d1/new.txt, -site/d2/f2.txt`,
      );
    }
    expect(await upWrites()).toEqual({ fileCount: 300, putsDeletes: [2, 1] });
    expect(await objectText(project, bucket, "site/d1/f1.txt")).toBe("changed\n");
  });

  test("a file changed behind Pulumi's back, and an object added under the prefix, are drift krcloud-drift reports by key", async () => {
    const put = (key: string, body: string) =>
      fetch(`${project.cloud.url}/object-storage/v1/${project.projectId}/${bucket}/${key}`, {
        method: "PUT",
        headers: { "x-auth-token": project.token, "content-type": "text/plain" },
        body,
      });
    expect((await put("site/d4/f4.txt", "defaced\n")).status).toBe(201);
    expect((await put("site/extra.txt", "not the folder's\n")).status).toBe(201);
    const out = path.join(sandbox.root, `drift-${door}.json`);
    const r = await runDrift(sandbox, ["--cwd", dir, "--stack", "folder", "--out", `json=${out}`]);
    expect({ code: r.code, stderr: r.stderr, stdout: r.code === 2 ? "" : r.stdout }).toEqual({ code: 2, stderr: "", stdout: "" });
    const report = parseReport(fs.readFileSync(out, "utf8"));
    // The engine compares the manifest's digest; the keys come from the refreshed outputs.
    expect(
      driftedPaths(resourceNamed(report.stacks[0], "content"))
        .map((p) => p[0])
        .sort(),
    ).toEqual(['extraObjects["site/extra.txt"]', "manifestDigest", 'manifest["site/d4/f4.txt"]']);
    // The next up puts the file back (one PUT) and leaves the object it did not upload.
    const since = cursor();
    await stack.up({ color: "never", refresh: true });
    expect([count(operations(since), "PutObject"), count(operations(since), "DeleteObject")]).toEqual([1, 0]);
    expect(await objectText(project, bucket, "site/d4/f4.txt")).toBe("file 4\n".repeat(5));
    expect(await objectText(project, bucket, "site/extra.txt")).toBe("not the folder's\n");
    const del = await fetch(`${project.cloud.url}/object-storage/v1/${project.projectId}/${bucket}/site/extra.txt`, {
      method: "DELETE",
      headers: { "x-auth-token": project.token },
    });
    expect(del.status).toBe(204);
  });

  test("destroy leaves nothing", async () => {
    await stack.destroy({ color: "never" });
    expect(await project.control.inventory(project.projectId)).toEqual([]);
  });

  test("a lost answer on an upload, then a CLI killed in the middle of a create, then up: the bucket's content equals the folder", async () => {
    await fault({ operation: "PutObject", action: "lose-response", times: 1 });
    const up = await stack.up({ color: "never" });
    bucket = up.outputs.bucketName!.value as string;
    expect(await bucketContent(project, bucket)).toEqual(folderContent(folder));
    await clearFaults();
    await stack.destroy({ color: "never" });

    // Slow uploads, so that the CLI is killed with the folder's create half done.
    await fault({ operation: "PutObject", action: "latency", latencyMs: 150 });
    const start = cursor();
    await killedPulumi(
      sandbox,
      ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "folder"],
      dir,
      "the folder's uploads are under way",
      async () => count(operations(start), "PutObject") >= 40,
    );
    await clearFaults();
    const uploadedBeforeKill = count(operations(start), "PutObject");
    expect(uploadedBeforeKill).toBeLessThan(300);
    await runPulumiCancel();
    const since = cursor();
    const again = await stack.up({ color: "never" });
    bucket = again.outputs.bucketName!.value as string;
    expect(await bucketContent(project, bucket)).toEqual(folderContent(folder));
    // What the killed run uploaded (it carries this stack's marker and the same hash) is not uploaded again.
    expect(count(operations(since), "PutObject")).toBeLessThanOrEqual(300 - uploadedBeforeKill + 16);
    await stack.destroy({ color: "never" });
    expect(await project.control.inventory(project.projectId)).toEqual([]);
  });

  async function runPulumiCancel(): Promise<void> {
    const r = spawnPulumi(sandbox, ["cancel", "--yes", "--stack", "folder"], dir);
    await r.done;
  }
});

describe("the import option on the plugin door", () => {
  let sandbox: Sandbox;
  let project: CloudProject;

  beforeAll(async () => {
    sandbox = new Sandbox({ label: "bucket-folder-import" });
    project = await newProject(cloud, "folderimport");
    await installNativePlugin(sandbox);
  });
  afterAll(() => sandbox?.cleanup());

  test("takes over a prefix made outside Pulumi and uploads only what differs; then a preview shows no changes", async () => {
    const sdk = new ObjectStorageClient({
      settings: resolveSettings({ localCloudUrl: project.cloud.url, authToken: project.token, projectId: project.projectId }),
    });
    const bucket = `imported-${project.projectId.slice(-8)}`;
    await sdk.createBucket({ name: bucket });
    for (const [k, body] of Object.entries({ "site/same.txt": "same\n", "site/old.txt": "old\n", "site/gone.txt": "gone\n" }))
      await sdk.putObject(bucket, k, body, { contentType: "text/plain" });
    const folder = path.join(sandbox.root, "content");
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "same.txt"), "same\n");
    fs.writeFileSync(path.join(folder, "old.txt"), "new\n");
    fs.writeFileSync(path.join(folder, "added.txt"), "added\n");
    // The `import` option of a YAML program takes a literal id only.
    const dir = path.join(sandbox.root, "program");
    fs.mkdirSync(dir);
    const program = {
      name: "krcloud-test-bucket-folder-import",
      runtime: "yaml",
      resources: {
        content: {
          type: "krcloud:objectstorage:BucketFolder",
          properties: { bucket, path: folder, prefix: "site/" },
          options: { import: `${bucket}/site/` },
        },
      },
      outputs: { fileCount: "${content.fileCount}" },
    };
    // JSON is YAML.
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify(program, null, 2));
    const stack = await sandbox.createStack(dir, "imported", providerConfig(project));

    // The engine imports (a read: the listing becomes the manifest), then updates what differs
    // from the program in the same up: only the changed and the added file go up, the one the
    // folder lacks is deleted.
    const since = cursor();
    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges).toEqual({ create: 1, import: 1, update: 1 });
    expect(up.outputs.fileCount!.value).toBe(3);
    const ops = operations(since);
    expect([count(ops, "PutObject"), count(ops, "DeleteObject")]).toEqual([2, 1]);
    expect(await bucketContent(project, bucket)).toEqual(folderContent(folder));
    const quiet = eventCollector();
    await stack.preview({ color: "never", onEvent: quiet.onEvent, expectNoChanges: true } as never);
    expect(changedSteps(quiet.events)).toEqual([]);

    await stack.destroy({ color: "never" });
    expect((await sdk.listObjects(bucket)).entries).toEqual([]);
    await sdk.deleteBucket(bucket);
  });
});
