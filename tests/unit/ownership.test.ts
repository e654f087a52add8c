/**
 * The ownership markers' formats (provider/core/ownership.ts and where each type keeps its marker):
 * what the service is sent, that reads give the program's values back without them, and the input
 * rules that leave room for them.
 */
import { apiErrorFor, systemClock } from "../../client/core";
import {
  DESCRIPTION_TAG_MAX,
  markerOf,
  recordedDescription,
  splitDescription,
  taggedDescription,
  withOfferedValues,
  withoutReservedMetadata,
  type Context,
} from "../../provider/core";
import { configTextOf, splitOwnerConfig } from "../../provider/hadoop/cluster";
import { definition } from "../../provider/runtime";
import { inputSchema } from "../../provider/core/resource";
import { shardStepDigest } from "../../provider/cache/cluster";

const KEY = "0123456789abcdef0123456789abcdef";

test("a marker is the create key's first 16 hex digits; none for an unknown or missing key", () => {
  expect(markerOf(KEY)).toBe("0123456789abcdef");
  expect(markerOf(undefined)).toBeUndefined();
  expect(markerOf("04da6b54-80e4-46f7-96ec-b56ff0331ba9")).toBeUndefined();
});

test("a description's tag: appended for the service, removed for the program, with a pending shards step or without", () => {
  const m = markerOf(KEY)!;
  for (const text of ["web cache", "", undefined, "has [brackets] inside"]) {
    const sent = taggedDescription(text, m)!;
    expect(sent.endsWith(`[krcloud:${m}]`)).toBe(true);
    expect(splitDescription(sent)).toEqual({ text: text ?? "", marker: m });
    const pending = taggedDescription(text, m, "abcd1234")!;
    expect(splitDescription(pending)).toEqual({ text: text ?? "", marker: m, pending: "abcd1234" });
    expect(pending.length - (text ?? "").length).toBeLessThanOrEqual(DESCRIPTION_TAG_MAX);
  }
  // What the program set is what is recorded: an empty description it did not set stays unset.
  expect(recordedDescription(`[krcloud:${m}]`, undefined)).toBeUndefined();
  expect(recordedDescription(`[krcloud:${m}]`, "")).toBe("");
  expect(recordedDescription("made by hand", undefined)).toBe("made by hand");
  expect(taggedDescription("no marker", undefined)).toBe("no marker");
});

test("a cache description leaves room for the tag: 64 characters, and the rule says why", () => {
  const schema = inputSchema(definition("krcloud:cache:ParameterGroup"));
  const ok = schema.safeParse({ baseParameterGroupId: "default.redis7.0.cluster", name: "pgroup", description: "d".repeat(64) });
  expect(ok.success).toBe(true);
  const long = schema.safeParse({ baseParameterGroupId: "default.redis7.0.cluster", name: "pgroup", description: "d".repeat(65) });
  expect(long.success).toBe(false);
  expect(JSON.stringify(long.error?.issues)).toMatch(/at most 64 characters \(got 65\): the service takes 100, and krcloud keeps 36 for its ownership tag/);
});

test("bucket and object metadata: krcloud- names are reserved in check and never reported", () => {
  for (const token of ["krcloud:objectstorage:Bucket", "krcloud:objectstorage:BucketObject"]) {
    const schema = inputSchema(definition(token));
    const r = schema.safeParse({ bucket: "valid-bucket", key: "k", content: "x", name: "valid-bucket", metadata: { "krcloud-owner": "x" } });
    expect([token, JSON.stringify(r.error?.issues)]).toEqual([token, expect.stringMatching(/metadata names starting with \\"krcloud-\\" are reserved/)]);
  }
  expect(withoutReservedMetadata({ team: "a", "krcloud-owner": "m", "krcloud-cors-owner": "m" })).toEqual({ team: "a" });
});

test("Hadoop: the marker joins core-site in configText and leaves the program's configurations as declared", () => {
  const m = markerOf(KEY)!;
  const declared: { classification: string; properties: Record<string, string> }[] = [
    { classification: "hive-site", properties: { "hive.x": "1" } },
    { classification: "core-site", properties: { "fs.trash.interval": "60" } },
  ];
  for (const configurations of [declared, undefined]) {
    const text = configTextOf(configurations, m)!;
    const parsed = (JSON.parse(text) as { configurations: { classification: string; properties: Record<string, string> }[] }).configurations;
    expect(parsed.find((c) => c.classification === "core-site")!.properties["krcloud.owner"]).toBe(m);
    expect(splitOwnerConfig(parsed)).toEqual({ configurations, marker: m });
  }
  expect(configTextOf(undefined, undefined)).toBeUndefined();
});

test("a shards step's digest depends on the set of shards before it, not their order", () => {
  expect(shardStepDigest(["c-0001", "c-0002"])).toBe(shardStepDigest(["c-0002", "c-0001"]));
  expect(shardStepDigest(["c-0001"])).not.toBe(shardStepDigest(["c-0001", "c-0002"]));
  expect(shardStepDigest([])).toMatch(/^[0-9a-f]{8}$/);
});

test('the KMS key hint ("no such KMS key") is added to a 404 only, never to a 400 about a key that exists', async () => {
  const def = definition("krcloud:kms:Ciphertext");
  const ctx = { progress: () => undefined, clock: systemClock } as unknown as Context;
  const inputs = { keyId: "key-1", plaintext: "x" };
  const refusal = (status: number) =>
    apiErrorFor({ service: "kms", operation: "Encrypt", method: "POST", path: "/api/v1/keys/key-1/encrypt", status, apiMessage: 'key "key-1": input invalid' });
  expect((await withOfferedValues(def, ctx, inputs, refusal(400))).message).not.toMatch(/no such KMS key/);
  expect((await withOfferedValues(def, ctx, inputs, refusal(404))).message).toMatch(/no such KMS key in this project/);
});
