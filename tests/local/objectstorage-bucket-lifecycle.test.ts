/**
 * krcloud:objectstorage:BucketLifecycle driven as the Pulumi engine drives it, against the local
 * cloud over loopback HTTP: basic (and the rule actually expiring objects), update, replace,
 * disappears, adopt, bad input, drift.
 */
import { rejection, type TestCloud } from "../support/local-cloud";
import { expectBucketDocumentGone, expectCheckNames, testCloudForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
testCloudForFile({ bucket: "log-archive" }, (c) => (tc = c));

const TMP = { id: "expire-tmp", prefix: "tmp/", expirationDays: 1 };
const LOGS = { id: "expire-logs", prefix: "logs/", status: "Disabled", expirationDate: "2031-01-01T00:00:00.000Z" };

test("basic: create, read back the same rules, refresh shows no diff; the rule really expires objects", async () => {
  const state = await tc.lifecycle.up({ bucket: "log-archive", rules: [TMP, LOGS] });

  expect(state.id).toBe("log-archive");
  expect(state.outputs).toMatchObject({ bucket: "log-archive", rules: [{ ...TMP, status: "Enabled" }, LOGS], __provider: tc.lifecycle.providerText });
  expect(tc.cloud.control.inventory().map((e) => e.kind)).toEqual(["bucket", "bucket-lifecycle"]);
  expect(await tc.sdk.getLifecycle("log-archive")).toEqual([
    { id: "expire-tmp", prefix: "tmp/", status: "Enabled", days: 1 },
    { id: "expire-logs", prefix: "logs/", status: "Disabled", date: "2031-01-01T00:00:00.000Z" },
  ]);

  const read = await tc.lifecycle.read(state.id, state.outputs);
  expect(read).toMatchObject({ id: "log-archive", props: { rules: [{ ...TMP, status: "Enabled" }, LOGS] } });
  const refreshed = (await tc.lifecycle.refresh(state))!;
  expect((await tc.lifecycle.plan(refreshed, { bucket: "log-archive", rules: [TMP, LOGS] })).diff.changes).toBe(false);

  await tc.sdk.putObject("log-archive", "tmp/a.txt", "a");
  await tc.sdk.putObject("log-archive", "keep.txt", "k");
  tc.cloud.control.advanceClock({ days: 2 });
  expect((await tc.sdk.listAllObjects("log-archive")).map((e) => (e.kind === "object" ? e.name : e.subdir))).toEqual(["keep.txt"]);
});

test("update in place: a changed rule rewrites the whole configuration in one request", async () => {
  const state = await tc.lifecycle.up({ bucket: "log-archive", rules: [TMP] });
  const before = tc.counts();

  const next = await tc.lifecycle.apply(state, {
    bucket: "log-archive",
    rules: [
      { ...TMP, expirationDays: 30 },
      { prefix: "", expirationDays: 365 },
    ],
  });

  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  expect(tc.countsSince(before).PutBucketLifecycleConfiguration).toBe(1);
  expect(await tc.sdk.getLifecycle("log-archive")).toEqual([
    { id: "expire-tmp", prefix: "tmp/", status: "Enabled", days: 30 },
    { prefix: "", status: "Enabled", days: 365 },
  ]);
  // No false diff against the rule without an id after a refresh.
  const refreshed = (await tc.lifecycle.refresh(next))!;
  expect(
    (
      await tc.lifecycle.plan(refreshed, {
        bucket: "log-archive",
        rules: [
          { ...TMP, expirationDays: 30 },
          { prefix: "", expirationDays: 365 },
        ],
      })
    ).diff.changes,
  ).toBe(false);
});

test("replace: a different bucket replaces the configuration", async () => {
  await tc.sdk.createBucket({ name: "log-archive-2" });
  const state = await tc.lifecycle.up({ bucket: "log-archive", rules: [TMP] });

  const { inputs, diff } = await tc.lifecycle.plan(state, { bucket: "log-archive-2", rules: [TMP] });
  expect(diff).toMatchObject({ changes: true, replaces: ["bucket"] });

  const replacement = await tc.lifecycle.create(inputs);
  await tc.lifecycle.destroy(state);
  expect(replacement.id).toBe("log-archive-2");
  expect(await tc.sdk.getLifecycle("log-archive-2")).toHaveLength(1);
  expect(await tc.sdk.getLifecycle("log-archive")).toBeUndefined();
});

test("disappears: a configuration removed behind the provider's back reads as gone; so does one whose bucket is gone", async () => {
  await expectBucketDocumentGone(tc, tc.lifecycle, "bucket-lifecycle", { bucket: "log-archive", rules: [TMP] });
});

test("adopt: an existing configuration fails the create unless adopt is set, which replaces it", async () => {
  await tc.sdk.putLifecycle("log-archive", [{ id: "old", prefix: "old/", status: "Enabled", days: 7 }]);
  const args = { bucket: "log-archive", rules: [TMP] };

  const err = await rejection(tc.lifecycle.up(args));
  expect(err.message).toMatch(/log-archive/);
  expect(err.message).toMatch(/already has one/);
  expect(err.message).toMatch(/set adopt: true/);
  expect(await tc.sdk.getLifecycle("log-archive")).toEqual([{ id: "old", prefix: "old/", status: "Enabled", days: 7 }]);

  const state = await tc.lifecycle.up({ ...args, adopt: true });
  expect(state.outputs).toMatchObject({ adopt: true, rules: [{ ...TMP, status: "Enabled" }] });
  expect(await tc.sdk.getLifecycle("log-archive")).toEqual([{ id: "expire-tmp", prefix: "tmp/", status: "Enabled", days: 1 }]);
});

describe("bad input is rejected in check with the property path, and no request is sent", () => {
  const cases: [string, unknown[], string, RegExp][] = [
    ["both days and date", [{ prefix: "", expirationDays: 1, expirationDate: "2030-01-01T00:00:00.000Z" }], "rules[0].expirationDays", /exactly one/],
    ["neither days nor date", [{ prefix: "" }], "rules[0].expirationDays", /exactly one/],
    ["date without time", [{ prefix: "", expirationDate: "2030-01-01" }], "rules[0].expirationDate", /YYYY-MM-DDThh:mm:ss\.000Z/],
    ["date with non-zero milliseconds", [{ prefix: "", expirationDate: "2030-01-01T00:00:00.123Z" }], "rules[0].expirationDate", /YYYY-MM-DDThh:mm:ss\.000Z/],
    ["date that is not a calendar date", [{ prefix: "", expirationDate: "2030-13-45T00:00:00.000Z" }], "rules[0].expirationDate", /valid date/],
    ["February 30th", [{ prefix: "", expirationDate: "2030-02-30T00:00:00.000Z" }], "rules[0].expirationDate", /valid date/],
    ["hour 24", [{ prefix: "", expirationDate: "2030-01-01T24:00:00.000Z" }], "rules[0].expirationDate", /valid date/],
    ["days 0", [{ prefix: "", expirationDays: 0 }], "rules[0].expirationDays", /greater than 0/],
    ["fractional days", [{ prefix: "", expirationDays: 1.5 }], "rules[0].expirationDays", /whole number/],
    ["duplicate rule ids", [TMP, { ...TMP, prefix: "other/" }], "rules[1].id", /duplicate rule id "expire-tmp"/],
    ["rule id over 255 characters", [{ ...TMP, id: "r".repeat(256) }], "rules[0].id", /255/],
    ["bad status", [{ ...TMP, status: "On" }], "rules[0].status", /Enabled|Disabled/],
  ];

  test.each(cases)("%s", async (_what, rules, property, reason) => {
    await expectCheckNames(tc, tc.lifecycle, "lc", { bucket: "log-archive", rules }, property, reason);
  });
});

test("drift: a configuration changed outside Pulumi shows in read and in the next diff, and the next up restores it", async () => {
  const args = { bucket: "log-archive", rules: [TMP] };
  const state = await tc.lifecycle.up(args);
  const xml =
    "<LifecycleConfiguration><Rule><ID>expire-tmp</ID><Prefix>tmp/</Prefix><Status>Enabled</Status><Expiration><Days>90</Days></Expiration></Rule></LifecycleConfiguration>";
  expect((await tc.controlApi("PATCH", "/resources/object-storage/bucket-lifecycle/log-archive", { lifecycle: xml })).status).toBe(200);

  const refreshed = (await tc.lifecycle.refresh(state))!;
  expect(refreshed.outputs.rules).toEqual([{ ...TMP, status: "Enabled", expirationDays: 90 }]);
  expect((await tc.lifecycle.plan(refreshed, args)).diff).toMatchObject({ changes: true, replaces: [] });

  await tc.lifecycle.apply(refreshed, args);
  expect(await tc.sdk.getLifecycle("log-archive")).toEqual([{ id: "expire-tmp", prefix: "tmp/", status: "Enabled", days: 1 }]);
});
