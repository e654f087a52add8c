/**
 * The cache client's on-demand backups against a scripted loopback server. The cloud's public API
 * documentation shows `POST /v1/backups {clusterId, name}` -> `201 {objectId}` and `GET
 * /v1/backups?clusterName=…`; the record's fields, get and delete are guesses
 * (docs/api-assumptions.md), so the reader takes the other likely spellings too.
 */
import { isConflict, isNotFound } from "../../client/core";
import { backupKind, flattenBackup, flattenBackupList, isResponseFormatError } from "../../client/cache";
import { rejection } from "../support/assertions";
import { cacheClient, ok, wire } from "../support/cache/wire";
import { jsonReply as json, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const client = () => cacheClient(srv);

test("create: POST /v1/backups {clusterId, name}, 201 {objectId}, sent once (not idempotent) even when the answer is a 500", async () => {
  srv.route = () => ok("backup-1", 201);
  expect(await client().backups.create({ clusterId: "cluster-1", name: "sessions-keep-1" })).toEqual({ id: "backup-1" });
  expect(wire(srv.seen[0]!)).toEqual({ method: "POST", path: "/cache/v1/backups", query: {}, body: { clusterId: "cluster-1", name: "sessions-keep-1" } });

  srv.reset();
  srv.route = () => json(500, { code: "InternalError", message: "boom" });
  await rejection(client().backups.create({ clusterId: "cluster-1", name: "x" }));
  expect(srv.seen).toHaveLength(1);

  srv.reset();
  srv.route = () => json(409, { code: "DuplicateName", message: "exists" });
  expect(isConflict(await rejection(client().backups.create({ clusterId: "cluster-1", name: "x" })))).toBe(true);
});

test("list: by clusterName, or all; {backups}, {data}, {items} and a bare array", async () => {
  const item = { objectId: "backup-1", name: "b1", clusterName: "sessions" };
  for (const body of [{ backups: [item] }, { data: [item] }, { items: [item] }, [item]]) {
    srv.reset();
    srv.route = () => json(200, body);
    expect((await client().backups.list({ clusterName: "sessions" })).map((b) => b.id)).toEqual(["backup-1"]);
    expect(wire(srv.seen[0]!)).toMatchObject({ method: "GET", path: "/cache/v1/backups", query: { clusterName: "sessions" } });
  }
  srv.reset();
  srv.route = () => json(200, { backups: [] });
  await client().backups.list();
  expect(wire(srv.seen[0]!).query).toEqual({});
});

test("findByName: the cluster's list first, then the whole list (a service's filter may miss a deleted cluster's backups)", async () => {
  srv.route = (r) => json(200, { backups: new URL(r.url, "http://x").searchParams.has("clusterName") ? [] : [{ objectId: "backup-9", name: "kept" }] });
  expect((await client().backups.findByName("gone", "kept"))?.id).toBe("backup-9");
  expect(srv.seen.map((s) => wire(s).query)).toEqual([{ clusterName: "gone" }, {}]);
  expect(await client().backups.findByName("gone", "missing")).toBeUndefined();
});

test("get and delete by id (guessed); find answers undefined on 404; an empty id is refused before a request", async () => {
  srv.route = () => json(200, { objectId: "backup-1", name: "b1", status: "AVAILABLE", size: 1234 });
  expect(await client().backups.get("backup-1")).toMatchObject({ id: "backup-1", state: "available", sizeBytes: 1234 });
  expect(wire(srv.seen[0]!).path).toBe("/cache/v1/backups/backup-1");
  srv.route = () => json(404, { code: "BackupNotFound", message: "no" });
  expect(await client().backups.find("backup-1")).toBeUndefined();
  expect(isNotFound(await rejection(client().backups.delete("backup-1")))).toBe(true);
  srv.reset();
  srv.route = () => ({ status: 200 });
  expect(await client().backups.delete("backup-1")).toEqual({ id: "backup-1" });
  const before = srv.seen.length;
  await rejection(client().backups.get(" "));
  expect(srv.seen).toHaveLength(before);
});

describe("the record: the likely spellings of each field", () => {
  test("as the local cloud answers it", () => {
    // The fields read under the names they have on the wire; the others are renamed or derived.
    const kept = {
      name: "sessions-keep-1",
      clusterId: "cluster-1",
      clusterName: "sessions",
      clusterEnabled: true,
      version: "7.0.15",
      shardCount: 2,
      status: "Available",
      createdAt: "2026-11-28T03:00:00.000Z",
    };
    const raw = { objectId: "backup-1", ...kept, type: "manual", size: 52_000, expiresAt: null };
    expect(flattenBackup(raw, "reading")).toEqual({ id: "backup-1", ...kept, kind: "manual", state: "available", sizeBytes: 52_000, raw });
  });

  test("other names: id, backupName, sourceId, engineVersion, backupType, sizeBytes / backupSize / sizeMb, numeric strings, a wrapper", () => {
    expect(flattenBackup({ id: 7, backupName: "b", sourceId: "c-1", engineVersion: "7.2.4", backupType: "AUTO", sizeBytes: "99" }, "r")).toMatchObject({
      id: "7",
      name: "b",
      clusterId: "c-1",
      version: "7.2.4",
      kind: "automatic",
      sizeBytes: 99,
    });
    expect(flattenBackup({ backupId: "b-2", backupSize: 5 }, "r").sizeBytes).toBe(5);
    expect(flattenBackup({ backupId: "b-2", sizeMb: 2 }, "r").sizeBytes).toBe(2 * 1024 * 1024);
    expect(flattenBackup({ backup: { objectId: "b-3", clusterMode: false } }, "r")).toMatchObject({ id: "b-3", clusterEnabled: false });
  });

  test("a record without an id is a format error; a field of the wrong type is left out", () => {
    expect(isResponseFormatError(rejectionSync(() => flattenBackup({ name: "x" }, "reading")))).toBe(true);
    expect(flattenBackup({ objectId: "b", size: "big", shardCount: {} }, "r")).toEqual({ id: "b", raw: { objectId: "b", size: "big", shardCount: {} } });
    expect(flattenBackupList(undefined, "r")).toEqual([]);
  });

  test("its ids are read as every cache record's: an empty or malformed objectId gives way to id, as a cluster's does", () => {
    expect(flattenBackup({ objectId: "", id: "b-3" }, "r").id).toBe("b-3");
    expect(flattenBackup({ objectId: { v: 1 }, id: 9 }, "r").id).toBe("9");
    expect(isResponseFormatError(rejectionSync(() => flattenBackup({ objectId: "" }, "reading")))).toBe(true);
  });

  test.each([
    ["automatic", "automatic"],
    ["AUTOMATED", "automatic"],
    ["scheduled", "automatic"],
    ["Manual", "manual"],
    ["on-demand", "manual"],
    ["ON_DEMAND", "manual"],
    ["USER", "manual"],
    ["replica-copy", "replica-copy"],
  ])("kind %s reads as %s", (value, kind) => {
    expect(backupKind(value)).toBe(kind);
  });
});

function rejectionSync(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a throw");
}
