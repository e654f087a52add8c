/**
 * krcloud:objectstorage:Bucket driven as the Pulumi engine drives it, against the local cloud over
 * loopback HTTP: basic, update in place, replace, disappears, adopt, bad input, drift, forceDestroy,
 * partial failure, auto-naming.
 */
import { inspect } from "node:util";
import { resetProjectChecks } from "../../client/core";
import { rejection, type TestCloud } from "../support/local-cloud";
import { expectCheckNames, testCloudForFile } from "../support/local-cloud/per-file";

/** The ownership marker a create writes into the bucket's metadata (never an output). */
const OWNED = { "krcloud-owner": expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string };

let tc: TestCloud;
testCloudForFile({ reset: true }, (c) => (tc = c));

const inventory = () => tc.cloud.control.inventory().map((e) => `${e.kind}:${e.id}`);

test("basic: create, then read returns the same bucket and a refresh shows no diff", async () => {
  const state = await tc.bucket.up({ name: "basic-logs", metadata: { owner: "team-a" } }, "logs");

  expect(state.id).toBe("basic-logs");
  expect(state.outputs).toMatchObject({
    name: "basic-logs",
    type: "STANDARD",
    acl: { public: "deny" },
    metadata: { owner: "team-a" },
    forceDestroy: false,
    project: tc.projectId,
    url: `${tc.settings.endpoints.objectstorage}/v1/${tc.projectId}/basic-logs`,
    __provider: tc.bucket.providerText,
  });
  expect(state.outputs.encryption).toBeUndefined();
  expect(inventory()).toEqual(["bucket:basic-logs"]);

  const read = await tc.bucket.read(state.id, state.outputs);
  expect(read.id).toBe("basic-logs");
  expect(read.props).toMatchObject({ name: "basic-logs", acl: { public: "deny" }, metadata: { owner: "team-a" } });

  // Refresh returns inputs too, so the next preview compares like with like: no changes.
  const refreshed = (await tc.bucket.refresh(state))!;
  const { diff } = await tc.bucket.plan(refreshed, { name: "basic-logs", metadata: { owner: "team-a" } }, "logs");
  expect(diff.changes).toBe(false);
});

test("update in place: ACL and metadata add/change/remove, without replacing the bucket", async () => {
  const state = await tc.bucket.up({ name: "upd-assets", metadata: { owner: "team-a", env: "dev" } });
  const before = tc.counts();

  const next = await tc.bucket.apply(state, {
    name: "upd-assets",
    acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8", "192.168.1.7"] },
    metadata: { owner: "team-b", tier: "gold" },
  });

  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  expect(next.outputs).toMatchObject({
    acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8", "192.168.1.7"] },
    metadata: { owner: "team-b", tier: "gold" },
  });
  const b = await tc.sdk.getBucket("upd-assets");
  expect(b.acl).toMatchObject({ public: "read-only", publicReadAllowIpList: ["10.0.0.0/8", "192.168.1.7"] });
  // The ownership marker the create wrote stays through every metadata update.
  expect(b.metadata).toEqual({ owner: "team-b", tier: "gold", ...OWNED });

  const sent = tc.countsSince(before);
  expect(sent).toMatchObject({ UpdateBucketAcl: 1, UpdateContainerMetadata: 1 });
  expect(sent.CreateBucket).toBeUndefined();
  expect(sent.DeleteBucket).toBeUndefined();

  // Back to deny: the ACL is removed and the IP list with it.
  const back = await tc.bucket.apply(next, { name: "upd-assets", metadata: { owner: "team-b", tier: "gold" } });
  expect(back.outputs.acl).toEqual({ public: "deny" });
  expect((await tc.sdk.getBucket("upd-assets")).acl?.public ?? "deny").toBe("deny");
});

