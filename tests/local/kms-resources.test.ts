/**
 * Key management against the local cloud (real AES-GCM, ECDSA and HMAC): Ciphertext and DataKey as
 * the engine drives them, and the functions programs call.
 */
import { createHmac, verifyHmac, verifySignature, sign, decrypt, decryptOutput } from "../../provider/kms/functions";
import * as pulumi from "@pulumi/pulumi";
import { KmsClient } from "../../client/kms";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";
import { putRecords } from "../support/local-cloud/records";

let tc: TestCloud;
let ciphertext: EngineResource;
let dataKey: EngineResource;
let kms: KmsClient;

const seed = (c: TestCloud) => putRecords(c, "kms/key", { "sym-1": { type: "symmetric" }, "sign-1": { type: "asymmetric" }, "mac-1": { type: "mac" } });
testCloudForFile({ service: "kms", seed }, async (c) => {
  tc = c;
  ciphertext = await tc.resource("krcloud:kms:Ciphertext");
  dataKey = await tc.resource("krcloud:kms:DataKey");
  kms = new KmsClient({ settings: tc.settings });
});

const SECRET = "db-password-Zq9!";

test("Ciphertext: encrypted once; decrypts back with the same AAD and fails with another; refresh and delete make no call", async () => {
  const state = await ciphertext.up({ keyId: "sym-1", plaintext: SECRET, aad: "service=billing" });
  expect(state.outputs).toMatchObject({ keyVersion: 1, ciphertext: expect.stringMatching(/^kms:1:/) });
  expect(state.id).toMatch(/^[0-9a-f]{32}$/);
  const c = state.outputs.ciphertext as string;
  expect(await kms.decrypt("sym-1", { ciphertext: c, aad: "service=billing" })).toBe(SECRET);
  expect((await rejection(kms.decrypt("sym-1", { ciphertext: c, aad: "service=other" }))).message).toMatch(/400 DecryptionFailed/);

  const before = tc.totalRequests();
  const refreshed = (await ciphertext.refresh(state))!;
  expect((await ciphertext.plan(refreshed, { keyId: "sym-1", plaintext: SECRET, aad: "service=billing" })).diff.changes).toBe(false);
  await ciphertext.destroy(refreshed);
  expect(tc.totalRequests()).toBe(before);
});

test("Ciphertext: a key rotation does not re-encrypt; changing the plaintext or triggers replaces with a new ciphertext", async () => {
  const state = await ciphertext.up({ keyId: "sym-1", plaintext: SECRET });
  await tc.controlApi("PATCH", "/resources/kms/key/sym-1", { rotate: true });
  expect((await ciphertext.plan(state, { keyId: "sym-1", plaintext: SECRET })).diff.changes).toBe(false);
  expect((await ciphertext.plan(state, { keyId: "sym-1", plaintext: "new" })).diff.replaces).toEqual(["plaintext"]);
  const rotated = await ciphertext.up({ keyId: "sym-1", plaintext: SECRET, triggers: { rotation: "2" } });
  expect(rotated.outputs.keyVersion).toBe(2);
  // The old ciphertext still decrypts: its prefix names version 1.
  expect(await kms.decrypt("sym-1", { ciphertext: state.outputs.ciphertext as string })).toBe(SECRET);
});

test("Ciphertext: bad input is rejected in check, no request sent; a deactivated key refuses to encrypt but still decrypts", async () => {
  const before = tc.totalRequests();
  const { failures } = await ciphertext.check({}, { keyId: "sym-1", plaintext: "x".repeat(4097) });
  expect(failures).toEqual([
    { property: "plaintext", reason: "plaintext: plaintext must be at most 4096 bytes (counted in UTF-8; a limit of the key management service)" },
  ]);
  expect(tc.totalRequests()).toBe(before);

  const state = await ciphertext.up({ keyId: "sym-1", plaintext: SECRET });
  await tc.controlApi("PATCH", "/resources/kms/key/sym-1", { state: "Deactivated" });
  expect((await rejection(ciphertext.up({ keyId: "sym-1", plaintext: "later" }))).message).toMatch(/encrypting with KMS key "sym-1".*KeyNotActive/);
  expect((await decrypt({ keyId: "sym-1", ciphertext: state.outputs.ciphertext as string })).plaintext).toBe(SECRET);
});

test("DataKey: a plaintext key and its ciphertext, which decrypts to it; wrong key type is the service's 400", async () => {
  const state = await dataKey.up({ keyId: "sym-1" });
  const plain = Buffer.from(state.outputs.plaintext as string, "base64");
  expect(plain).toHaveLength(32);
  expect(state.outputs.keyVersion).toBe(1);
  expect((await rejection(dataKey.up({ keyId: "mac-1" }))).message).toMatch(/400 InvalidKeyUsage/);
});

test("functions: sign and verify, HMAC create and verify, decrypt as a secret Output", async () => {
  const content = Buffer.from("release 1.2.3").toString("base64");
  const { signature } = await sign({ keyId: "sign-1", content });
  expect((await verifySignature({ keyId: "sign-1", input: content, output: signature })).valid).toBe(true);
  expect((await verifySignature({ keyId: "sign-1", input: Buffer.from("other").toString("base64"), output: signature })).valid).toBe(false);
  const { hmac } = await createHmac({ keyId: "mac-1", content });
  expect((await verifyHmac({ keyId: "mac-1", input: content, output: hmac })).valid).toBe(true);
  expect((await verifyHmac({ keyId: "mac-1", input: content, output: Buffer.alloc(32).toString("base64") })).valid).toBe(false);

  const { ciphertext: c } = await kms.encrypt("sym-1", { input: SECRET });
  const out = decryptOutput({ keyId: "sym-1", ciphertext: c });
  expect(await pulumi.isSecret(out)).toBe(true);
  expect(await new Promise((resolve) => out.apply((v) => resolve(v.plaintext)))).toBe(SECRET);
});
