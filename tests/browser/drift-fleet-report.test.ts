/**
 * A merged fleet's HTML report with the policy pack's findings, in a real browser (headless
 * Chromium, tests/support/browser.ts): two shards' JSON reports (tests/support/drift/fleet-report.ts)
 * merged by `krcloud-drift merge --out html=FILE` as the CI recipes' fan-in jobs run it, then opened
 * from the file. The page's chart by stack, its stack filter (the select and a click on the chart),
 * the policy findings section, sorting by level, and markup in a resource's name shown as text; the
 * page makes no request beyond its own file. Screenshots: .state/browser/drift-fleet-policy.png (the whole page) and drift-fleet-filtered.png
 * (one stack; docs/images/drift-fleet-report.png).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { EXIT, type DriftReport } from "../../drift/model";
import { runNode } from "../harness/engine";
import { launchBrowser, screenshot, type Browser } from "../support/browser";
import { DRIFT_BIN } from "../support/drift";
import { FLEET_STACKS, FLEET_VIOLATIONS, fleetShard, MARKUP } from "../support/drift/fleet-report";

jest.setTimeout(120_000);

let browser: Browser;
let dir: string;
let page: Page;
let report: DriftReport;
const requests: string[] = [];
let url: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-fleet-html-"));
  const shards = [1, 2].map((i) => path.join(dir, `shard-${i}.json`));
  shards.forEach((file, i) => fs.writeFileSync(file, JSON.stringify(fleetShard(i + 1))));
  const html = path.join(dir, "drift.html");
  const merged = await runNode(DRIFT_BIN, ["merge", ...shards, "--out", `html=${html}`, "--out", `json=${path.join(dir, "drift.json")}`], {});
  expect([merged.code, merged.stderr]).toEqual([EXIT.policy, ""]);
  report = JSON.parse(fs.readFileSync(path.join(dir, "drift.json"), "utf8")) as DriftReport;
  browser = await launchBrowser();
  page = await browser.page();
  page.on("request", (r) => requests.push(r.url()));
  url = `file://${html}`;
  await page.goto(url);
});

afterAll(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => expect(browser?.errors ?? []).toEqual([]));

const visible = (selector: string, attribute: string) =>
  page.locator(`${selector}:visible`).evaluateAll((els, a) => els.map((el) => el.getAttribute(a)), attribute);

test("the fleet's stacks in the chart and the table, the policy findings section visible with every finding", async () => {
  expect(await visible("#stack-chart li", "data-stack")).toEqual(FLEET_STACKS);
  expect(await visible("#stack-table tbody tr", "data-stack")).toEqual(FLEET_STACKS);
  const section = page.locator("section#policy");
  expect(await section.isVisible()).toBe(true);
  expect(await section.locator("h2").textContent()).toBe("Policy findings");
  expect(await visible("#policy-table tbody tr", "data-policy")).toEqual(report.policy!.violations.map((v) => v.policy));
  expect(await page.locator("#policy-shown").textContent()).toBe(`${FLEET_VIOLATIONS.length} of ${FLEET_VIOLATIONS.length} policy findings`);
  const prodA = page.locator("#policy-table tbody tr[data-stack=prod-a]");
  expect(await prodA.locator("td").nth(4).textContent()).toBe("mandatory");
  expect(await prodA.locator("td").nth(6).textContent()).toBe("set acl.publicReadAllowIpList to the addresses that may read.");
  // Markup in an unmanaged resource's name is text: no image, no script run.
  expect(await page.locator("#policy-table tbody tr[data-managed=false] td").nth(1).textContent()).toContain(`made-by-hand${MARKUP}`);
  expect(await page.locator("img").count()).toBe(0);
  expect(await page.evaluate(() => (globalThis as { planted?: number }).planted)).toBeUndefined();
  await screenshot(page, "drift-fleet-policy", true);
});

test("filtering by stack (the select, then a click on the chart) shows that stack's resources, findings, policy findings and stack rows only", async () => {
  await page.locator("#filters select[name=stack]").selectOption("prod-b");
  expect(await visible("#resource-table tbody tr", "data-stack")).toEqual(["prod-b", "prod-b"]);
  expect(await visible("#policy-table tbody tr", "data-stack")).toEqual(["prod-b"]);
  // The chart keeps every stack, the others dimmed; the stacks' table shows the one.
  expect(await visible("#stack-chart li", "data-stack")).toEqual(FLEET_STACKS);
  expect(await visible("#stack-chart li.dim", "data-stack")).toEqual(["dev", "prod-a", "staging"]);
  expect(await visible("#stack-table tbody tr", "data-stack")).toEqual(["prod-b"]);
  expect(await visible("article.finding", "data-stack")).toEqual(["prod-b"]);
  expect(await page.locator("#policy-shown").textContent()).toBe(`1 of ${FLEET_VIOLATIONS.length} policy findings`);
  await page.setViewportSize({ width: 1280, height: 1080 });
  await screenshot(page, "drift-fleet-filtered");
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.locator("#filters select[name=stack]").selectOption("");
  await page.locator("#stack-chart li[data-stack=staging] button").click();
  expect(await page.locator("#filters select[name=stack]").inputValue()).toBe("staging");
  expect(await visible("#policy-table tbody tr", "data-managed")).toEqual(["false"]);
  expect(await visible("article.finding", "data-status")).toEqual(["deleted"]);
  expect(await visible("#stack-table tbody tr", "data-stack")).toEqual(["staging"]);
  // A second click on the same stack shows every stack again.
  await page.locator("#stack-chart li[data-stack=staging] button").click();
  expect(await visible("#stack-table tbody tr", "data-stack")).toEqual(FLEET_STACKS);
  expect(await page.locator("#stack-chart li.dim").count()).toBe(0);

  // The text filter narrows the policy findings too.
  await page.locator("#filters input[name=text]").fill("monitoring");
  expect(await visible("#policy-table tbody tr", "data-stack")).toEqual(["dev"]);
  await page.locator("#filters input[name=text]").fill("");
});

test("sorting the policy findings by level puts the mandatory ones first, then last; the resources by status", async () => {
  const level = page.locator("#policy-table th", { hasText: "level" });
  await level.click();
  expect(await visible("#policy-table tbody tr", "data-level")).toEqual(["mandatory", "mandatory", "advisory", "advisory"]);
  expect(await level.getAttribute("aria-sort")).toBe("ascending");
  await level.click();
  expect(await visible("#policy-table tbody tr", "data-level")).toEqual(["advisory", "advisory", "mandatory", "mandatory"]);
  await page.locator("#policy-table th", { hasText: "stack" }).click();
  expect(await visible("#policy-table tbody tr", "data-stack")).toEqual(["dev", "prod-a", "prod-b", "staging"]);

  await page.locator("#resource-table th", { hasText: "status" }).click();
  expect(await visible("#resource-table tbody tr", "data-status")).toEqual(["drifted", "drifted", "deleted", "clean", "clean", "clean", "clean", "clean"]);
});

test("the page made no request beyond its own file", () => {
  expect(requests).toEqual([url]);
});
