/**
 * The floor of the native door for `make bench`: a native provider plugin that does nothing, on the
 * stock `@pulumi/pulumi/provider` server, installed as `krcloud` (same name, version and schema as
 * the real plugin) in a PULUMI_HOME of its own, so the same TypeScript and YAML programs run on it.
 *
 * It calls no API and validates nothing: check returns the program's inputs with the defaults the
 * real plugin recorded for a bucket, create returns the real plugin's recorded outputs with the
 * inputs and a name (so state bytes per resource match), diff compares inputs, read returns what it
 * is given. $KRCLOUD_BENCH_FLOOR names the JSON file of those recorded inputs and outputs
 * (`native: { inputs, outputs }`), taken from a warm-up run of the real plugin.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

// dist/bench/floors/ -> the repository root (package.json, schema.json).
const ROOT = path.join(__dirname, "..", "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
const schema = fs.readFileSync(path.join(ROOT, "schema.json"), "utf8");
const recorded = JSON.parse(fs.readFileSync(process.env.KRCLOUD_BENCH_FLOOR ?? "", "utf8")) as { native: { inputs: Props; outputs: Props } };

const logicalName = (urn: string): string => urn.split("::").at(-1) ?? "resource";

const provider: pulumi.provider.Provider = {
  version: pkg.version,
  getSchema: async () => schema,
  check: async (urn, olds: Props, news: Props) => ({
    inputs: { ...recorded.native.inputs, ...news, name: news.name ?? olds.name ?? `${logicalName(urn)}-${randomBytes(4).toString("hex").slice(0, 7)}` },
  }),
  diff: async (_id, _urn, olds: Props, news: Props) => ({
    changes: Object.keys(news).some((k) => JSON.stringify(news[k]) !== JSON.stringify(olds[k])),
  }),
  create: async (_urn, inputs: Props) => ({ id: String(inputs.name), outs: { ...recorded.native.outputs, ...inputs } }),
  read: async (id, _urn, props: Props) => ({ id, props }),
  update: async (_id, _urn, olds: Props, news: Props) => ({ outs: { ...olds, ...news } }),
  delete: async () => undefined,
};

pulumi.provider.main(provider, process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
