/**
 * krcloud-drift on an object the folder did not upload (issue 38 item 5): every remedy line the
 * report prints is run as the user would (the program change it names, then its command), and the
 * next check exits 0. A BucketFolder from JavaScript (the dynamic classes), a StaticSite's folder
 * from YAML (the plugin: the program declares the site, not the folder). On the site also its other
 * children, which the program never declares either: drift of its bucket, CORS policy and log rule
 * is accepted by the site's inputs the lines name, or by the ignore rules they give, and reverted by
 * their targeted `up`s.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { resolveSettings } from "../../client/core";
import { ObjectStorageClient } from "../../client/objectstorage";
import { IGNORE_FILE } from "../../drift/ignore";
import type { ResourceResult, StackReport } from "../../drift/model";
import { ENGINE_TEST_TIMEOUT_MS } from "../harness/engine";
import { parseReport, resourceNamed, runDrift } from "../support/drift";
import { engineFile, jsProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "folder-remedies", project: "remedies", yaml: true, plugin: true });

const FILES = { "index.html": "<h1>hi</h1>\n", "app.js": "1\n", "css/site.css": "h1{}\n" };

async function put(bucket: string, key: string, body: string): Promise<void> {
  const res = await fetch(`${engine.cloud.url}/object-storage/v1/${engine.project.projectId}/${bucket}/${key}`, {
    method: "PUT",
    headers: { "x-auth-token": engine.project.token, "content-type": "text/plain" },
    body,
  });
  expect(res.status).toBe(201);
}

async function keys(bucket: string): Promise<string[]> {
  const res = await fetch(`${engine.cloud.url}/object-storage/v1/${engine.project.projectId}/${bucket}?format=json`, {
    headers: { "x-auth-token": engine.project.token },
  });
  return ((await res.json()) as { name: string }[]).map((o) => o.name).sort();
}

let checks = 0;
/** The drift check of `stack`: its exit code, the row of the resource named `name`, and the report. */
async function check(dir: string, stack: string, name: string): Promise<{ code: number; row: ResourceResult; report: StackReport }> {
  const out = path.join(engine.sandbox.root, `drift-${stack}-${++checks}.json`);
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", stack, "--out", `json=${out}`]);
  expect(r.stderr).toBe("");
  const report = parseReport(fs.readFileSync(out, "utf8")).stacks[0]!;
  return { code: r.code, row: resourceNamed(report, name), report };
}

/** Runs the command a remedy line ends with, unattended. */
async function runCommand(line: string): Promise<void> {
  const command = line.includes("; then: ") ? line.slice(line.lastIndexOf("; then: ") + "; then: ".length) : line;
  expect(command).toMatch(/^pulumi (up|refresh) /);
  await promisify(execFile)("bash", ["-c", `${command} --yes --non-interactive --skip-preview`], { env: { ...process.env, ...engine.sandbox.env() } });
}

/** Does what an accept line that gives ignore rules says: each rule into the project's ignore file. */
function writeIgnoreRules(dir: string, lines: string[]): void {
  const items = lines.flatMap((l) =>
    [...l.matchAll(/add to \.krcloud-driftignore beside Pulumi\.yaml \(or the file --ignore-file names\), under rules: - (\{.*?\})(?=\. |$)/g)].map(
      (m) => `  - ${m[1]}`,
    ),
  );
  expect(items).toHaveLength(lines.length);
  fs.writeFileSync(path.join(dir, IGNORE_FILE), `rules:\n${items.join("\n")}\n`);
}

/**
 * The cycle each door goes through: a stray object is drift; its accept line (exclude it) makes
 * the next check pass and leaves it; a second stray's revert line (deleteExtraObjects) makes the next
 * check pass and deletes it. `change` applies the program change a line names.
 */