test("replace: an encryption change replaces the bucket, deleting first; a new name, creating the new one first", async () => {
  const state = await tc.bucket.up({ name: "repl-data" });

  const enc = await tc.bucket.plan(state, { name: "repl-data", encryption: { type: "managed" } });
  expect(enc.diff).toMatchObject({ changes: true, replaces: ["encryption"], deleteBeforeReplace: true });
  const renamed = await tc.bucket.plan(state, { name: "repl-data-2" });
  expect(renamed.diff).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });

  // The engine's delete-before-replace sequence.
  await tc.bucket.destroy(state);
  const replaced = await tc.bucket.create(enc.inputs);
  expect(replaced.outputs.encryption).toEqual({ type: "managed" });
  expect((await tc.sdk.getBucket("repl-data")).useEncryption).toBe(true);
  expect(inventory()).toEqual(["bucket:repl-data"]);
});

test("disappears: deleted behind the provider's back, read reports it gone and delete succeeds", async () => {
  const state = await tc.bucket.up({ name: "gone-bucket" });
  const del = await tc.controlApi("DELETE", `/resources/object-storage/bucket/${state.id}`);
  expect(del.status).toBe(204);

  expect(await tc.bucket.read(state.id, state.outputs)).toMatchObject({ id: "" });
  expect(await tc.bucket.refresh(state)).toBeUndefined();
  await expect(tc.bucket.destroy(state)).resolves.toBeUndefined();
});

test("adopt: an existing bucket fails the create unless adopt is set, then converges to the inputs", async () => {
  await tc.sdk.createBucket({ name: "adopt-me" });
  await tc.sdk.updateContainerMetadata("adopt-me", { legacy: "yes" });
  const args = { name: "adopt-me", acl: { public: "read-only" }, metadata: { owner: "platform" } };

  const err = await rejection(tc.bucket.up(args));
  expect(err.message).toMatch(/adopt-me/);
  expect(err.message).toMatch(/already exists with this name/);
  expect(err.message).toMatch(/set `adopt: true` on this resource/);

  const before = tc.counts();
  const state = await tc.bucket.up({ ...args, adopt: true });
  expect(tc.countsSince(before).CreateBucket).toBeUndefined();
  expect(tc.progress()).toContain('adopting existing bucket "adopt-me"');
  expect(state.outputs).toMatchObject({ adopt: true, acl: { public: "read-only" }, metadata: { owner: "platform" } });
  const b = await tc.sdk.getBucket("adopt-me");
  // The program's keys are set; a key set by others is neither removed nor reported.
  expect(b.metadata).toEqual({ legacy: "yes", owner: "platform" });
  expect(b.acl?.public).toBe("read-only");
  const refreshed = (await tc.bucket.refresh(state))!;
  expect(refreshed.outputs.metadata).toEqual({ owner: "platform" });
  expect((await tc.bucket.plan(refreshed, { ...args, adopt: true })).diff.changes).toBe(false);
});

test("adopt never leads to deleting what it adopted: a bucket whose replace-on properties differ is refused, untouched", async () => {
  await tc.sdk.createBucket({ name: "encrypted-one", encryption: { type: "managed" } });
  await tc.sdk.updateContainerMetadata("encrypted-one", { keep: "me" });
  await tc.sdk.putObject("encrypted-one", "data.bin", "precious");

  const before = tc.counts();
  const err = await rejection(tc.bucket.up({ name: "encrypted-one", adopt: true, forceDestroy: true, metadata: { owner: "x" } }));
  expect(err.message).toBe(
    'adopting bucket "encrypted-one": encryption is {"type":"managed"} there but not set in the program. A change of this property replaces the resource, so adopting it would lead the next update to delete it; declare the existing values to adopt it, or use another name',
  );
  // Only reads were sent: nothing was changed, created or deleted.
  expect(Object.keys(tc.countsSince(before)).every((op) => /^(Get|Head|List)/.test(op))).toBe(true);
  expect((await tc.sdk.getBucket("encrypted-one")).metadata).toEqual({ keep: "me" });
  expect((await tc.sdk.getObject("encrypted-one", "data.bin")).body.toString()).toBe("precious");

  // Declaring the existing encryption adopts it, and the next plan is not a replacement.
  const state = await tc.bucket.up({ name: "encrypted-one", adopt: true, encryption: { type: "managed" }, metadata: { owner: "x" } });
  expect((await tc.bucket.plan(state, { name: "encrypted-one", adopt: true, encryption: { type: "managed" }, metadata: { owner: "x" } })).diff.changes).toBe(
    false,
  );
});

