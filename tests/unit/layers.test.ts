/**
 * The layers hold: every import of the code against the table of docs/architecture.md ("What may
 * import what"), which is this test's input (tests/support/layers.ts reads it). A planted up-import
 * in a temporary copy proves the test fails on one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/engine";
import { layerRules, layerViolations } from "../support/layers";

const TABLE = fs.readFileSync(path.join(REPO_ROOT, "docs", "architecture.md"), "utf8");

test("the table has a row for every layer the architecture names", () => {
  const layers = layerRules(TABLE).flatMap((r) => r.layers);
  for (const l of [
    "client/core",
    "client/<service>",
    "provider/core",
    "provider/<service>",
    "local-cloud/",
    "drift/",
    "tools/",
    "bin/",
    "sdk/nodejs/",
    "native.ts",
    "bench/",
    "tests/",
  ])
    expect(layers).toContain(l);
});

test("no import breaks the layer table", () => {
  expect(layerViolations(REPO_ROOT, layerRules(TABLE))).toEqual([]);
});

test("no row allows what it also forbids", () => {
  for (const r of layerRules(TABLE)) if (r.may !== "everything") expect(r.may.filter((m) => r.never.includes(m))).toEqual([]);
});

describe("a planted break fails (in a temporary copy of client/ and provider/)", () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-layers-"));
    for (const dir of ["client", "provider"]) fs.cpSync(path.join(REPO_ROOT, dir), path.join(root, dir), { recursive: true });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const rules = () => layerRules(TABLE);

  test("the copy alone is clean", () => {
    expect(layerViolations(root, rules())).toEqual([]);
  });

  test("an up-import (client/core of provider/core), a package a layer must not use, and a service's file used by another service", () => {
    const errors = path.join(root, "client", "core", "errors.ts");
    const original = fs.readFileSync(errors, "utf8");
    const cluster = path.join(root, "provider", "kms", "ciphertext.ts");
    const kms = fs.readFileSync(cluster, "utf8");
    try {
      fs.writeFileSync(errors, `import { UNKNOWN } from "../../provider/core/unknown";\nimport { z } from "zod";\n${original}`);
      fs.writeFileSync(cluster, `import "../cache/cluster";\n${kms}`);
      expect(layerViolations(root, rules())).toEqual([
        'client/core/errors.ts imports provider/core/unknown.ts ("../../provider/core/unknown"): `client/core` must never import provider/',
        'client/core/errors.ts imports zod ("zod"): `client/core` must never import zod',
        'provider/kms/ciphertext.ts imports provider/cache/cluster.ts ("../cache/cluster"): `provider/<service>` may import only provider/core, client/core, client/<service>, zod, @pulumi/pulumi, fast-glob, mime-types, provider/kms/encrypted-input.ts (and its own files)',
      ]);
    } finally {
      fs.writeFileSync(errors, original);
      fs.writeFileSync(cluster, kms);
    }
  });
});
