/**
 * Conformance: the client's Swift-compatible calls against two servers, the local cloud (always) and a
 * real OpenStack Swift 2.30 (when `KRCLOUD_SWIFT_AUTH_URL` is set; `make test` starts it with
 * scripts/swift-peer.sh). One suite, run for each target by `describe.each`.
 *
 * Where the spec (which the local cloud follows) and Swift differ, the target's `expect` table
 * states what each one does, and the test asserts exactly that, so a change on either side shows
 * up. The client itself is written to work with both (see its comments).
 */
import { createHash, randomBytes } from "node:crypto";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { closeAllPools, isApiError, isConflict, isNotFound, isUnauthorized, resolveSettings, type Settings } from "../../client/core";
import { ObjectStorageClient, type ObjectListEntry } from "../../client/objectstorage";
import { rejection } from "../support/assertions";

interface Expectations {
  /** Raw statuses of operations whose success code differs between the spec and Swift. */
  status: {
    headContainer: number;
    createExistingContainer: number;
    postObject: number;
    getDlo: number;
    move: number;
    /** SLO manifest PUT with a segment etag that does not match. */
    sloMismatch: number;
    /** `GET ?temp_url&temp_url_expires=` with a valid token (the spec's CreateTempUrl). */
    createTempUrl: number;
    /** `POST ?uploads` on an object that does not exist (the spec's InitiateMultipartUpload). */
    initiateMultipart: number;
  };
  storagePolicy: string;
  /** `X-Container-Bytes-Used-Actual` (an RGW header) is sent. */
  bytesUsedActual: boolean;
  accountListingLimit: number;
  tempUrlMethods: string[];
  /** The service creates temp URLs; otherwise the client signs them with a Temp-URL-Key. */
  createsTempUrls: boolean;
  /** The spec's multipart upload (`?uploads`) exists. */
  multipart: boolean;
  /** MOVE exists (upstream Swift has none: 405). */
  move: boolean;
}

interface Target {
  name: string;
  /** Why the target is skipped; undefined when it runs. */
  skip?: string;
  expect: Expectations;
  start(): Promise<{ settings: Settings; stop: () => Promise<void> }>;
}

const localCloud: Target = {
  name: "the local cloud",
  expect: {
    status: {
      headContainer: 200,
      createExistingContainer: 202,
      postObject: 200,
      getDlo: 200,
      move: 201,
      sloMismatch: 400,
      createTempUrl: 200,
      initiateMultipart: 201,
    },
    storagePolicy: "default-placement",
    bytesUsedActual: true,
    accountListingLimit: 1000,
    tempUrlMethods: ["GET"],
    createsTempUrls: true,
    multipart: true,
    move: true,
  },
  async start() {
    const cloud: LocalCloud = await startLocalCloud({ port: 0 });
    const res = await fetch(`${cloud.controlUrl}/credentials`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "token" }),
    });
    if (res.status !== 201) throw new Error(`issuing local cloud credentials: ${res.status} ${await res.text()}`);
    const cred = (await res.json()) as { projectId: string; token: string };
    return {
      settings: resolveSettings(
        { projectId: cred.projectId, authToken: cred.token, endpoints: { objectstorage: cloud.endpoints["object-storage"] } },
        () => undefined,
        {},
      ),
      stop: () => cloud.close(),
    };
  },
};