async function strayCycle(o: {
  dir: string;
  stack: Stack;
  name: string;
  owner: string;
  prefix: string;
  change: (settings: { exclude: string[]; deleteExtraObjects: boolean }) => Promise<void>;
}): Promise<void> {
  const up = await o.stack.up({ color: "never" });
  const bucket = up.outputs.bucketName!.value as string;
  const stackName = o.stack.name;
  await put(bucket, `${o.prefix}extra.txt`, "not the folder's\n");
  const first = await check(o.dir, stackName, o.name);
  expect(first.code).toBe(2);
  expect(first.row.properties.map((p) => p.path)).toEqual([`extraObjects["${o.prefix}extra.txt"]`]);
  const accept = first.row.fix!.accept;
  expect(accept).toBe(
    `in the program, add "extra.txt" to the exclude of ${o.owner} (keys it leaves out are not the folder's); then: ${first.row.fix!.revert.split("; then: ").pop()}`,
  );
  await o.change({ exclude: ["extra.txt"], deleteExtraObjects: false });
  await runCommand(accept);
  expect((await check(o.dir, stackName, o.name)).code).toBe(0);
  expect(await keys(bucket)).toContain(`${o.prefix}extra.txt`);

  await put(bucket, `${o.prefix}stray.txt`, "stray\n");
  const second = await check(o.dir, stackName, o.name);
  expect(second.code).toBe(2);
  const revert = second.row.fix!.revert;
  expect(revert).toMatch(
    new RegExp(
      `^in the program, set deleteExtraObjects: true on ${o.owner.replace(/[()"]/g, "\\$&")} \\(only that option deletes .*"${o.prefix}stray.txt"\\); then: pulumi up `,
    ),
  );
  await o.change({ exclude: ["extra.txt"], deleteExtraObjects: true });
  await runCommand(revert);
  expect((await check(o.dir, stackName, o.name)).code).toBe(0);
  const left = await keys(bucket);
  expect(left).not.toContain(`${o.prefix}stray.txt`);
  expect(left).toContain(`${o.prefix}extra.txt`);
}

test("a BucketFolder (JavaScript, dynamic classes): a stray's accept and revert lines each make the next check pass", async () => {
  const folder = path.join(engine.sandbox.root, "content");
  for (const [rel, body] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), body);
  }
  const project = "krcloud-test-folder-remedies";
  const dir = engine.program(
    "folder-remedies",
    jsProgram(
      project,
      [
        "const config = new pulumi.Config();",
        'const bucket = new krcloud.objectstorage.Bucket("files", { forceDestroy: true });',
        'new krcloud.objectstorage.BucketFolder("content", { bucket: bucket.name, path: config.require("folder"), prefix: "site/", exclude: config.getObject("exclude") ?? [], deleteExtraObjects: config.getBoolean("deleteExtraObjects") ?? false });',
        "exports.bucketName = bucket.name;",
      ],
      { pulumi: true },
    ),
  );
  const stack = await engine.stack(dir, "folder-remedies", { [`${project}:folder`]: { value: folder } });
  await strayCycle({
    dir,
    stack,
    name: "content",
    owner: '"content"',
    prefix: "site/",
    change: async (s) => {
      await stack.setConfig(`${project}:exclude`, { value: JSON.stringify(s.exclude) });
      await stack.setConfig(`${project}:deleteExtraObjects`, { value: String(s.deleteExtraObjects) });
    },
  });
  await engine.destroyLeavesNothing(stack);
});

test("a StaticSite (YAML, the plugin): the lines name the site the program declares, and each makes the next check pass; so do those of its bucket, CORS policy and log rule", async () => {
  /** The site's properties the program declares; the remedies change them. */
  const site: Record<string, unknown> = { path: "site", exclude: [], deleteExtraObjects: false };
  const yaml = () =>
    [
      "name: krcloud-test-site-remedies",
      "runtime: yaml",
      "resources:",
      "  www:",
      "    type: krcloud:objectstorage:StaticSite",
      `    properties: ${JSON.stringify(site)}`,
      "outputs:",
      "  bucketName: ${www.bucketName}",
      "",
    ].join("\n");
  const files: Record<string, string> = { "Pulumi.yaml": yaml() };
  for (const [rel, body] of Object.entries(FILES)) files[`site/${rel}`] = body;
  const dir = engine.program("site-remedies", files);
  const stack = await engine.stack(dir, "site-remedies");
  await strayCycle({
    dir,
    stack,
    name: "www-content",
    owner: 'the StaticSite "www"',
    prefix: "",
    change: async (s) => {
      Object.assign(site, s);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml());
    },
  });
  await siteChildrenCycle(dir, stack, async (inputs) => {
    Object.assign(site, inputs);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml());
  });
  await engine.destroyLeavesNothing(stack);
});

