/**
 * The test fixture of BucketObject (`krcloud:objectstorage:BucketObject`,
 * provider/objectstorage/bucket-object.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { pathToFileURL } from "node:url";
import { drop, rule, serviceRules, type Obj, type RulesContext, type TypeRules } from "../../support/inputs/cross-field";
import { isPlainObject, type Input } from "../../support/inputs/rules";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { isSecret, md5 } from "../../harness/engine/state";
import type { Entry } from "../../support/faults/sim-stack";
import { SECRET_MARK, type CloudKind, type DriftFact, type FaultRow, type OutsideFact, type SecretsFact, type ZeroDiffSpec } from "../fixture";
import { site, keepMetadataTotal, metadataTotalRule, reservedMetadataRule } from "./bucket";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { bucket: "valid-bucket", key: "notes/a.txt", content: `hello ${SECRET_MARK}`, contentType: "text/plain" };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(ctx: RulesContext): TypeRules {
  const asset = (fields: Obj) => ({ "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", ...fields });
  return {
    values: {
      "source<0>": fc.constant(ctx.file),
      "source<1>.path": fc.constant(ctx.file),
      "source<1>.uri": fc.constant(pathToFileURL(ctx.file).href),
    },
    keep(i) {
      const keys = ["source", "content", "contentBase64"] as const;
      if (i.folder === true) {
        for (const k of keys) delete i[k];
        // Stored as the key and a trailing "/", within the 396-character limit.
        if (typeof i.key === "string" && !i.key.endsWith("/")) i.key = [...i.key].slice(0, 395).join("");
      } else if (typeof i.key === "string" && i.key.endsWith("/")) i.key = i.key.replace(/\/+$/, "") || "file";
      else {
        const given = keys.filter((k) => i[k] !== undefined);
        for (const k of given.slice(1)) delete i[k];
        if (given.length === 0) i.content = "generated";
      }
      if (isPlainObject(i.source)) {
        const fields = (["path", "text", "uri"] as const).filter((k) => (i.source as Obj)[k] !== undefined);
        for (const k of fields.slice(1)) delete (i.source as Obj)[k];
        if (fields.length === 0) (i.source as Obj).text = "generated";
      }
      keepMetadataTotal(i.metadata);
    },
    rules: [
      rule(
        "a file has exactly one of source, content and contentBase64",
        "",
        fc.subarray(["source", "content", "contentBase64"], { minLength: 0, maxLength: 3 }).map((set) => (valid) => {
          const input: Input = { ...valid, folder: false };
          drop(input, "source", "content", "contentBase64");
          if (set.length === 1) set.push(set[0] === "content" ? "contentBase64" : "content");
          for (const k of set) input[k] = k === "source" ? ctx.file : k === "contentBase64" ? "aGVsbG8=" : "hello";
          return { input, path: "source", texts: ["exactly one of source and content (or contentBase64) must be set for a file"] };
        }),
      ),
      rule(
        "a file's key does not end with '/' (a name ending in '/' is a folder)",
        "",
        fc.stringMatching(/^[a-z0-9/]{0,20}$/).map((dir) => (valid) => ({
          input: { ...valid, folder: false, key: `${dir}/` },
          path: "key",
          texts: ["a file's key must not end with '/'"],
        })),
      ),
      rule(
        "a folder's key and its trailing '/' fit the 396-character name limit",
        "",
        fc.constantFrom("a", "-", "\uD55C", "\u{1F600}").map((c) => (valid) => {
          const input: Input = { ...valid, folder: true, key: c.repeat(396) };
          drop(input, "source", "content", "contentBase64");
          return { input, path: "key", texts: ["a folder is stored as its key with a trailing '/', which must fit in 396 characters"] };
        }),
      ),
      rule(
        "a folder has no content",
        "",
        fc.constantFrom("source", "content", "contentBase64").map((k) => (valid) => {
          const input: Input = { ...valid, folder: true };
          drop(input, "source", "content", "contentBase64");
          input[k] = k === "source" ? ctx.file : k === "contentBase64" ? "aGVsbG8=" : "hello";
          return { input, path: "folder", texts: ["a folder has no source or content (nor contentBase64)"] };
        }),
      ),
      rule(
        "an asset has exactly one of path, text and uri",
        "source<1>",
        fc.subarray(["path", "text", "uri"], { minLength: 0, maxLength: 3 }).map((set) => (valid) => {
          if (set.length === 1) set.push(set[0] === "text" ? "path" : "text");
          const fields: Obj = {};
          for (const k of set) fields[k] = k === "path" ? ctx.file : k === "uri" ? pathToFileURL(ctx.file).href : "hello";
          const input: Input = { ...valid, folder: false, source: asset(fields) };
          drop(input, "content", "contentBase64");
          return { input, path: "source", texts: ["an asset has exactly one of path, text and uri"] };
        }),
      ),
      rule(
        "a file source exists",
        "derive",
        fc.tuple(fc.stringMatching(/^[a-z0-9]{4,12}$/), fc.constantFrom("plain", "asset", "uri")).map(([name, how]) => (valid) => {
          const missing = `${ctx.file}.missing-${name}`;
          const source = how === "plain" ? missing : how === "asset" ? asset({ path: missing }) : asset({ uri: pathToFileURL(missing).href });
          const input: Input = { ...valid, folder: false, source };
          drop(input, "content", "contentBase64");
          return { input, path: "source", texts: ["does not exist or is not a regular file"] };
        }),
      ),
      rule(
        "a RemoteAsset is a file:// URI",
        "derive",
        fc.webUrl().map((uri) => (valid) => {
          const input: Input = { ...valid, folder: false, source: asset({ uri }) };
          drop(input, "content", "contentBase64");
          return { input, path: "source", texts: ["is not supported: only file:// URIs are read"] };
        }),
      ),
      ...serviceRules(
        "header values are printable ASCII (undici sends nothing else)",
        fc.tuple(
          fc.constantFrom("contentType", "cacheControl", "contentDisposition", "contentEncoding"),
          fc.constantFrom("\n", "\r\n", "\u0000", "\uD55C", "\u{1F600}"),
        ),
        ([key, bad]) =>
          (valid) => ({ input: { ...valid, [key]: `text/plain${bad}x` }, path: key, texts: ["must be printable ASCII"] }),
      ),
      metadataTotalRule,
      reservedMetadataRule,
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [site],
  args: (_p, s) => ({ bucket: s.id("site"), key: "notes/a.txt", content: "hello", contentType: "text/plain" }),
  // The same key in the other stack's bucket (which this stack names explicitly).
  collides: (_p, theirs) => ({ bucket: theirs.id("site"), key: "notes/a.txt", content: "hello", contentType: "text/plain" }),
  updated: (_p, s) => ({ bucket: s.id("site"), key: "notes/a.txt", content: "hello again", contentType: "text/plain" }),
  ops: { create: "PutObject", update: "PutObject", read: "HeadObject", delete: "DeleteObject" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [r("object", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "hello.txt", content: "hello\n" })],
  varied: ({ r, ref, assetFile }) => [
    r("text", "krcloud:objectstorage:BucketObject", {
      bucket: ref("bucket", "name"),
      key: "문서/노트 ✓ (1).txt",
      content: "héllo wörld — ✓ 한국어\nsecond line\n",
      contentType: "text/plain; charset=utf-8",
      cacheControl: "max-age=60, must-revalidate",
      contentDisposition: 'attachment; filename="note.txt"',
      contentEncoding: "identity",
      metadata: { owner: "data team", empty: "" },
      multipartThreshold: 5 * 1024 * 1024,
      partSize: 6 * 1024 * 1024,
    }),
    r("binary", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "bin/data.bin", contentBase64: "AAECA/+A", metadata: {} }),
    r("folder", "krcloud:objectstorage:BucketObject", {
      bucket: ref("bucket", "name"),
      key: "folder/sub",
      folder: true,
      contentType: "text/plain",
      metadata: { kind: "folder" },
    }),
    r("file", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "assets/file.txt", source: { "fn::fileAsset": assetFile } }),
    r("path", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "assets/path.txt", source: assetFile }),
    r("string", "krcloud:objectstorage:BucketObject", {
      bucket: ref("bucket", "name"),
      key: "assets/string.txt",
      source: { "fn::stringAsset": "a string asset ✓\n" },
      contentType: "text/plain",
    }),
  ],
};

/** What the cloud holds for it: the object (its id is `<bucket>/<key>`). */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "object-storage/object", id: e.id }];

