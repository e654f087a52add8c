/**
 * The ownership markers' formats (provider/core/ownership.ts and where each type keeps its marker):
 * what the service is sent, that reads give the program's values back without them, and the input
 * rules that leave room for them.
 */
import { apiErrorFor, systemClock } from "../../client/core";
import {
  DESCRIPTION_TAG_LENGTH,
  DESCRIPTION_TAG_WITH_STEP_LENGTH,
  markerDigits,
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
  for (const text of ["web cache", "", undefined, "has [brackets] inside", "ends like a tag [k:short]"]) {
    const sent = taggedDescription(text, m)!;
    expect(sent).toBe(`${text ? `${text} ` : ""}[k:${markerDigits(m)}]`);
    expect(sent.length - (text ? text.length : -1)).toBe(DESCRIPTION_TAG_LENGTH);
    expect(splitDescription(sent)).toEqual({ text: text ?? "", marker: m });
    const pending = taggedDescription(text, m, "00cd1234")!;
    expect(splitDescription(pending)).toEqual({ text: text ?? "", marker: m, pending: "00cd1234" });
    expect(pending.length - (text ? text.length : -1)).toBe(DESCRIPTION_TAG_WITH_STEP_LENGTH);
  }
  // What the program set is what is recorded: an empty description it did not set stays unset.
  expect(recordedDescription(`[k:${markerDigits(m)}]`, undefined)).toBeUndefined();
  expect(recordedDescription(`[k:${markerDigits(m)}]`, "")).toBe("");
  expect(recordedDescription("made by hand", undefined)).toBe("made by hand");
  expect(taggedDescription("no marker", undefined)).toBe("no marker");
});

test("the tag is 18 characters (26 with a shards step), half the 36 of the tag it replaces; a marker of any value fits it", () => {
  expect([DESCRIPTION_TAG_LENGTH, DESCRIPTION_TAG_WITH_STEP_LENGTH]).toEqual([18, 26]);
  for (const marker of ["0000000000000000", "ffffffffffffffff", "8000000000000001"]) {
    const sent = taggedDescription("x", marker, "ffffffff")!;
    expect(sent).toMatch(/^x \[k:[0-9a-z]{13}\+[0-9a-z]{7}\]$/);
    expect(splitDescription(sent)).toEqual({ text: "x", marker, pending: "ffffffff" });
  }
  // 13 base-36 digits beyond 64 bits are not a tag of ours: the text is the user's.
  expect(splitDescription("x [k:zzzzzzzzzzzzz]")).toEqual({ text: "x [k:zzzzzzzzzzzzz]" });
});

test("descriptions written with the tag of earlier versions keep their marker and step", () => {
  const m = markerOf(KEY)!;
  expect(splitDescription(`web cache [krcloud:${m}]`)).toEqual({ text: "web cache", marker: m });
  expect(splitDescription(`[krcloud:${m}+abcd1234]`)).toEqual({ text: "", marker: m, pending: "abcd1234" });
  expect(recordedDescription(`[krcloud:${m}]`, undefined)).toBeUndefined();
});

test("a cache description leaves room for the tag: 82 characters, 74 for a cluster (its tag may record a shards step); the rule says why", () => {
  const cases = [
    ["krcloud:cache:ParameterGroup", { baseParameterGroupId: "default.redis7.0.cluster", name: "pgroup" }, 82, 18],
    ["krcloud:cache:InstanceSet", {}, 82, 18],
    ["krcloud:cache:Cluster", {}, 74, 26],
  ] as const;
  for (const [token, rest, max, room] of cases) {
    const schema = inputSchema(definition(token));
    const issues = (description: string) =>
      JSON.stringify(schema.safeParse({ ...rest, description }).error?.issues.filter((i) => i.path[0] === "description") ?? []);
    expect([token, issues("d".repeat(max))]).toEqual([token, "[]"]);
    expect([token, issues("d".repeat(max + 1))]).toEqual([
      token,
      expect.stringMatching(
        new RegExp(`at most ${max} characters \\(got ${max + 1}\\): the service takes 100, and krcloud keeps ${room} for its ownership tag`),
      ),
    ]);
    // With its tag, the longest description the program may set is what the service takes.
    expect([token, max + room]).toEqual([token, 100]);
  }
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