test("updates remove only the metadata keys this resource manages, never keys set by others", async () => {
  const state = await tc.bucket.up({ name: "shared-meta", metadata: { team: "a", tier: "gold" } });
  await tc.sdk.updateContainerMetadata("shared-meta", { "set-by-billing": "cc-42" });

  const refreshed = (await tc.bucket.refresh(state))!;
  expect(refreshed.outputs.metadata).toEqual({ team: "a", tier: "gold" });
  const next = await tc.bucket.apply(refreshed, { name: "shared-meta", metadata: { team: "b" } });
  expect(next.outputs.metadata).toEqual({ team: "b" });
  expect((await tc.sdk.getBucket("shared-meta")).metadata).toEqual({ team: "b", "set-by-billing": "cc-42", ...OWNED });
});

test("an empty IP list means no restriction, like none: no diff after a refresh", async () => {
  const args = { name: "open-reads", acl: { public: "read-only", publicReadAllowIpList: [] } };
  const state = await tc.bucket.up(args);
  expect(state.outputs.acl).toEqual({ public: "read-only" });
  const refreshed = (await tc.bucket.refresh(state))!;
  expect((await tc.bucket.plan(refreshed, args)).diff.changes).toBe(false);
});

test("adopt cannot take a name held by another project, and the message does not suggest adopt", async () => {
  const other = tc.cloud.control.issueCredentials({ projectId: "someoneelse01" });
  const res = await fetch(`${tc.settings.endpoints.objectstorage}/v1_ext/bucket`, {
    method: "PUT",
    headers: { "content-type": "application/json", "x-auth-token": other.kind === "token" ? other.token : "" },
    body: JSON.stringify({ name: "global-name", type: "STANDARD" }),
  });
  expect(res.status).toBe(200);

  const err = await rejection(tc.bucket.up({ name: "global-name", adopt: true }));
  expect(err.message).toMatch(/taken by a bucket outside this project/);
  expect(err.message).not.toMatch(/set adopt/);
});

describe("bad input is rejected in check with the property path, and no request is sent", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["name too short", { name: "abc" }, "name", /4 to 63/],
    ["name with upper case", { name: "MyBucket" }, "name", /lower-case/],
    ["name over 63 characters", { name: "a".repeat(64) }, "name", /4 to 63/],
    [
      "bad CIDR in the IP list",
      { name: "okname", acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8", "10.1.2.3/33"] } },
      "acl.publicReadAllowIpList[1]",
      /IP address or CIDR/,
    ],
    ["IP list without read-only", { name: "okname", acl: { public: "deny", publicReadAllowIpList: ["10.0.0.1"] } }, "acl.publicReadAllowIpList", /read-only/],
    ["metadata name too long", { name: "okname", metadata: { ["k".repeat(65)]: "v" } }, `metadata.${"k".repeat(65)}`, /2 to 64/],
    ["metadata value too long", { name: "okname", metadata: { owner: "v".repeat(513) } }, "metadata.owner", /512/],
    ["non-ASCII metadata value", { name: "okname", metadata: { owner: "홍길동" } }, "metadata.owner", /printable ASCII/],
    ["metadata value with a newline", { name: "okname", metadata: { owner: "a\nb" } }, "metadata.owner", /printable ASCII/],
    ["unknown property", { name: "okname", colour: "blue" }, "", /colour/],
  ];

  test.each(cases)("%s", async (_what, args, property, reason) => {
    await expectCheckNames(tc, tc.bucket, "bad", args, property, reason);
  });
});

