/**
 * The console and the drift report's page in a real browser (headless Chromium driven by
 * playwright-core: tests/support/browser.ts), after the stacks `make demo` makes are up (its three
 * examples, in one project of an in-process local cloud, through the real Pulumi CLI). Each test
 * checks the page through its DOM (what is there, what is visible, what a click does) and saves a
 * screenshot under .state/browser/.
 *
 * In order, on the same stacks: the console lists every resource with the state the control API
 * shows; a fault switched on in the console fails the next matching request as the control API's
 * own faults do, and the request log shows it; markup in names and metadata stays text, large
 * contents come page by page; drift planted behind Pulumi's back shows in krcloud-drift's HTML
 * report, for one stack and for the three together, and the report's filters and sorting work.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { Locator, Page } from "playwright-core";
import { FORMATS } from "../../drift/formats";
import { exitCodeOf, overallStatus, type DriftReport } from "../../drift/model";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import {
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  engineType,
  exampleStack,
  newProject,
  Sandbox,
  startCloud,
  stateResources,
  type CloudProject,
  type StateResource,
} from "../harness/engine";
import { recipeFor } from "../resources";
import { launchBrowser, screenshot, type Browser } from "../support/browser";
import { runDrift } from "../support/drift";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const DEMO = ["static-site", "cache", "data-pipeline"];
const examples = discoverExamples().filter((e) => DEMO.includes(e.name));

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let browser: Browser;
const stacks = new Map<string, { stack: Stack; dir: string; name: string }>();

const css = (value: string) => JSON.stringify(value);
const item = (page: Page, kind: string, id: string) => page.locator(`li[data-kind=${css(kind)}][data-id=${css(id)}]`);
const line = (page: Page, kind: string, id: string) => item(page, kind, id).locator(":scope > .line");
const consoleAt = (hash: string) => `${cloud.url}/_console/#project=${encodeURIComponent(project.projectId)}&${hash}`;
async function resources(name: string): Promise<StateResource[]> {
  return stateResources(await stacks.get(name)!.stack.exportStack());
}
async function output(name: string, key: string): Promise<unknown> {
  return (await stacks.get(name)!.stack.outputs())[key]?.value;
}
const objectUrl = (bucket: string, key: string) => `${cloud.endpoints["object-storage"]}/v1/${project.projectId}/${bucket}/${encodeURIComponent(key)}`;
/** A control API answer as JSON. */
async function controlGet<T>(route: string): Promise<T> {
  return (await (await fetch(`${cloud.controlUrl}${route}`)).json()) as T;
}
/** Sets the form's fields in order (a select's option, an input's text), then submits it. */
async function submit(form: Locator, fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const field = form.locator(`select[name=${name}], input[name=${name}]`);
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  await form.locator("button[type=submit]").click();
}
const putObject = (bucket: string, key: string, body: string, headers: Record<string, string> = {}) =>
  fetch(objectUrl(bucket, key), { method: "PUT", headers: { "X-Auth-Token": project.token, "content-type": "text/plain", ...headers }, body });

beforeAll(async () => {
  expect(examples.map((e) => e.name).sort()).toEqual([...DEMO].sort());
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "browser" });
  project = await newProject(cloud, "console");
  for (const example of examples) {
    const name = `demo-${example.name}`;
    const { stack, dir } = await exampleStack(sandbox, project, example, name, { dbPassword: { value: "browser-test", secret: true } });
    stacks.set(example.name, { stack, dir, name });
  }
  // As make demo does: the three ups at once.
  await Promise.all([...stacks.values()].map(({ stack }) => stack.up({ color: "never" })));
  browser = await launchBrowser();
}, 2 * ENGINE_TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.close();
  sandbox?.cleanup();
});

afterEach(() => expect(browser?.errors ?? []).toEqual([]));

