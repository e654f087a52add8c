/**
 * On a Node.js older than the package needs, every entry point (the library's main, the runtime the
 * dynamic provider host loads, every bin) stops at once with one line naming the version found, the
 * version needed and how to get one, instead of a TypeError deep inside undici. Run with the old
 * Node.js of the machine (`which -a node`, /usr/bin/node; KRCLOUD_OLD_NODE names another).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { NODE_MINIMUM, olderThan } from "../../provider/core/node-version";
import { entry } from "../harness/entries";

const ROOT = path.join(__dirname, "..", "..", "..");
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  main: string;
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  engines: { node: string };
};

function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

/** A Node.js older than the minimum on this machine: KRCLOUD_OLD_NODE, else the first on PATH or in the usual places. */
function oldNode(): { node: string; version: string } {
  const candidates = [
    ...(process.env.KRCLOUD_OLD_NODE ? [process.env.KRCLOUD_OLD_NODE] : []),
    ...(process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "node")),
    "/usr/bin/node",
    "/usr/local/bin/node",
  ];
  for (const node of candidates) {
    if (!fs.existsSync(node)) continue;
    const version = versionOf(node);
    if (version && olderThan(version)) return { node, version };
  }
  throw new Error(`no Node.js older than ${NODE_MINIMUM} found (looked at ${candidates.join(", ")}): set KRCLOUD_OLD_NODE to one`);
}

test("the minimum is package.json's engines.node, which is what the dependencies need (undici 8: >= 22.19.0)", () => {
  expect(PKG.engines.node).toBe(`>=${NODE_MINIMUM}`);
  const undici = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "undici", "package.json"), "utf8")) as { engines: { node: string } };
  const pulumi = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { engines: { node: string } };
  for (const range of [undici.engines.node, pulumi.engines.node]) {
    const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range)?.[1];
    expect([range, floor !== undefined && !olderThan(NODE_MINIMUM, floor)]).toEqual([range, true]);
  }
});

test("versions are compared numerically", () => {
  expect(olderThan("20.20.2")).toBe(true);
  expect(olderThan("v22.18.9")).toBe(true);
  expect(olderThan("22.19.0")).toBe(false);
  expect(olderThan("v22.100.0")).toBe(false);
  expect(olderThan("24.9.0")).toBe(false);
  expect(olderThan("v23.0.0-pre")).toBe(false);
});

describe("on an old Node.js every entry point stops with one line", () => {
  const entries: [string, string[]][] = [
    ["the library's main (require of pulumi-krcloud)", ["-e", `require(${JSON.stringify(path.join(ROOT, PKG.main))})`]],
    ["the runtime the dynamic provider loads (pulumi-krcloud/runtime)", ["-e", `require(${JSON.stringify(entry("runtime"))})`]],
    ...Object.entries(PKG.bin).map(([name, file]): [string, string[]] => [`bin ${name}`, [path.join(ROOT, file), "--help"]]),
  ];

  test.each(entries)("%s", (_what, args) => {
    const { node, version } = oldNode();
    const r = spawnSync(node, args, { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`needs Node.js >= ${NODE_MINIMUM}`);
    expect(lines[0]).toContain(`this is Node.js ${version.replace(/^v/, "")}`);
    expect(lines[0]).toMatch(/install Node\.js 22\.19 or later \(https:\/\/nodejs\.org/);
  });

  test("the current Node.js is not stopped", () => {
    const r = spawnSync(process.execPath, [entry("drift"), "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).not.toContain("needs Node.js");
    expect(r.stdout).toContain("usage: krcloud-drift");
  });
});
