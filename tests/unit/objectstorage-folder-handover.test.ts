/**
 * Which objects a BucketObject's delete leaves to a BucketFolder (provider/objectstorage/folder/handover.ts):
 * the folder's claim in the bucket's metadata, refined by what this process knows of the folder's
 * files. A fake client answers the one metadata read; nothing else is sent.
 */
import type { ObjectStorageClient } from "../../client/objectstorage";
import {
  claimKey,
  claimValue,
  folderDeleting,
  folderHolding,
  knowFolder,
  parseClaim,
  prefixesOf,
  takeLeft,
} from "../../provider/objectstorage/folder/handover";

/** A client whose buckets hold `metadata`; counts the reads. */
function fakeClient(buckets: Record<string, Record<string, string>>): ObjectStorageClient & { reads: number } {
  const c = {
    reads: 0,
    findContainer(name: string) {
      c.reads++;
      const metadata = buckets[name];
      return Promise.resolve(metadata === undefined ? undefined : { name, metadata });
    },
  };
  return c as unknown as ObjectStorageClient & { reads: number };
}

test("a key may sit under the root or under any of its folders; a folder object's own key is not under itself", () => {
  expect(prefixesOf("site/css/a.css")).toEqual(["site/css/", "site/", ""]);
  expect(prefixesOf("a.txt")).toEqual([""]);
  expect(prefixesOf("site/css/")).toEqual(["site/", ""]);
});

test("a claim is printable ASCII of at most 512 characters; excludes too long to fit are dropped, which claims every key under the prefix", () => {
  const v = claimValue("0123456789abcdef", ["logs/**", "é/*"]);
  expect(v).toMatch(/^[\x20-\x7e]+$/);
  expect(parseClaim(v)).toEqual({ owner: "0123456789abcdef", exclude: ["logs/**", "é/*"] });
  const long = claimValue(
    "0123456789abcdef",
    Array.from({ length: 60 }, (_, i) => `dir-${i}/**`),
  );
  expect(long.length).toBeLessThanOrEqual(512);
  expect(parseClaim(long)).toEqual({ owner: "0123456789abcdef", exclude: null });
  expect(parseClaim("not json")).toEqual({ exclude: null });
  expect(claimKey("site/")).toMatch(/^krcloud-folder-[0-9a-f]{16}$/);
  expect(claimKey("site/")).not.toBe(claimKey("site2/"));
});

test("no claim in the bucket: the object is deleted as usual", async () => {
  const c = fakeClient({ b1: { "krcloud-owner": "x" } });
  expect(await folderHolding(c, "b1", "site/a.txt")).toBeUndefined();
  expect(await folderHolding(c, "gone", "site/a.txt")).toBeUndefined();
  expect(c.reads).toBe(2);
});

test("a claimed prefix whose folder this process knows: its files are left, the other keys deleted; excluded keys are never the folder's", async () => {
  const c = fakeClient({ b2: { [claimKey("site/")]: claimValue("0123456789abcdef", ["logs/**"]) } });
  knowFolder("b2", "site/", ["site/a.txt", "site/b.txt"]);
  expect(await folderHolding(c, "b2", "site/a.txt")).toEqual({ prefix: "site/", known: true });
  expect(await folderHolding(c, "b2", "site/other.txt")).toBeUndefined();
  expect(await folderHolding(c, "b2", "site/logs/1.log")).toBeUndefined();
  expect(await folderHolding(c, "b2", "elsewhere/a.txt")).toBeUndefined();
  expect(takeLeft("b2", "site/")).toEqual([]);
});

test("a claimed prefix whose folder this process does not know (a destroy runs no program): the object is left, and recorded for the folder's delete", async () => {
  const c = fakeClient({ b3: { [claimKey("")]: claimValue(undefined, []) } });
  expect(await folderHolding(c, "b3", "deep/in/it.txt")).toEqual({ prefix: "", known: false });
  expect(await folderHolding(c, "b3", "x.txt")).toEqual({ prefix: "", known: false });
  expect(takeLeft("b3", "")).toEqual(["deep/in/it.txt", "x.txt"]);
  expect(takeLeft("b3", "")).toEqual([]);
  // Once the folder's delete has begun, it takes nothing more: the object's own delete removes it.
  folderDeleting("b3", "");
  expect(await folderHolding(c, "b3", "y.txt")).toBeUndefined();
  expect(takeLeft("b3", "")).toEqual([]);
});