test("drift: an ACL or metadata change made outside Pulumi shows in read and in the next diff", async () => {
  const args = { name: "drift-bucket", metadata: { owner: "team-a" } };
  const state = await tc.bucket.up(args);

  const patched = await tc.controlApi("PATCH", `/resources/object-storage/bucket/${state.id}`, {
    acl: { public: "read-only", public_read_allow_ip_list: ["203.0.113.0/24"] },
    metadata: { owner: "someone-else" },
  });
  expect(patched.status).toBe(200);

  const refreshed = (await tc.bucket.refresh(state))!;
  expect(refreshed.outputs.acl).toEqual({ public: "read-only", publicReadAllowIpList: ["203.0.113.0/24"] });
  expect(refreshed.outputs.metadata).toEqual({ owner: "someone-else" });

  const { diff } = await tc.bucket.plan(refreshed, args);
  expect(diff.changes).toBe(true);
  expect(diff.replaces).toEqual([]);

  // The next up puts the cloud back to the program's inputs.
  await tc.bucket.apply(refreshed, args);
  const b = await tc.sdk.getBucket("drift-bucket");
  expect(b.acl?.public ?? "deny").toBe("deny");
  expect(b.metadata).toEqual({ owner: "team-a", ...OWNED });
});

test("forceDestroy: false on a non-empty bucket fails the delete with a message naming forceDestroy; true empties it", async () => {
  const state = await tc.bucket.up({ name: "full-bucket" });
  await tc.sdk.putObject("full-bucket", "a.txt", "a");
  await tc.sdk.putObject("full-bucket", "dir/b.txt", "b");

  const err = await rejection(tc.bucket.destroy(state));
  expect(err.message).toMatch(/not empty/);
  expect(err.message).toMatch(/forceDestroy/);
  expect(inventory()).toEqual(["bucket:full-bucket", "object:full-bucket/a.txt", "object:full-bucket/dir/b.txt"]);

  // forceDestroy is provider-only: turning it on writes nothing to the cloud.
  const before = tc.counts();
  const forced = await tc.bucket.apply(state, { name: "full-bucket", forceDestroy: true });
  expect(forced.diff.replaces).toEqual([]);
  expect(Object.keys(tc.countsSince(before)).filter((op) => op !== "GetBucketMeta")).toEqual([]);

  await tc.bucket.destroy(forced);
  expect(inventory()).toEqual([]);
  expect(tc.progress()).toEqual(
    expect.arrayContaining(['emptying bucket "full-bucket" before deleting it (forceDestroy)', 'bucket "full-bucket": 2 objects deleted']),
  );
});

test("partial failure: a create whose ACL step fails leaves the bucket in state (id, properties with __provider, reasons)", async () => {
  const fault = await tc.controlApi("POST", "/faults", { service: "object-storage", operation: "UpdateBucketAcl", action: "error", status: 500 });
  expect(fault.status).toBe(201);
  const args = { name: "half-made", acl: { public: "read-only" }, metadata: { owner: "team-a" } };

  const err = await rejection(tc.bucket.up(args));
  expect(err.id).toBe("half-made");
  expect(err.properties).toMatchObject({ name: "half-made", __provider: tc.bucket.providerText });
  expect(err.reasons).toEqual([expect.stringMatching(/setting the ACL of bucket "half-made"/)]);
  // Every field of the error, as the engine serialises it and as a log would print it.
  const everything = `${JSON.stringify(err)} ${inspect(err, { depth: 10, showHidden: true })}`;
  expect(everything).toContain("half-made");
  expect(everything).not.toContain(tc.config["krcloud:authToken"]);
  expect(inventory()).toEqual(["bucket:half-made"]);

  // The engine keeps {id, properties}; the next up is an update that finishes the job.
  expect((await tc.controlApi("DELETE", "/faults")).status).toBe(204);
  const partial = { id: err.id, inputs: err.properties, outputs: err.properties };
  const done = await tc.bucket.apply(partial, args);
  expect(done.outputs).toMatchObject({ acl: { public: "read-only" }, metadata: { owner: "team-a" } });
  expect((await tc.sdk.getBucket("half-made")).acl?.public).toBe("read-only");
});