test("the console lists every resource of the demo's stacks, with the state and the raw record the control API shows", async () => {
  const page = await browser.page();
  await page.goto(consoleAt("tab=resources"));
  await page.locator(".service").first().waitFor();

  // Everything the inventory lists is in the tree.
  const inventory = await project.control.inventory(project.projectId);
  expect(inventory.length).toBeGreaterThan(10);
  for (const e of inventory) expect(`${e.kind} ${e.id}: ${await item(page, e.kind, e.id).count()}`).toBe(`${e.kind} ${e.id}: 1`);

  // The site's bucket opens onto its objects; its record is the control API's.
  const bucket = String(await output("static-site", "bucketName"));
  await line(page, "bucket", bucket).click();
  await item(page, "bucket", bucket).locator("li[data-kind=group][data-id=objects] > .line").click();
  await expect(line(page, "object", `${bucket}/index.html`).isVisible()).resolves.toBe(true);
  expect(await line(page, "object", `${bucket}/index.html`).locator("[data-fact=type]").textContent()).toBe("type: text/html");
  await line(page, "bucket", bucket).locator(".label").click();
  await page.locator(`pre.record[data-record=${css(bucket)}]`).waitFor();
  expect(JSON.parse((await page.locator("pre.record").textContent())!)).toEqual(await project.control.getResource("object-storage", "bucket", bucket));

  // Cache: the cluster's shards and nodes, the instance set's instances, with their roles and states.
  for (const [kind, child] of [
    ["cluster", "node"],
    ["instance-set", "instance"],
  ] as const) {
    const entry = inventory.find((e) => e.kind === kind)!;
    const record = (await project.control.getResource("cache", kind, entry.id))!;
    expect(record.status).toBe("Running");
    expect(await item(page, kind, entry.id).getAttribute("data-status")).toBe("Running");
    const children = item(page, kind, entry.id).locator(`li[data-kind=${child}]`);
    expect(await children.count()).toBe(record.totalNodeCount);
    expect(new Set(await children.evaluateAll((els) => els.map((el) => el.getAttribute("data-status"))))).toEqual(new Set(["Running"]));
    const roles = await children.locator("[data-fact=role]").allTextContents();
    expect(roles.filter((r) => r === "role: primary")).toHaveLength(kind === "cluster" ? Number(record.shardCount) : 1);
  }

  // Data query: the query finished, its rows page in; the Hadoop job cluster with its status.
  const query = page.locator("li[data-kind=query]");
  expect(await query.getAttribute("data-status")).toBe("FINISHED");
  await query.locator(":scope > .line").click();
  await page.locator("table.rows tbody tr").first().waitFor();
  expect(await page.locator("table.rows tbody tr td:first-child").allTextContents()).toEqual(["kr-central", "kr-south", "jp-east"]);
  const hadoop = (await resources("data-pipeline")).find((r) => r.type === engineType("krcloud:hadoop:Cluster"))!;
  const hadoopRecord = (await project.control.getResource("hadoop", "cluster", hadoop.id!))!;
  expect(await item(page, "cluster", hadoop.id!).getAttribute("data-status")).toBe(hadoopRecord.status);
  await screenshot(page, "console-resources");

  // The README's picture: the cluster opened onto its shards and a node's record.
  const cluster = inventory.find((e) => e.kind === "cluster")!;
  await line(page, "group", "queries").click();
  await line(page, "cluster", cluster.id).click();
  await item(page, "cluster", cluster.id).locator("li[data-kind=shard] > .line").first().click();
  await item(page, "cluster", cluster.id).locator("li[data-kind=node][data-status=Running] > .line").first().click();
  await page.locator("pre.record").waitFor();
  await screenshot(page, "console");
  await page.close();
});

