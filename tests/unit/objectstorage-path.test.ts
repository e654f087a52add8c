import fc from "fast-check";
import { containerPath, encodeObjectPath, isInvalidArgument, objectPath, ObjectStorageClient } from "../../client/objectstorage";
import { resolveSettings } from "../../client/core";

test("object path segments are percent-encoded one by one; slashes, including empty segments, are kept", () => {
  expect(encodeObjectPath("images/small/icon.jpg")).toBe("images/small/icon.jpg");
  expect(encodeObjectPath("a b/c#d/é?.txt")).toBe("a%20b/c%23d/%C3%A9%3F.txt");
  expect(encodeObjectPath("a//b/")).toBe("a//b/");
  expect(encodeObjectPath("100%/x&y=z+")).toBe("100%25/x%26y%3Dz%2B");
});

test("property: decoding each segment gives the original name back", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (key) => {
      const encoded = encodeObjectPath(key);
      expect(encoded.split("/").map(decodeURIComponent).join("/")).toBe(key);
      expect(encoded).not.toMatch(/[?#\s]/);
    }),
  );
});

test("full Swift paths: account and bucket are single segments", () => {
  expect(containerPath("AUTH_test", "my bucket")).toBe("/v1/AUTH_test/my%20bucket");
  expect(objectPath("AUTH_test", "b", "dir/file name.txt")).toBe("/v1/AUTH_test/b/dir/file%20name.txt");
  expect(() => objectPath("AUTH_test", "a/b", "x")).toThrow(/must not contain/);
  expect(() => objectPath("AUTH_test", "b", "")).toThrow(/object name is required/);
});

test("URLs handed to users carry the endpoint prefix; a missing project ID is an error naming the setting", () => {
  const settings = resolveSettings({ projectId: "p-1", endpoints: { objectstorage: "http://127.0.0.1:8790/object-storage/" } }, () => undefined, {});
  const c = new ObjectStorageClient({ settings });
  expect(c.bucketUrl("logs")).toBe("http://127.0.0.1:8790/object-storage/v1/p-1/logs");
  expect(c.objectUrl("logs", "2024/a b.log")).toBe("http://127.0.0.1:8790/object-storage/v1/p-1/logs/2024/a%20b.log");
  const noProject = new ObjectStorageClient({ settings: { ...settings, projectId: undefined } });
  let err: unknown;
  try {
    noProject.bucketUrl("logs");
  } catch (e) {
    err = e;
  }
  expect(isInvalidArgument(err)).toBe(true);
  expect((err as Error).message).toMatch(/KRCLOUD_PROJECT_ID/);
});
