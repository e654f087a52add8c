/**
 * BucketObject sources: the spec's limits for a size, asset handling as the engine passes assets,
 * which outputs are kept secret.
 */
import * as pulumi from "@pulumi/pulumi";
import { secretOutputsFor } from "../../provider/core";
import { mayHoldSecret } from "../../provider/core/class";
import { bucketObject } from "../../provider/objectstorage/bucket-object";
import { ASSET_SIG, checkUploadLimits, resolveSource, sameSource, SIG_KEY } from "../../provider/objectstorage/object-source";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const failure = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return { property: (e as { property?: string }).property, message: (e as Error).message };
  }
  return undefined;
};

describe("upload limits for a size (spec 4.4, 8)", () => {
  test("up to the threshold: one PUT, nothing more to check", () => {
    expect(failure(() => checkUploadLimits(5 * GIB, 5 * GIB, 5 * MIB, "source"))).toBeUndefined();
  });

  test("10000 parts of partSize must reach the size; the message names partSize, the rule and the smallest partSize that fits", () => {
    expect(failure(() => checkUploadLimits(10_000 * 5 * MIB, 16 * MIB, 5 * MIB, "source"))).toBeUndefined();
    const f = failure(() => checkUploadLimits(10_000 * 5 * MIB + 1, 16 * MIB, 5 * MIB, "source"))!;
    expect(f.property).toBe("partSize");
    expect(f.message).toMatch(
      /make 10001 parts, over the limit of 10000 parts per upload: partSize × 10000 must be at least the size, so use a partSize of at least 5242881$/,
    );
  });
});

describe("assets as the engine passes them", () => {
  const file = { [SIG_KEY]: ASSET_SIG, hash: "h1", path: "site/index.html" } as const;

  test("a relative FileAsset path is resolved against the working directory (the program directory under the engine)", () => {
    expect(resolveSource(file)).toEqual({ kind: "file", path: `${process.cwd()}/site/index.html` });
    expect(resolveSource({ [SIG_KEY]: ASSET_SIG, uri: "file:///srv/a%20b.txt" })).toEqual({ kind: "file", path: "/srv/a b.txt" });
    expect(resolveSource({ [SIG_KEY]: ASSET_SIG, text: "hi" })).toEqual({ kind: "text", text: "hi" });
  });

  test("assets are the same content when their hashes are, whether or not their contents were elided", () => {
    expect(sameSource(file, { [SIG_KEY]: ASSET_SIG, hash: "h1" })).toBe(true);
    expect(sameSource(file, { [SIG_KEY]: ASSET_SIG, hash: "h2" })).toBe(false);
    expect(sameSource("a.txt", "a.txt")).toBe(true);
    expect(sameSource("a.txt", file)).toBe(false);
  });
});

describe("outputs derived from inline content are secret when the content may be", () => {
  /** What the dynamic class makes secret for these args (class.ts uses the same two functions). */
  const contentDerivedSecrets = (args: Record<string, unknown>) => secretOutputsFor(bucketObject, (k) => mayHoldSecret(args[k])).sort();

  test("plain strings and FileAssets: not secret; Outputs, contentBase64 Outputs and StringAssets: secret", () => {
    expect(contentDerivedSecrets({ content: "x" })).toEqual([]);
    expect(contentDerivedSecrets({ source: new pulumi.asset.FileAsset("a.txt") })).toEqual([]);
    expect(contentDerivedSecrets({ source: "a.txt" })).toEqual([]);
    expect(contentDerivedSecrets({ source: new pulumi.asset.StringAsset("password=1") })).toEqual(["contentMd5", "etag", "size"]);
    expect(contentDerivedSecrets({ contentBase64: pulumi.secret("aGk=") })).toEqual(["contentMd5", "etag", "size"]);
    expect(contentDerivedSecrets({ content: pulumi.output("x") })).toEqual(["contentMd5", "etag", "size"]);
  });
});