test("a fault switched on in the console fails the next matching request as the control API's own would; the request log shows it", async () => {
  const bucket = String(await output("static-site", "bucketName"));
  const page = await browser.page();
  await page.goto(consoleAt("tab=faults"));
  const form = page.locator("form.add-fault");
  await submit(form, { service: "object-storage", operation: "PutObject", action: "error-500" });
  await page.locator("table.fault-list tbody tr").waitFor();
  const [fault] = (await controlGet<{ faults: Array<{ id: string }> }>("/faults")).faults;
  expect(fault!).toMatchObject({ service: "object-storage", operation: "PutObject", action: "error", status: 500, times: 1, remaining: 1 });
  expect(await page.locator(`tr[data-fault=${css(fault!.id)}]`).isVisible()).toBe(true);

  // The next PutObject fails as a fault of the control API answers (status, Swift text body), and is not applied.
  const failed = await putObject(bucket, "faulted.txt", "x");
  expect({ status: failed.status, body: await failed.text() }).toEqual({ status: 500, body: `Injected fault ${fault!.id}.\n` });
  expect(await project.control.getResource("object-storage", "object", `${bucket}/faulted.txt`)).toBeUndefined();
  const direct = (await (
    await fetch(`${cloud.controlUrl}/faults`, {
      method: "POST",
      body: JSON.stringify({ service: "object-storage", operation: "PutObject", action: "error", status: 500, times: 1 }),
    })
  ).json()) as { id: string };
  const again = await putObject(bucket, "faulted.txt", "x");
  expect({ status: again.status, body: await again.text() }).toEqual({ status: 500, body: `Injected fault ${direct.id}.\n` });
  expect((await putObject(bucket, "faulted.txt", "x")).status).toBe(201);

  // A lost answer: the request is applied, the connection closes without one.
  await submit(form, { operation: "PutObject", action: "lose-response" });
  // The list shows the new fault once the control API has it (the two before it are spent).
  await page.locator("table.fault-list tbody tr td", { hasText: "lose-response" }).waitFor();
  await expect(putObject(bucket, "lost.txt", "applied")).rejects.toThrow();
  expect(await project.control.getResource("object-storage", "object", `${bucket}/lost.txt`)).toMatchObject({ bytes: 7 });
  await screenshot(page, "console-faults");

  await page.goto(consoleAt("tab=requests"));
  await page.locator("tr[data-fault=lose-response]").waitFor();
  expect(await page.locator("tr[data-fault=error][data-status='500']").count()).toBe(2);
  await page.locator("select[name=outcome]").selectOption("faulted");
  const shown = page.locator("table.log tbody tr");
  expect(await shown.evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-fault")} ${r.getAttribute("data-status")}`))).toEqual([
    "lose-response 201",
    "error 500",
    "error 500",
  ]);
  expect(await shown.first().locator("td").nth(5).textContent()).toBe("PutObject");
  await screenshot(page, "console-requests");
  await page.close();
});

test("a transition set in the console slows what it names until it is made immediate again", async () => {
  const page = await browser.page();
  await page.goto(consoleAt("tab=faults"));
  const form = page.locator("form.set-transition");
  await submit(form, { service: "cache", kind: "cluster", mode: "duration", amount: "90" });
  await page.locator("tr[data-transition='cache/cluster']").waitFor();
  expect((await controlGet<{ transitions: unknown[] }>("/transitions")).transitions).toEqual([
    { service: "cache", kind: "cluster", mode: "duration", ms: 90_000 },
  ]);
  await page.locator("tr[data-transition='cache/cluster'] button").click();
  await page.locator("p.message.ok", { hasText: "cache cluster: immediate again." }).waitFor();
  expect((await controlGet<{ transitions: unknown[] }>("/transitions")).transitions).toEqual([{ service: "cache", kind: "cluster", mode: "immediate" }]);
  await page.close();
});