test("a lost answer to CreateBucket does not orphan the bucket: the retry's 409 is recognised as our own create", async () => {
  const fault = await tc.controlApi("POST", "/faults", { service: "object-storage", operation: "CreateBucket", action: "lose-response", times: 1 });
  expect(fault.status).toBe(201);
  const state = await tc.bucket.up({ name: "lost-answer", metadata: { owner: "team-a" } });
  expect(state.id).toBe("lost-answer");
  expect(state.outputs).toMatchObject({ metadata: { owner: "team-a" } });
  expect(inventory()).toEqual(["bucket:lost-answer"]);
});

test("a bucket that already exists is not silently taken over when no answer was lost", async () => {
  await tc.sdk.createBucket({ name: "someone-elses" });
  const err = await rejection(tc.bucket.up({ name: "someone-elses" }));
  expect(err.message).toMatch(/already exists with this name .*set `adopt: true` on this resource/);
  expect(err.message.match(/creating bucket "someone-elses"/g)).toHaveLength(1);
});

describe("auto-naming", () => {
  test("without a name, check names the bucket <logical>-<suffix> within 4..63 characters, with no request", async () => {
    const before = tc.totalRequests();
    const a = await tc.bucket.check({}, {}, "Web_Assets");
    expect(a.failures).toEqual([]);
    expect(a.inputs.name).toMatch(/^web-assets-[0-9a-f]{7}$/);

    const long = await tc.bucket.check({}, {}, `Very-Long-${"x".repeat(80)}`);
    expect(long.failures).toEqual([]);
    expect((long.inputs.name as string).length).toBeLessThanOrEqual(63);
    expect(long.inputs.name).toMatch(/^very-long-x+-[0-9a-f]{7}$/);

    const short = await tc.bucket.check({}, {}, "a");
    expect(short.failures).toEqual([]);
    expect((short.inputs.name as string).length).toBeGreaterThanOrEqual(4);
    expect(tc.totalRequests()).toBe(before);
  });

  test("the generated name is kept from the old inputs and is accepted by the cloud", async () => {
    const state = await tc.bucket.up({}, "Media");
    expect(state.id).toMatch(/^media-[0-9a-f]{7}$/);
    expect(inventory()).toEqual([`bucket:${state.id}`]);

    const again = await tc.bucket.check(state.inputs, {}, "Media");
    expect(again.inputs.name).toBe(state.id);
    const { diff } = await tc.bucket.plan(state, {}, "Media");
    expect(diff.changes).toBe(false);
  });
});

test("a refresh reads each bucket with one request (its record names the project); another project's token is refused, never read as gone", async () => {
  const states = [];
  for (const name of ["reads-a", "reads-b", "reads-c"]) states.push(await tc.bucket.up({ name }));
  resetProjectChecks(); // as in a new provider process
  let before = tc.counts();
  await Promise.all(states.map((s) => tc.bucket.read(s.id, s.outputs)));
  expect(tc.countsSince(before)).toEqual({ GetBucketMeta: 3 });

  const other = tc.cloud.control.issueCredentials({ projectId: "krcloudtestother000000000000000b" });
  if (other.kind !== "token") throw new Error("expected a token credential");
  await tc.bucket.configure({ ...tc.config, "krcloud:authToken": other.token });
  try {
    before = tc.counts();
    const err = await rejection(tc.bucket.read(states[0]!.id, states[0]!.outputs));
    // Refused, not "gone": the extension API finds buckets in the token's project, so the read finds
    // nothing, and without the check that follows a refresh would drop the bucket from state.
    expect(err.message).toMatch(/the auth token \(krcloud:authToken\) does not belong to project "[^"]+" \(krcloud:projectId\)/);
    expect(tc.countsSince(before)).toEqual({ GetBucketMeta: 1, HeadAccount: 1 });
  } finally {
    await tc.bucket.configure(tc.config);
    resetProjectChecks();
  }
});
