/**
 * krcloud-drift on an object the folder did not upload (issue 38 item 5): every remedy line the
 * report prints is run as the user would (the program change it names, then its command), and the
 * next check exits 0. A BucketFolder from JavaScript (the dynamic classes), a StaticSite's folder
 * from YAML (the plugin: the program declares the site, not the folder).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { ResourceResult } from "../../drift/model";
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

/** The drift check of `stack`: its exit code and the row of the folder named `name`. */
async function check(dir: string, stack: string, name: string): Promise<{ code: number; row: ResourceResult }> {
  const out = path.join(engine.sandbox.root, `drift-${stack}-${Date.now()}.json`);
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", stack, "--out", `json=${out}`]);
  expect(r.stderr).toBe("");
  return { code: r.code, row: resourceNamed(parseReport(fs.readFileSync(out, "utf8")).stacks[0], name) };
}

/** Runs the command a remedy line ends with, unattended. */
async function runCommand(line: string): Promise<void> {
  const command = line.includes("; then: ") ? line.slice(line.lastIndexOf("; then: ") + "; then: ".length) : line;
  expect(command).toMatch(/^pulumi (up|refresh) /);
  await promisify(execFile)("bash", ["-c", `${command} --yes --non-interactive --skip-preview`], { env: { ...process.env, ...engine.sandbox.env() } });
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
  await engine.destroyLeavesNothing(o.stack);
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
});

test("a StaticSite (YAML, the plugin): the lines name the site the program declares, and each makes the next check pass", async () => {
  const yaml = (s: { exclude: string[]; deleteExtraObjects: boolean }) =>
    [
      "name: krcloud-test-site-remedies",
      "runtime: yaml",
      "resources:",
      "  www:",
      "    type: krcloud:objectstorage:StaticSite",
      `    properties: { path: site, exclude: ${JSON.stringify(s.exclude)}, deleteExtraObjects: ${s.deleteExtraObjects} }`,
      "outputs:",
      "  bucketName: ${www.bucketName}",
      "",
    ].join("\n");
  const files: Record<string, string> = { "Pulumi.yaml": yaml({ exclude: [], deleteExtraObjects: false }) };
  for (const [rel, body] of Object.entries(FILES)) files[`site/${rel}`] = body;
  const dir = engine.program("site-remedies", files);
  const stack = await engine.stack(dir, "site-remedies");
  await strayCycle({
    dir,
    stack,
    name: "www-content",
    owner: 'the StaticSite "www"',
    prefix: "",
    change: async (s) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml(s)),
  });
});