test("markup in a bucket's metadata and an object's key stays text; a large object and a long list come page by page; unknown projects and an empty cloud say so", async () => {
  const planted = "<script>window.__planted = 1</script>";
  const key = '<img src=x onerror="window.__planted = 2">.txt';
  expect(
    (
      await fetch(`${cloud.endpoints["object-storage"]}/v1_ext/bucket`, {
        method: "PUT",
        headers: { "X-Auth-Token": project.token, "content-type": "application/json" },
        body: JSON.stringify({ name: "markup", type: "STANDARD" }),
      })
    ).ok,
  ).toBe(true);
  await project.control.patchResource("object-storage", "bucket", "markup", { metadata: { note: planted } });
  expect((await putObject("markup", key, "0123456789".repeat(20_000))).status).toBe(201);
  for (let i = 0; i < 120; i++) expect((await putObject("markup", `n${String(i).padStart(3, "0")}`, "x")).status).toBe(201);

  const page = await browser.page();
  await page.goto(consoleAt("tab=resources"));
  await line(page, "bucket", "markup").locator(".label").click();
  await page.locator("pre.record[data-record=markup]").waitFor();
  expect(JSON.parse((await page.locator("pre.record").textContent())!).metadata).toEqual({ note: planted });
  await item(page, "bucket", "markup").locator("li[data-kind=group][data-id=objects] > .line").click();
  const object = line(page, "object", `markup/${key}`);
  expect(await object.locator(".label").textContent()).toBe(key);
  await object.click();
  const pager = page.locator(".preview .pager span");
  await pager.waitFor();
  expect(await pager.textContent()).toBe("bytes 0–65536 of 200000 (195 KiB)");
  await page.locator(".preview button", { hasText: "next" }).click();
  await page.locator(".preview .pager span", { hasText: "bytes 65536–131072" }).waitFor();
  expect(await page.evaluate(() => (globalThis as { __planted?: number }).__planted)).toBeUndefined();
  expect(await page.locator("script").count()).toBe(1);
  expect(await page.locator("img").count()).toBe(0);
  await screenshot(page, "console-markup");

  // 121 objects: the first 100, then the rest on demand.
  const objects = item(page, "bucket", "markup").locator("li[data-kind=object]");
  expect(await objects.count()).toBe(100);
  await item(page, "bucket", "markup").locator("button.more").click();
  await objects.nth(120).waitFor({ state: "attached" });
  expect(await objects.count()).toBe(121);
  expect(await objects.nth(120).getAttribute("data-id")).toBe("markup/n119");

  await page.goto(`${cloud.url}/_console/#project=no-such-project`);
  await page.locator("[data-empty=unknown-project]").waitFor();
  expect(await page.locator("[data-empty=unknown-project] li").allTextContents()).toContain(project.projectId);

  const empty = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  try {
    await page.goto(`${empty.url}/_console/`);
    await page.locator("[data-empty=cloud] h2").waitFor();
    expect(await page.locator("[data-empty=cloud] h2").textContent()).toBe("This local cloud has no project yet");
    await screenshot(page, "console-no-project");
  } finally {
    await page.close();
    await empty.close();
  }
});

