/**
 * krcloud:objectstorage:BucketCors driven as the Pulumi engine drives it, against the local cloud
 * over loopback HTTP: basic, update (rule order), replace, disappears, adopt, bad input, drift.
 */
import { request } from "undici";
import type { CorsRule } from "../../client/objectstorage";
import { rejection, type TestCloud } from "../support/local-cloud";
import { expectBucketDocumentGone, expectCheckNames, testCloudForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
testCloudForFile({ bucket: "web-assets" }, (c) => (tc = c));

const APP: CorsRule = { allowedOrigins: ["https://app.example.com"], allowedMethods: ["GET", "PUT"], allowedHeaders: ["content-type"], maxAgeSeconds: 600 };
const ANY_SUB: CorsRule = { allowedOrigins: ["https://*.example.com"], allowedMethods: ["GET"] };
const LOCAL: CorsRule = { allowedOrigins: ["http://localhost:8080"], allowedMethods: ["GET", "POST", "DELETE"], exposeHeaders: ["etag"] };

/** A browser preflight for `origin` against an object URL of the bucket. */
async function preflight(bucket: string, origin: string, method = "GET") {
  const res = await request(`${tc.settings.endpoints.objectstorage}/v1/${tc.projectId}/${bucket}/index.html`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method },
  });
  await res.body.dump();
  return { status: res.statusCode, allowOrigin: res.headers["access-control-allow-origin"] };
}

test("basic: create sets the policy browsers see, read returns it, refresh shows no diff", async () => {
  const state = await tc.cors.up({ bucket: "web-assets", rules: [APP, ANY_SUB] });

  expect(state.id).toBe("web-assets");
  expect(state.outputs).toMatchObject({ bucket: "web-assets", rules: [APP, ANY_SUB], adopt: false, __provider: tc.cors.providerText });
  expect(await tc.sdk.getCors("web-assets")).toMatchObject([APP, ANY_SUB]);
  expect(tc.cloud.control.inventory().map((e) => e.kind)).toEqual(["bucket", "bucket-cors"]);
  expect(await preflight("web-assets", "https://cdn.example.com")).toEqual({ status: 204, allowOrigin: "https://cdn.example.com" });
  expect((await preflight("web-assets", "https://evil.test")).status).toBe(403);

  const read = await tc.cors.read(state.id, state.outputs);
  expect(read).toMatchObject({ id: "web-assets", props: { bucket: "web-assets", rules: [APP, ANY_SUB] } });
  const refreshed = (await tc.cors.refresh(state))!;
  const { diff } = await tc.cors.plan(refreshed, { bucket: "web-assets", rules: [APP, ANY_SUB] });
  expect(diff.changes).toBe(false);
});

test("empty header lists are the same as none: no diff after a refresh", async () => {
  const args = { bucket: "web-assets", rules: [{ ...ANY_SUB, allowedHeaders: [], exposeHeaders: [] }] };
  const state = await tc.cors.up(args);
  const refreshed = (await tc.cors.refresh(state))!;
  expect((await tc.cors.plan(refreshed, args)).diff.changes).toBe(false);
});

test("update in place: a new rule order is a change, applied with one PutBucketCors", async () => {
  const state = await tc.cors.up({ bucket: "web-assets", rules: [APP, ANY_SUB, LOCAL] });
  const before = tc.counts();

  const next = await tc.cors.apply(state, { bucket: "web-assets", rules: [LOCAL, APP, ANY_SUB] });

  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  expect(tc.countsSince(before).PutBucketCors).toBe(1);
  // Order matters to the service (first match wins), so it must be kept exactly.
  expect(await tc.sdk.getCors("web-assets")).toMatchObject([LOCAL, APP, ANY_SUB]);
  expect(next.outputs.rules).toMatchObject([LOCAL, APP, ANY_SUB]);
});

test("replace: moving the policy to another bucket replaces it; the old bucket is left without CORS", async () => {
  await tc.sdk.createBucket({ name: "web-assets-2" });
  const state = await tc.cors.up({ bucket: "web-assets", rules: [APP] });

  const { inputs, diff } = await tc.cors.plan(state, { bucket: "web-assets-2", rules: [APP] });
  expect(diff).toMatchObject({ changes: true, replaces: ["bucket"], deleteBeforeReplace: false });

  // The engine's create-before-delete sequence.
  const replacement = await tc.cors.create(inputs);
  await tc.cors.destroy(state);
  expect(replacement.id).toBe("web-assets-2");
  expect(await tc.sdk.getCors("web-assets-2")).toMatchObject([APP]);
  expect(await tc.sdk.getCors("web-assets")).toEqual([]);
});