/** What a drifted object's content becomes. */
export const DEFACED = "<h1>defaced behind Pulumi's back</h1>\n";

/** A defaced object (its content's MD5 changes), or a folder marker's metadata, through the control API. */
export const drift: DriftFact = {
  recipe: {
    service: "object-storage",
    kind: "object",
    snapshot: (rec) => ({ hash: rec.hash, metadata: rec.metadata, contentType: rec.content_type }),
    async drift(control, r) {
      if (r.outputs?.folder === true) {
        await control.patchResource("object-storage", "object", r.id!, { metadata: { drifted: "yes" } });
        return ["metadata"];
      }
      // A defaced page: the content changes, so its MD5 no longer matches the source file.
      await control.patchResource("object-storage", "object", r.id!, { content: DEFACED });
      return ["contentMd5"];
    },
    recorded: (outs) =>
      outs.folder === true ? isSecret(outs.metadata) || (outs.metadata as Record<string, string>)?.drifted === "yes" : outs.contentMd5 === md5(DEFACED),
  },
};

/**
 * An object with inline content uploaded through the client to the stack's results bucket (secret
 * set: the cloud never answers the content back). A create never overwrites an object this stack
 * did not upload: adopt says to.
 */
export const outside: OutsideFact = {
  async make({ set, settings, stack, name }) {
    if (set !== "secret") return [];
    await new ObjectStorageClient({ settings }).putObject(stack.resultsBucket, "outside.txt", "made outside Pulumi\n", { contentType: "text/plain" });
    return [
      {
        name: name("object"),
        type: "krcloud:objectstorage:BucketObject",
        importId: `${stack.resultsBucket}/outside.txt`,
        properties: { bucket: stack.resultsBucket, key: "outside.txt", content: "made outside Pulumi\n", contentType: "text/plain" },
        adopt: { adopt: true },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no password-like input: its content is the program's, written as given" };