const swiftAuthUrl = process.env.KRCLOUD_SWIFT_AUTH_URL;
const swift: Target = {
  name: "OpenStack Swift 2.30",
  skip: swiftAuthUrl ? undefined : "KRCLOUD_SWIFT_AUTH_URL is not set; `make test` starts Swift (scripts/swift-peer.sh) and sets it",
  expect: {
    status: {
      headContainer: 204,
      createExistingContainer: 202,
      postObject: 202,
      getDlo: 200,
      move: 405,
      sloMismatch: 400,
      createTempUrl: 401,
      initiateMultipart: 404,
    },
    storagePolicy: "Policy-0",
    bytesUsedActual: false,
    accountListingLimit: 10000,
    tempUrlMethods: ["GET", "HEAD", "PUT", "POST", "DELETE"],
    createsTempUrls: false,
    multipart: false,
    move: false,
  },
  async start() {
    // tempauth v1.0: the storage URL `http://127.0.0.1:8280/v1/AUTH_test` splits into the base URL
    // and the project (account) ID the client puts back together.
    const res = await fetch(swiftAuthUrl!, {
      headers: { "x-auth-user": process.env.KRCLOUD_SWIFT_USER ?? "test:tester", "x-auth-key": process.env.KRCLOUD_SWIFT_KEY ?? "testing" },
    });
    const token = res.headers.get("x-auth-token");
    const storage = res.headers.get("x-storage-url");
    if (res.status >= 300 || !token || !storage) throw new Error(`Swift tempauth at ${swiftAuthUrl}: ${res.status}`);
    const u = new URL(storage);
    const parts = u.pathname.split("/").filter(Boolean);
    const projectId = decodeURIComponent(parts.pop()!);
    const prefix = parts
      .slice(0, -1)
      .map((p) => `/${p}`)
      .join("");
    return {
      settings: resolveSettings({ projectId, authToken: token, endpoints: { objectstorage: `${u.origin}${prefix}` } }, () => undefined, {}),
      stop: async () => undefined,
    };
  },
};

const TARGETS = [localCloud, swift];

const md5 = (b: Buffer | string) => createHash("md5").update(b).digest("hex");
const names = (entries: ObjectListEntry[]) => entries.map((e) => (e.kind === "object" ? e.name : `${e.subdir} (subdir)`));