test("disappears: a policy removed behind the provider's back reads as gone; so does one whose bucket is gone", async () => {
  await expectBucketDocumentGone(tc, tc.cors, "bucket-cors", { bucket: "web-assets", rules: [APP] });
});

test("adopt: an existing different policy fails the create unless adopt is set, which replaces it", async () => {
  await tc.sdk.putCors("web-assets", [LOCAL]);
  const args = { bucket: "web-assets", rules: [APP, ANY_SUB] };

  const err = await rejection(tc.cors.up(args));
  expect(err.message).toMatch(/web-assets/);
  expect(err.message).toMatch(/already has a CORS policy/);
  expect(err.message).toMatch(/set adopt: true/);
  expect(await tc.sdk.getCors("web-assets")).toMatchObject([LOCAL]);

  const state = await tc.cors.up({ ...args, adopt: true });
  expect(state.outputs).toMatchObject({ adopt: true, rules: [APP, ANY_SUB] });
  expect(await tc.sdk.getCors("web-assets")).toMatchObject([APP, ANY_SUB]);
  // adopt is provider-only: a refresh keeps it, so there is no diff.
  const refreshed = (await tc.cors.refresh(state))!;
  expect((await tc.cors.plan(refreshed, { ...args, adopt: true })).diff.changes).toBe(false);
});

describe("bad input is rejected in check with the property path, and no request is sent", () => {
  const cases: [string, unknown[], string, RegExp][] = [
    ["more than 10 rules", Array.from({ length: 11 }, () => ANY_SUB), "rules", /at most 10/],
    ["origin without protocol", [{ allowedOrigins: ["app.example.com"], allowedMethods: ["GET"] }], "rules[0].allowedOrigins[0]", /protocol/],
    ["two '*' in an origin", [APP, { allowedOrigins: ["https://*.*.example.com"], allowedMethods: ["GET"] }], "rules[1].allowedOrigins[0]", /at most one '\*'/],
    ["non-ASCII origin", [{ allowedOrigins: ["https://예시.kr"], allowedMethods: ["GET"] }], "rules[0].allowedOrigins[0]", /printable ASCII/],
    [
      "header name with a space",
      [{ allowedOrigins: ["https://a.example.com"], allowedMethods: ["GET"], allowedHeaders: ["x bad"] }],
      "rules[0].allowedHeaders[0]",
      /header name/,
    ],
    ["bad method", [{ allowedOrigins: ["https://a.example.com"], allowedMethods: ["GET", "PATCH"] }], "rules[0].allowedMethods[1]", /PUT|POST|GET|DELETE/],
    ["no rules", [], "rules", /at least one rule/],
    ["negative max age", [{ ...APP, maxAgeSeconds: -1 }], "rules[0].maxAgeSeconds", /^rules\[0\]\.maxAgeSeconds: must be 0 or more seconds$/],
  ];

  test.each(cases)("%s", async (_what, rules, property, reason) => {
    await expectCheckNames(tc, tc.cors, "cors", { bucket: "web-assets", rules }, property, reason);
  });
});

test("drift: a policy changed outside Pulumi shows in read and in the next diff, and the next up restores it", async () => {
  const args = { bucket: "web-assets", rules: [APP] };
  const state = await tc.cors.up(args);
  const patched = await tc.controlApi("PATCH", "/resources/object-storage/bucket-cors/web-assets", {
    cors: [{ allowed_origins: ["https://other.test"], allowed_methods: ["GET"] }],
  });
  expect(patched.status).toBe(200);

  const refreshed = (await tc.cors.refresh(state))!;
  expect(refreshed.outputs.rules).toMatchObject([{ allowedOrigins: ["https://other.test"], allowedMethods: ["GET"] }]);
  const { diff } = await tc.cors.plan(refreshed, args);
  expect(diff).toMatchObject({ changes: true, replaces: [] });

  await tc.cors.apply(refreshed, args);
  expect(await tc.sdk.getCors("web-assets")).toMatchObject([APP]);
});