test("drift planted behind Pulumi's back shows in the HTML report with its property diffs and remedies, per stack and for the three stacks; its filters and sorting work", async () => {
  // Drift: the site's bucket ACL and a defaced page, the cache cluster's description, the pipeline bucket's ACL.
  const planted: Array<{ stack: string; urn: string; paths: string[] }> = [];
  for (const [example, pick] of [
    ["static-site", (r: StateResource) => r.type === engineType("krcloud:objectstorage:Bucket") || r.urn.endsWith("::index.html")],
    ["cache", (r: StateResource) => r.type === engineType("krcloud:cache:Cluster")],
    ["data-pipeline", (r: StateResource) => r.type === engineType("krcloud:objectstorage:Bucket")],
  ] as const) {
    for (const r of (await resources(example)).filter(pick)) {
      planted.push({ stack: stacks.get(example)!.name, urn: r.urn, paths: await recipeFor(r.type)!.drift(project.control, r) });
    }
  }
  expect(planted).toHaveLength(4);

  const out = path.join(sandbox.root, "reports");
  const runs = await Promise.all(
    [...stacks.values()].map(({ dir, name }) =>
      runDrift(sandbox, ["--cwd", dir, "--stack", name, "--out", `json=${path.join(out, `${name}.json`)}`, "--out", `html=${path.join(out, `${name}.html`)}`]),
    ),
  );
  expect(runs.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(runs.map(() => ({ code: 2, stderr: "" })));
  const reports = [...stacks.values()].map(({ name }) => JSON.parse(fs.readFileSync(path.join(out, `${name}.json`), "utf8")) as DriftReport);

  // One stack's report, as krcloud-drift wrote it.
  const page = await browser.page();
  const site = stacks.get("static-site")!.name;
  await page.goto(`file://${path.join(out, `${site}.html`)}`);
  for (const p of planted.filter((x) => x.stack === site)) {
    const finding = page.locator(`article.finding`, { has: page.locator(`code`, { hasText: p.urn }) });
    expect(await finding.getAttribute("data-status")).toBe("drifted");
    const rows = await finding.locator("table.diff tbody tr td:first-child").allTextContents();
    for (const planted of p.paths) expect(rows.some((row) => row === planted || row.startsWith(`${planted}.`) || row.startsWith(`${planted}[`))).toBe(true);
    expect(await finding.locator("pre.revert").textContent()).toContain(`--target '${p.urn}'`);
  }
  const acl = page.locator("table.diff tbody tr", { has: page.locator("code", { hasText: /^acl\.public$/ }) });
  expect(await acl.locator("td.was").textContent()).toBe('"read-only"');
  expect(await acl.locator("td.now").textContent()).toBe('"deny"');
  await screenshot(page, "drift-report", true);

  // The three stacks in one report: filter by stack, by status and by text, sort by status.
  const stacksOf = reports.flatMap((r) => r.stacks);
  const fleet: DriftReport = { ...reports[0]!, stacks: stacksOf, status: overallStatus(stacksOf), exitCode: exitCodeOf(stacksOf, []), drift: true };
  const fleetFile = path.join(out, "fleet.html");
  fs.writeFileSync(fleetFile, FORMATS.html!(fleet));
  await page.goto(`file://${fleetFile}`);
  const visible = () =>
    page
      .locator("#resource-table tbody tr:not([hidden])")
      .evaluateAll((rows) => rows.map((r) => `${r.getAttribute("data-stack")} ${r.getAttribute("data-status")}`));
  const total = stacksOf.reduce((n, s) => n + s.resources.length, 0);
  expect(await visible()).toHaveLength(total);
  expect(await page.locator("#filters output").textContent()).toBe(`${total} of ${total} resources`);
  await screenshot(page, "drift-report-view");

  const cache = stacks.get("cache")!.name;
  await page.locator("#filters select[name=stack]").selectOption(cache);
  expect(new Set((await visible()).map((v) => v.split(" ")[0]))).toEqual(new Set([cache]));
  expect(await visible()).toHaveLength(stacksOf.find((s) => s.stack === cache)!.resources.length);
  expect(await page.locator("article.finding:not([hidden])").count()).toBe(1);

  await page.locator("#filters select[name=stack]").selectOption("");
  for (const status of ["deleted", "unreadable", "pending", "clean", "unverifiable"]) await page.locator(`#filters input[value=${status}]`).uncheck();
  const drifted = await visible();
  expect(drifted).toHaveLength(planted.length);
  expect(drifted.every((v) => v.endsWith(" drifted"))).toBe(true);
  expect(await page.locator("article.finding:not([hidden])").count()).toBe(planted.length);

  for (const status of ["clean", "unverifiable"]) await page.locator(`#filters input[value=${status}]`).check();
  await page.locator("#filters input[name=text]").fill("acl.public");
  expect(await visible()).toHaveLength(2);
  await page.locator("#filters input[name=text]").fill("");

  await page.locator("#resource-table th", { hasText: "status" }).click();
  expect((await visible())[0]).toMatch(/ drifted$/);
  await page.locator("#resource-table th", { hasText: "status" }).click();
  expect((await visible())[0]).toMatch(/ (unverifiable|clean)$/);
  await screenshot(page, "drift-fleet-report", true);
  await page.close();
});
