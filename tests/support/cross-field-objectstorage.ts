/**
 * The cross-field rules of the object storage types (Bucket, BucketCors, BucketLifecycle,
 * BucketObject), with the values their refinements need: see cross-field-rules.ts.
 */
import fc from "fast-check";
import { pathToFileURL } from "node:url";
import type { RulesContext, TypeRules } from "./cross-field-rules";
import { arr, drop, obj, rule, serviceRules, type Obj } from "./cross-field-shared";
import { isPlainObject, type Input } from "./inputs/rules";

const ip = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, b]) => `${a}/${b}`),
  fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([a, b]) => `${a}/${b}`),
);

/** Metadata names and values, `n` entries, `valueLength` characters each. */
function metadataOf(n: number, valueLength: number): Obj {
  const m: Obj = {};
  for (let i = 0; i < n; i++) m[`name-${i}`] = "v".repeat(valueLength);
  return m;
}

const metadataBytes = (m: Obj) => Object.entries(m).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(String(v)), 0);

/** The service's 4096 bytes of names and values, less the 29 of krcloud's ownership marker (`krcloud-owner` and 16 hex digits). */
const METADATA_TOTAL_MAX = 4096 - 29;

/** Drops entries until names and values total at most METADATA_TOTAL_MAX bytes. */
function keepMetadataTotal(m: unknown): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) if (metadataBytes(m) > METADATA_TOTAL_MAX || k.startsWith("krcloud-")) delete m[k];
}

const metadataTotalRule = rule(
  `metadata names and values total at most ${METADATA_TOTAL_MAX} bytes`,
  "metadata",
  fc.integer({ min: 8, max: 12 }).map((n) => (valid) => ({
    input: { ...valid, metadata: metadataOf(n, 512) },
    path: "metadata",
    texts: [`metadata names and values must total at most ${METADATA_TOTAL_MAX} bytes`],
  })),
);

/** A name krcloud keeps for its ownership markers, at any place among the program's names. */
const reservedMetadataRule = rule(
  "metadata names starting with krcloud- are reserved",
  "metadata",
  fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.integer({ min: 0, max: 3 })).map(([suffix, n]) => (valid) => ({
    input: { ...valid, metadata: { ...metadataOf(n, 8), [`krcloud-${suffix}`]: "x" } },
    path: "metadata",
    texts: ['metadata names starting with "krcloud-" are reserved'],
  })),
);

export function objectStorageRules(ctx: RulesContext): Record<string, TypeRules> {
  const asset = (fields: Obj) => ({ "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", ...fields });
  return {
    "krcloud:objectstorage:Bucket": {
      values: { "acl.publicReadAllowIpList[]": ip },
      keep(i) {
        const acl = obj(i.acl);
        if (arr(acl.publicReadAllowIpList).length > 0) acl.public = "read-only";
        keepMetadataTotal(i.metadata);
      },
      rules: [
        rule(
          "publicReadAllowIpList only with public read-only",
          "acl",
          fc.tuple(fc.array(ip, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([list, explicit]) => (valid) => ({
            input: { ...valid, acl: { ...(explicit ? { public: "deny" } : {}), publicReadAllowIpList: list } },
            path: "acl.publicReadAllowIpList",
            texts: ["publicReadAllowIpList only applies when public is read-only"],
          })),
        ),
        metadataTotalRule,
        reservedMetadataRule,
      ],
    },

    "krcloud:objectstorage:BucketCors": {
      values: {
        "rules[].allowedOrigins[]": fc
          .tuple(fc.constantFrom("http", "https"), fc.boolean(), fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 })))
          .map(([scheme, wildcard, domain, port]) => `${scheme}://${wildcard ? "*." : ""}${domain}${port === null ? "" : `:${port}`}`),
      },
      rules: [],
    },

    "krcloud:objectstorage:BucketLifecycle": {
      values: {
        "rules[].expirationDate": fc
          .date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
          .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString()),
      },
      keep(i) {
        const seen = new Set<unknown>();
        for (const r of arr(i.rules).map(obj)) {
          if (r.expirationDays !== undefined && r.expirationDate !== undefined) delete r.expirationDate;
          if (r.expirationDays === undefined && r.expirationDate === undefined) r.expirationDays = 30;
          if (r.id !== undefined && seen.has(r.id)) delete r.id;
          seen.add(r.id);
        }
      },
      rules: [
        ...serviceRules(
          "a rule's prefix and id are text XML 1.0 can carry",
          fc.tuple(fc.constantFrom("prefix", "id"), fc.constantFrom("\u0000", "\u0008", "\u001b", "\uFFFF", "\uD800"), fc.nat()),
          ([key, bad, k]) =>
            (valid) => {
              const rules = arr(valid.rules).map(obj);
              const i = k % rules.length;
              rules[i]![key] = `logs${bad}/`;
              return { input: valid, path: `rules[${i}].${key}`, texts: ["must not contain characters XML 1.0 cannot carry"] };
            },
        ),
        ...serviceRules(
          "a rule id is at most 255 characters as the SDK and the service count them (UTF-16 code units)",
          fc.tuple(fc.integer({ min: 128, max: 255 }), fc.nat()),
          ([n, k]) =>
            (valid) => {
              const rules = arr(valid.rules).map(obj);
              const i = k % rules.length;
              rules[i]!.id = "\u{1F600}".repeat(n);
              return { input: valid, path: `rules[${i}].id`, texts: ["rule ids are at most 255 characters"] };
            },
        ),
        rule(
          "a rule expires by exactly one of expirationDays and expirationDate",
          "rules[]",
          fc.tuple(fc.nat(), fc.boolean()).map(([k, both]) => (valid) => {
            const rules = arr(valid.rules).map(obj);
            const i = k % rules.length;
            const r = rules[i]!;
            if (both) Object.assign(r, { expirationDays: 7, expirationDate: "2030-01-01T00:00:00.000Z" });
            else drop(r, "expirationDays", "expirationDate");
            return { input: valid, path: `rules[${i}].expirationDays`, texts: ["exactly one of expirationDays and expirationDate must be set"] };
          }),
        ),
        rule(
          "rule ids are unique",
          "rules",
          fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).map((id) => (valid) => {
            const rules = [...arr(valid.rules).map(obj), { prefix: "", expirationDays: 1 }];
            rules[0]!.id = id;
            rules[rules.length - 1]!.id = id;
            return { input: { ...valid, rules }, path: `rules[${rules.length - 1}].id`, texts: [`duplicate rule id "${id}"`] };
          }),
        ),
      ],
    },

    "krcloud:objectstorage:BucketObject": {
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
    },
  };
}