/**
 * The site's bucket, CORS policy and log rule changed behind Pulumi's back. Accept lines: the
 * policy and the rule by the site's inputs they name (set in the program), the private bucket by
 * the ignore rule its line gives (no input keeps it); then each revert line (the targeted up) and,
 * for the log rule deleted, its accept line (the ignore rule of the deletion) and its revert line.
 * After each, the next check exits 0.
 */
async function siteChildrenCycle(dir: string, stack: Stack, set: (inputs: Record<string, unknown>) => Promise<void>): Promise<void> {
  const bucket = (await stack.outputs()).bucketName!.value as string;
  const c = new ObjectStorageClient({
    settings: resolveSettings({ localCloudUrl: engine.cloud.url, authToken: engine.project.token, projectId: engine.project.projectId }),
  });
  const cors = [{ allowedOrigins: ["https://example.com"], allowedMethods: ["GET" as const, "PUT" as const] }];
  await c.updateBucketAcl(bucket, { public: "deny" });
  await c.putCors(bucket, cors);
  await c.putLifecycle(bucket, [{ id: "expire-logs", prefix: "logs/", status: "Enabled", days: 7 }]);
  const drifted = await check(dir, stack.name, "www");
  expect(drifted.code).toBe(2);
  const row = (name: string) => resourceNamed(drifted.report, name);
  // Never a line that sets a child's input: the program declares the site only.
  for (const name of ["www", "www-cors", "www-logs"]) expect(row(name).fix!.accept).not.toMatch(new RegExp(`set "?${name}"?'s`));
  // The site's inputs each line names, with their values (JSON), as the user writes them.
  const accepted: Record<string, unknown> = {};
  for (const name of ["www-cors", "www-logs"]) {
    const m = /^in the program, set the StaticSite "www"'s (.*)$/.exec(row(name).fix!.accept);
    expect(m).not.toBeNull();
    for (const part of m![1]!.split(/; (?=[A-Za-z]+: )/)) accepted[part.slice(0, part.indexOf(": "))] = JSON.parse(part.slice(part.indexOf(": ") + 2));
  }
  expect(accepted).toEqual({ corsRules: cors, logPrefix: "logs/", logExpirationDays: 7 });
  await set(accepted);
  writeIgnoreRules(dir, [row("www").fix!.accept]);
  const kept = await check(dir, stack.name, "www");
  expect(kept.code).toBe(0);
  expect(kept.row.status).toBe("drifted");
  expect(kept.row.properties.every((p) => p.disposition === "ignored")).toBe(true);

  // The bucket's revert (the ignore rule gone), and a deleted log rule.
  fs.rmSync(path.join(dir, IGNORE_FILE));
  await runCommand(row("www").fix!.revert);
  expect((await c.getBucket(bucket)).acl?.public).toBe("read-only");
  await c.deleteLifecycle(bucket);
  const deleted = await check(dir, stack.name, "www-logs");
  expect(deleted.code).toBe(2);
  expect(resourceNamed(deleted.report, "www").status).toBe("clean");
  expect(deleted.row.status).toBe("deleted");
  writeIgnoreRules(dir, [deleted.row.fix!.accept]);
  expect((await check(dir, stack.name, "www-logs")).code).toBe(0);
  fs.rmSync(path.join(dir, IGNORE_FILE));
  await runCommand(deleted.row.fix!.revert);
  expect((await check(dir, stack.name, "www-logs")).code).toBe(0);
  expect(await c.getLifecycle(bucket)).toEqual([{ id: "expire-logs", prefix: "logs/", status: "Enabled", days: 7 }]);
}