function suite(t: Target): void {
  const x = t.expect;
  let c: ObjectStorageClient;
  let settings: Settings;
  let stop: () => Promise<void> = async () => undefined;
  const created: string[] = [];
  const run = randomBytes(3).toString("hex");
  let seq = 0;

  /** A fresh bucket, removed (with its objects) after the suite. Lower-case, 4-63 characters. */
  async function bucket(metadata?: Record<string, string>): Promise<string> {
    const name = `conf-${run}-${++seq}`;
    await c.createContainer(name, { metadata });
    created.push(name);
    return name;
  }

  /** Raw status of a request, for the differences the client smooths over. */
  async function status(
    method: string,
    path: string,
    o: { query?: Record<string, string | boolean>; headers?: Record<string, string>; body?: string } = {},
  ): Promise<number> {
    const res = await c.transport.request({ operation: "Raw", method, path, idempotent: false, ...o, expect: Array.from({ length: 500 }, (_, i) => i + 100) });
    return res.status;
  }
  const objPath = (b: string, k: string) => `/v1/${settings.projectId}/${b}/${k}`;

  beforeAll(async () => {
    const started = await t.start();
    stop = started.stop;
    settings = started.settings;
    c = new ObjectStorageClient({ settings });
  });

  afterAll(async () => {
    for (const b of created) {
      await c.emptyBucket(b).catch(() => undefined);
      await c.deleteContainer(b).catch(() => undefined);
    }
    await closeAllPools();
    await stop();
  });

  test("capabilities: /info without a token", async () => {
    const info = await c.getInfo();
    expect(typeof info.swift.version).toBe("string");
    expect(info.swift.accountListingLimit).toBe(x.accountListingLimit);
    expect(info.tempurl?.methods).toEqual(x.tempUrlMethods);
    expect(info.slo?.maxManifestSegments).toBe(1000);
  });

  test("containers: create (twice), head, list, delete; the raw statuses per target", async () => {
    const b = await bucket({ Owner: "conformance" });
    await c.createContainer(b);
    const head = await c.headContainer(b);
    expect(head).toMatchObject({ name: b, objectCount: 0, bytesUsed: 0, storagePolicy: x.storagePolicy, metadata: { owner: "conformance" } });
    expect(head.bytesUsedActual !== undefined).toBe(x.bytesUsedActual);
    expect(typeof head.timestamp).toBe("number");
    expect(await status("HEAD", `/v1/${settings.projectId}/${b}`)).toBe(x.status.headContainer);
    expect(await status("PUT", `/v1/${settings.projectId}/${b}`, { headers: { "content-length": "0" }, body: "" })).toBe(x.status.createExistingContainer);
    expect(await c.listContainers()).toContain(b);

    const gone = `conf-${run}-gone`;
    await c.createContainer(gone);
    await c.deleteContainer(gone);
    expect(await c.findContainer(gone)).toBeUndefined();
    expect(isNotFound(await rejection(c.deleteContainer(gone)))).toBe(true);
  });

  test("container metadata: set and remove in one request, other keys kept", async () => {
    const b = await bucket();
    await c.updateContainerMetadata(b, { Alpha: "1", beta: "2" });
    await c.updateContainerMetadata(b, { gamma: "3" }, ["alpha"]);
    expect((await c.headContainer(b)).metadata).toEqual({ beta: "2", gamma: "3" });
  });

  test("a container holding objects cannot be deleted (409)", async () => {
    const b = await bucket();
    await c.putObject(b, "x", "x");
    expect(isConflict(await rejection(c.deleteContainer(b)))).toBe(true);
  });

  test("objects: put, head, get, metadata POST (replaces), delete", async () => {
    const b = await bucket();
    const body = Buffer.from("hello, object storage\n");
    const put = await c.putObject(b, "docs/readme.txt", body, { contentType: "text/plain", metadata: { Color: "blue", size: "small" } });
    expect(put.etag).toBe(md5(body));

    const head = await c.headObject(b, "docs/readme.txt");
    expect(head).toMatchObject({
      contentType: "text/plain",
      contentLength: body.length,
      etag: md5(body),
      metadata: { color: "blue", size: "small" },
      staticLargeObject: false,
    });
    const got = await c.getObject(b, "docs/readme.txt");
    expect(got.body.equals(body)).toBe(true);

    await c.setObjectMetadata(b, "docs/readme.txt", { color: "red" });
    expect((await c.headObject(b, "docs/readme.txt")).metadata).toEqual({ color: "red" });
    expect(await status("POST", objPath(b, "docs/readme.txt"), { headers: { "x-object-meta-color": "green", "content-length": "0" }, body: "" })).toBe(
      x.status.postObject,
    );

    await c.deleteObject(b, "docs/readme.txt");
    expect(await c.findObject(b, "docs/readme.txt")).toBeUndefined();
    expect(await c.deleteObjectIfExists(b, "docs/readme.txt")).toBe(false);
    expect(isNotFound(await rejection(c.getObject(b, "docs/readme.txt")))).toBe(true);
  });

  test("object names with spaces, unicode and reserved characters round-trip", async () => {
    const b = await bucket();
    const key = "dir one/a b+c%d#e?f&g=é.txt";
    await c.putObject(b, key, "odd");
    expect((await c.getObject(b, key)).body.toString()).toBe("odd");
    expect(names(await c.listAllObjects(b))).toEqual([key]);
  });

  test("folders: a zero-byte application/directory object", async () => {
    const b = await bucket();
    await c.createFolder(b, "photos/2024", { purpose: "album" });
    const head = await c.headObject(b, "photos/2024/");
    expect(head).toMatchObject({ contentType: "application/directory", contentLength: 0, metadata: { purpose: "album" } });
  });

  test("copy: Destination /{bucket}/{path} or {bucket}/{path}, across buckets, metadata merged", async () => {
    const a = await bucket();
    const b = await bucket();
    await c.putObject(a, "src.txt", "copy me", { contentType: "text/plain", metadata: { origin: "a" } });
    await c.copyObject(a, "src.txt", b, "dst/copied.txt", { metadata: { extra: "yes" } });
    const copied = await c.getObject(b, "dst/copied.txt");
    expect(copied.body.toString()).toBe("copy me");
    expect(copied.metadata).toEqual({ origin: "a", extra: "yes" });
    const relative = new ObjectStorageClient({ settings: settings, destinationStyle: "relative" });
    await relative.copyObject(a, "src.txt", a, "src-copy.txt");
    expect((await c.getObject(a, "src-copy.txt")).body.toString()).toBe("copy me");
  });

  test("move: the spec's MOVE, or (Swift: 405) copy + delete when asked", async () => {
    const b = await bucket();
    await c.putObject(b, "m1.txt", "move me");
    expect(await status("MOVE", objPath(b, "m1.txt"), { headers: { destination: `/${b}/m2.txt` } })).toBe(x.status.move);
    if (!x.move) {
      const err = await rejection(c.moveObject(b, "m1.txt", b, "m2.txt"));
      expect(isApiError(err) && err.status).toBe(405);
      await c.moveObject(b, "m1.txt", b, "m2.txt", { fallbackToCopy: true });
    }
    expect(await c.findObject(b, "m1.txt")).toBeUndefined();
    expect((await c.getObject(b, "m2.txt")).body.toString()).toBe("move me");
  });

  test("listing (format=json): prefix, delimiter with subdirs, marker pagination", async () => {
    const b = await bucket();
    for (const k of ["a/1", "a/2", "a/3", "b/1", "c"]) await c.putObject(b, k, k);
    const page1 = await c.listObjects(b, { limit: 2 });
    expect(names(page1.entries)).toEqual(["a/1", "a/2"]);
    expect(page1.nextMarker).toBe("a/2");
    const page2 = await c.listObjects(b, { limit: 2, marker: page1.nextMarker });
    expect(names(page2.entries)).toEqual(["a/3", "b/1"]);
    expect(names(await c.listAllObjects(b, { limit: 2 }))).toEqual(["a/1", "a/2", "a/3", "b/1", "c"]);
    expect(names(await c.listAllObjects(b, { prefix: "a/" }))).toEqual(["a/1", "a/2", "a/3"]);
    expect(names(await c.listAllObjects(b, { delimiter: "/" }))).toEqual(["a/ (subdir)", "b/ (subdir)", "c"]);
    expect(names(await c.listAllObjects(b, { delimiter: "/", limit: 1 }))).toEqual(["a/ (subdir)", "b/ (subdir)", "c"]);
    const entry = (await c.listObjects(b, { prefix: "c" })).entries[0]!;
    expect(entry).toMatchObject({ kind: "object", name: "c", bytes: 1, hash: md5("c") });
    expect(names((await c.listObjects(b, { marker: "a/2" })).entries)).toEqual(["a/3", "b/1", "c"]);
  });

  test("DLO: the manifest assembles the segments under the prefix, in name order", async () => {
    const b = await bucket();
    await c.putDloManifest(b, "movie.bin", "movie.bin-segments/");
    for (const [i, part] of ["one-", "two-", "three"].entries()) await c.putObject(b, `movie.bin-segments/${String(i).padStart(3, "0")}`, part);
    const got = await c.getObject(b, "movie.bin");
    expect(got.body.toString()).toBe("one-two-three");
    expect(got.dloManifest).toBe(`${b}/movie.bin-segments/`);
    expect(await status("GET", objPath(b, "movie.bin"))).toBe(x.status.getDlo);
  });

  test("SLO: manifest with etags and sizes, assembled GET, manifest GET, delete with segments", async () => {
    const b = await bucket();
    const segs = ["alpha-", "beta-", "gamma"];
    for (const [i, s] of segs.entries()) await c.putObject(b, `slo-seg/${i}`, s);
    await c.putSloManifest(
      b,
      "big.txt",
      segs.map((s, i) => ({ path: `${b}/slo-seg/${i}`, etag: md5(s), sizeBytes: s.length })),
    );
    const got = await c.getObject(b, "big.txt");
    expect(got.body.toString()).toBe("alpha-beta-gamma");
    expect(got.staticLargeObject).toBe(true);
    expect(await c.getSloManifest(b, "big.txt")).toEqual(segs.map((s, i) => ({ path: `${b}/slo-seg/${i}`, etag: md5(s), sizeBytes: s.length })));
    const del = await c.deleteSlo(b, "big.txt");
    expect(del.deleted).toBe(segs.length + 1);
    expect(names(await c.listAllObjects(b))).toEqual([]);
  });

  test("SLO: a mismatched segment etag is refused and creates no manifest", async () => {
    const b = await bucket();
    await c.putObject(b, "seg", "segment");
    const err = await rejection(c.putSloManifest(b, "bad.txt", [{ path: `${b}/seg`, etag: md5("something else"), sizeBytes: 7 }]));
    expect(isApiError(err) && err.status).toBe(x.status.sloMismatch);
    expect(err.message).toMatch(/^creating static large object/);
    expect(await c.findObject(b, "bad.txt")).toBeUndefined();
  });

  test("temp URL: token-less download (created by the service, or signed with Swift's scheme)", async () => {
    const b = await bucket();
    await c.putObject(b, "share/report.txt", "shared content", { contentType: "text/plain" });
    const expires = Math.floor(Date.now() / 1000) + 600;
    expect(await status("GET", objPath(b, "share/report.txt"), { query: { temp_url: true, temp_url_expires: String(expires) } })).toBe(x.status.createTempUrl);
    let url: string;
    if (x.createsTempUrls) {
      url = (await c.createTempUrl(b, "share/report.txt", expires)).absoluteUrl;
    } else {
      expect(isUnauthorized(await rejection(c.createTempUrl(b, "share/report.txt", expires)))).toBe(true);
      const key = randomBytes(16).toString("hex");
      await c.setTempUrlKey(key, { bucket: b });
      url = c.signedTempUrl(b, "share/report.txt", { tempUrlKey: key, expires });
    }
    const d = await c.downloadWithTempUrl(url, "report copy.txt");
    expect(d.body.toString()).toBe("shared content");
    expect(d.contentDisposition).toContain("report");

    const tampered = new URL(url);
    tampered.searchParams.set("temp_url_sig", "0".repeat(64));
    const err = await rejection(c.downloadWithTempUrl(tampered.toString()));
    expect(isApiError(err) && err.status).toBe(401);
    expect(err.message).not.toContain(new URL(url).searchParams.get("temp_url_sig")!);
  });

  test("multipart upload (spec 4.4; not in native Swift)", async () => {
    const b = await bucket();
    expect(await status("POST", objPath(b, "probe.bin"), { query: { uploads: true }, headers: { "content-length": "0" }, body: "" })).toBe(
      x.status.initiateMultipart,
    );
    if (!x.multipart) {
      expect(isNotFound(await rejection(c.uploadLarge(b, "large.bin", Buffer.alloc(10))))).toBe(true);
      return;
    }
    const body = randomBytes(5 * 1024 * 1024 + 1234);
    const done: number[] = [];
    await c.uploadLarge(b, "large.bin", body, {
      partSize: 5 * 1024 * 1024,
      contentType: "application/x-test",
      metadata: { kind: "mp" },
      onProgress: (n) => done.push(n),
    });
    expect(done).toEqual([1, 2]);
    const got = await c.getObject(b, "large.bin");
    expect(got.body.equals(body)).toBe(true);
    expect(got).toMatchObject({ contentType: "application/x-test", metadata: { kind: "mp" } });
  });

  test("emptyBucket removes objects, folders, DLO/SLO manifests and segments; the bucket can then be deleted", async () => {
    const b = await bucket();
    await c.createFolder(b, "dir");
    await c.putObject(b, "dir/file", "f");
    for (let i = 0; i < 25; i++) await c.putObject(b, `many/${String(i).padStart(2, "0")}`, `${i}`);
    await c.putObject(b, "dlo-seg/0", "d");
    await c.putDloManifest(b, "dlo", "dlo-seg/");
    await c.putObject(b, "slo-seg/0", "s");
    await c.putSloManifest(b, "slo", [{ path: `${b}/slo-seg/0` }]);
    const progress: number[] = [];
    const deleted = await c.emptyBucket(b, { onProgress: (n) => progress.push(n) });
    expect(deleted).toBe(31);
    expect(progress[progress.length - 1]).toBe(31);
    expect(await c.listAllObjects(b)).toEqual([]);
    await c.deleteContainer(b);
    expect(await c.findContainer(b)).toBeUndefined();
  });
}

describe.each(TARGETS.filter((t) => !t.skip))("object storage Swift API against $name", suite);
for (const t of TARGETS.filter((t) => t.skip)) {
  describe.skip(`object storage Swift API against ${t.name} (skipped: ${t.skip})`, () => suite(t));
}
