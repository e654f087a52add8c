/**
 * The rules of each resource's inputs that tie several properties together, written by hand from
 * the definitions (their refinements and descriptions) and the service's contract: the generated
 * bad inputs (input-rules.ts) read everything else from the schemas, but a refinement is a function
 * whose rule no walk can read. Per resource type:
 * - `values`: how to make valid values for schema paths whose rules live in a refinement of their
 *   container (a backup cron, a subnet that must be one of `subnetIds`, a file that must exist);
 * - `keep`: turns an input that keeps every single-property rule into one that keeps the
 *   cross-field rules too (the generated valid inputs go through it);
 * - `rules`: each cross-field rule, with inputs that break it, the property path `check` must name
 *   and the text its reason must carry. `at` is the schema path of the refined container (`""` for
 *   the whole input); every refined container of a schema needs at least one rule here. Two more
 *   kinds sit beside them: `derive`, facts check computes (a source file must exist), and
 *   `service`, rules of the service a schema did not state until generated inputs that check
 *   accepted were refused by the local cloud or the SDK at create.
 */
import fc, { type Arbitrary } from "fast-check";
import { pathToFileURL } from "node:url";
import { isPlainObject, type Input } from "./input-rules";

export interface BrokenInput {
  input: Input;
  /** The property path check must name. */
  path: string;
  /** Texts the reason must carry. */
  texts: string[];
}

export interface CrossFieldRule {
  /** The rule, for test names and reports. */
  rule: string;
  /** The schema path of the container whose refinement checks it; `""` for the whole input; `derive` or `service` (see above). */
  at: string;
  /** Inputs breaking it, made from a valid one (a clone: change it freely). */
  break: Arbitrary<(valid: Input) => BrokenInput>;
}

export interface TypeRules {
  values?: Record<string, Arbitrary<unknown>>;
  keep?(input: Input): void;
  rules: CrossFieldRule[];
}

/** Local facts some checks read: a file that exists (BucketObject sources). */
export interface RulesContext {
  file: string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Removes properties (the generated input must not carry them at all, not even as undefined). */
function drop(o: Obj, ...keys: string[]): void {
  for (const k of keys) delete o[k];
}

/**
 * Rules of the service that a property's schema did not state: found by sending generated inputs
 * that check accepted to the local cloud (or through the SDK), which refused them at create. Kept
 * here, by hand, so that they stay enforced whatever the schema says.
 */
function serviceRules<T>(r: string, values: Arbitrary<T>, make: (v: T) => (valid: Input) => BrokenInput): CrossFieldRule[] {
  return [{ rule: r, at: "service", break: values.map(make) }];
}

const rule = (r: string, at: string, make: Arbitrary<(valid: Input) => BrokenInput>): CrossFieldRule => ({ rule: r, at, break: make });

// ---------------------------------------------------------------------------------------------
// A password given either as a value or as a KMS ciphertext (provider/kms/encrypted-input.ts)

const KMS_ENCRYPTED = { keyId: "key-1", ciphertext: "kms:1:AAAA" };

/** Keeps exactly one of `plain` and `encrypted` in `o` (or neither, when the password is optional). */
function keepOneOf(o: Obj, plain: string, encrypted: string, required: boolean): void {
  if (o[plain] !== undefined && o[encrypted] !== undefined) delete o[encrypted];
  if (required && o[plain] === undefined && o[encrypted] === undefined) o[plain] = "pw-1";
}

/** The two rules of such a pair: not both; one of them when required. `where` reaches the object holding them. */
function oneOfRules(at: string, where: (i: Input) => Obj, plain: string, encrypted: string, required: boolean, path: string): CrossFieldRule[] {
  const prefix = path ? `${path}.` : "";
  const both = rule(
    `${prefix}${plain} or ${encrypted}, not both`,
    at,
    fc.constant((valid) => {
      const input = structuredClone(valid);
      Object.assign(where(input), { [plain]: "pw-1", [encrypted]: KMS_ENCRYPTED });
      return { input, path: `${prefix}${encrypted}`, texts: [`give either ${plain} or ${encrypted}, not both`] };
    }),
  );
  if (!required) return [both];
  const neither = rule(
    `${prefix}${plain} or ${encrypted} is required`,
    at,
    fc.constant((valid) => {
      const input = structuredClone(valid);
      const o = where(input);
      delete o[plain];
      delete o[encrypted];
      return { input, path: `${prefix}${plain}`, texts: [`is required (or ${encrypted}, the same as a KMS ciphertext)`] };
    }),
  );
  return [both, neither];
}

/** The cache user: present in the valid input, with exactly one of password and its ciphertext. */
function cacheUserRules(): { keep(i: Input): void; rules: CrossFieldRule[] } {
  return {
    keep(i) {
      if (isPlainObject(i.user)) keepOneOf(i.user, "password", "passwordCiphertext", true);
    },
    rules: oneOfRules(
      "user",
      (i) => (isPlainObject(i.user) ? i.user : ((i.user = { name: "app" }), i.user as Obj)),
      "password",
      "passwordCiphertext",
      true,
      "user",
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

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

/** Drops entries until names and values total at most 4096 bytes (seed 01 section 8). */
function keepMetadataTotal(m: unknown): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) if (metadataBytes(m) > 4096) delete m[k];
}

const metadataTotalRule = rule(
  "metadata names and values total at most 4096 bytes",
  "metadata",
  fc.integer({ min: 8, max: 12 }).map((n) => (valid) => ({
    input: { ...valid, metadata: metadataOf(n, 512) },
    path: "metadata",
    texts: ["metadata names and values must total at most 4096 bytes"],
  })),
);

/** A 5-field cron every field of which is valid (seed 02 §4.2). */
const cron = fc
  .tuple(
    fc.constantFrom("*", "0", "30", "59", "*/15", "0-30", "5,10"),
    fc.constantFrom("*", "0", "3", "23", "*/6", "1-5"),
    fc.constantFrom("*", "1", "31", "1-15"),
    fc.constantFrom("*", "1", "12", "JAN", "jan-mar"),
    fc.constantFrom("*", "0", "7", "MON", "mon-fri"),
  )
  .map((f) => f.join(" "));

/** Crons the service refuses, with the text the failure names. */
const BAD_CRONS: readonly [string, string][] = [
  ["", "must not be empty"],
  ["* * *", "must have 5 fields"],
  ["* * * * * *", "must have 5 fields"],
  ["60 * * * *", 'invalid minute field "60"'],
  ["* 24 * * *", 'invalid hour field "24"'],
  ["* * 0 * *", 'invalid day of month field "0"'],
  ["* * * 13 *", 'invalid month field "13"'],
  ["* * * * 8", 'invalid day of week field "8"'],
  ["*/0 * * * *", 'invalid minute field "*/0"'],
  ["5-1 * * * *", 'invalid minute field "5-1"'],
];

/** A duration `parseDuration` reads: `1h30m`, `45m`, `90s`, more than zero. */
const duration = fc
  .tuple(fc.option(fc.integer({ min: 0, max: 99 })), fc.option(fc.integer({ min: 0, max: 999 })), fc.option(fc.integer({ min: 0, max: 9999 })))
  .filter(([h, m, s]) => (h ?? 0) + (m ?? 0) + (s ?? 0) > 0)
  .map(([h, m, s]) => `${h === null ? "" : `${h}h`}${m === null ? "" : `${m}m`}${s === null ? "" : `${s}s`}`);

/** Values every type with these properties takes (rules the schema states as refinements of one value). */
const TIMEOUTS = { "timeouts.create": duration, "timeouts.update": duration, "timeouts.delete": duration };

/** Cache cluster and instance set names (seed 02 §4.3), checked by a refinement. */
const CACHE_NAME = fc.stringMatching(/^[a-z][a-z0-9-]{2,18}[a-z0-9]$/);

/** Replaces every subnet of `ids` that is not in `allowed` by one that is. */
const within = (ids: unknown[], allowed: string[]) => ids.map((id, i) => (allowed.includes(id as string) ? id : allowed[i % allowed.length]));

const OUTSIDE = fc.stringMatching(/^subnet-outside-[a-z0-9]{1,6}$/);

// ---------------------------------------------------------------------------------------------
// Per resource type

export function crossFieldRules(ctx: RulesContext): Record<string, TypeRules> {
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
      ],
    },

    "krcloud:cache:ParameterGroup": { values: TIMEOUTS, rules: [] },
    "krcloud:cache:Shard": { values: TIMEOUTS, rules: [] },

    "krcloud:cache:Cluster": {
      values: { ...TIMEOUTS, name: CACHE_NAME, "backupSchedule.cron": cron },
      keep(i) {
        cacheUserRules().keep(i);
        const allowed = arr(i.subnetIds) as string[];
        const shards = arr(i.shards).map(obj);
        const replicas = arr(shards[0]?.replicaSubnetIds).length;
        for (const s of shards) {
          [s.primarySubnetId] = within([s.primarySubnetId], allowed);
          const r = within(arr(s.replicaSubnetIds), allowed).slice(0, replicas);
          while (r.length < replicas) r.push(allowed[0]);
          s.replicaSubnetIds = r;
        }
      },
      rules: [
        ...cacheUserRules().rules,
        rule(
          "every shard has the same number of replicas",
          "",
          fc.tuple(fc.integer({ min: 2, max: 4 }), fc.nat(), fc.integer({ min: 1, max: 4 })).map(([n, k, more]) => (valid) => {
            const subnets = arr(valid.subnetIds) as string[];
            const shards = Array.from({ length: n }, () => ({ primarySubnetId: subnets[0], replicaSubnetIds: [subnets[0]] }));
            const odd = 1 + (k % (n - 1));
            shards[odd]!.replicaSubnetIds = Array.from({ length: (1 + more) % 6 }, () => subnets[0]);
            return {
              input: { ...valid, shards },
              path: `shards[${odd}].replicaSubnetIds`,
              texts: ["every shard must have the same number of replicas"],
            };
          }),
        ),
        rule(
          "a shard's subnets are among subnetIds",
          "",
          fc.tuple(OUTSIDE, fc.nat(), fc.boolean()).map(([outside, k, primary]) => (valid) => {
            const shards = arr(valid.shards).map(obj);
            const i = k % shards.length;
            const s = shards[i]!;
            if (primary) s.primarySubnetId = outside;
            else {
              const r = arr(s.replicaSubnetIds);
              if (r.length === 0)
                return {
                  input: { ...valid, shards: [{ ...s, primarySubnetId: outside }] },
                  path: "shards[0].primarySubnetId",
                  texts: [`subnet "${outside}" is not in subnetIds`],
                };
              r[k % r.length] = outside;
            }
            return {
              input: valid,
              path: `shards[${i}].${primary ? "primarySubnetId" : "replicaSubnetIds"}`,
              texts: [`subnet "${outside}" is not in subnetIds`],
            };
          }),
        ),
        rule(
          "the backup schedule is a valid 5-field cron",
          "",
          fc.constantFrom(...BAD_CRONS).map(([c, text]) => (valid) => ({
            input: { ...valid, backupSchedule: { ...obj(valid.backupSchedule), cron: c } },
            path: "backupSchedule.cron",
            texts: [text],
          })),
        ),
      ],
    },

    "krcloud:cache:InstanceSet": {
      values: { ...TIMEOUTS, name: CACHE_NAME, "restoreFrom.files[]": fc.stringMatching(/^[a-z0-9][a-z0-9-]{2,10}(\/[A-Za-z0-9._-]{1,10}){1,3}$/) },
      keep(i) {
        cacheUserRules().keep(i);
        const allowed = arr(i.subnetIds) as string[];
        [i.primarySubnetId] = within([i.primarySubnetId], allowed);
        i.replicaSubnetIds = within(arr(i.replicaSubnetIds), allowed);
        if (i.highAvailability === true && arr(i.replicaSubnetIds).length === 0) i.replicaSubnetIds = [allowed[0]];
        if (i.highAvailability === true) delete i.primaryInstanceId;
        if (isPlainObject(i.restoreFrom)) {
          const r = i.restoreFrom;
          if (r.backupName !== undefined && r.files !== undefined) delete r.files;
          if (r.backupName === undefined && r.files === undefined) r.backupName = "backup-1";
          if (r.files !== undefined && arr(r.files).length === 0) r.files = ["bucket/backup.rdb"];
        }
      },
      rules: [
        ...cacheUserRules().rules,
        rule(
          "the primary's subnet is among subnetIds",
          "",
          OUTSIDE.map((outside) => (valid) => ({
            input: { ...valid, primarySubnetId: outside },
            path: "primarySubnetId",
            texts: [`subnet "${outside}" is not in subnetIds`],
          })),
        ),
        rule(
          "the replicas' subnets are among subnetIds",
          "",
          fc.tuple(OUTSIDE, fc.nat()).map(([outside, k]) => (valid) => {
            const r = [...arr(valid.replicaSubnetIds)];
            if (r.length === 0) r.push(valid.primarySubnetId);
            const i = k % r.length;
            r[i] = outside;
            return { input: { ...valid, replicaSubnetIds: r }, path: `replicaSubnetIds[${i}]`, texts: [`subnet "${outside}" is not in subnetIds`] };
          }),
        ),
        rule(
          "high availability needs a replica",
          "",
          fc.boolean().map((explicit) => (valid) => {
            const input: Input = { ...valid, highAvailability: true };
            if (explicit) input.replicaSubnetIds = [];
            else delete input.replicaSubnetIds;
            delete input.primaryInstanceId;
            return { input, path: "highAvailability", texts: ["needs at least one replica (replicaSubnetIds)"] };
          }),
        ),
        rule(
          "a primary is chosen only with high availability off",
          "",
          fc.stringMatching(/^inst-[a-z0-9]{1,8}$/).map((id) => (valid) => ({
            input: { ...valid, highAvailability: true, replicaSubnetIds: [valid.primarySubnetId], primaryInstanceId: id },
            path: "primaryInstanceId",
            texts: ["can only be chosen with highAvailability off"],
          })),
        ),
        rule(
          "a restore names exactly one of backupName and files",
          "",
          fc.boolean().map((both) => (valid) => ({
            input: { ...valid, restoreFrom: both ? { backupName: "b-1", files: ["bucket/file.rdb"] } : {} },
            path: "restoreFrom",
            texts: ["set exactly one of backupName and files"],
          })),
        ),
        rule(
          "restore files are object storage paths bucket/folder/.../file",
          "",
          fc
            .constantFrom<[string[], string]>(
              [[], "must list at least one backup file"],
              [["bucket-only"], "must be an object storage path bucket/folder/.../file"],
              [["/lead/file.rdb"], "must be an object storage path bucket/folder/.../file"],
              [["bucket//file.rdb"], "must be an object storage path bucket/folder/.../file"],
              [["bucket/dir/"], "must be an object storage path bucket/folder/.../file"],
            )
            .map(([files, text]) => (valid) => ({ input: { ...valid, restoreFrom: { files } }, path: "restoreFrom.files", texts: [text] })),
        ),
      ],
    },

    "krcloud:dataquery:DataSource": {
      keep(i) {
        if (i.type === "POSTGRESQL" && i.databaseName === undefined) i.databaseName = "app";
        if (i.type === "MYSQL") delete i.databaseName;
        keepOneOf(i, "password", "passwordCiphertext", true);
      },
      rules: [
        ...oneOfRules("", (i) => i, "password", "passwordCiphertext", true, ""),
        rule(
          "a PostgreSQL data source names its database",
          "",
          fc.constant((valid) => {
            const input: Input = { ...valid, type: "POSTGRESQL" };
            delete input.databaseName;
            return { input, path: "databaseName", texts: ["is required for a PostgreSQL data source"] };
          }),
        ),
        rule(
          "a MySQL data source takes no database name",
          "",
          fc.stringMatching(/^[a-z]{1,10}$/).map((db) => (valid) => ({
            input: { ...valid, type: "MYSQL", databaseName: db },
            path: "databaseName",
            texts: ["applies to PostgreSQL data sources only"],
          })),
        ),
      ],
    },

    "krcloud:dataquery:Query": {
      values: TIMEOUTS,
      rules: [
        ...serviceRules(
          "dataSource and database are printable ASCII (they travel as headers; undici sends nothing else)",
          fc.tuple(fc.constantFrom("dataSource", "database"), fc.constantFrom("\n", "\u0000", "\uD55C", "\u{1F600}")),
          ([key, bad]) =>
            (valid) => ({ input: { ...valid, [key]: `shop${bad}` }, path: key, texts: ["must be printable ASCII"] }),
        ),
      ],
    },

    "krcloud:hadoop:Cluster": {
      values: TIMEOUTS,
      keep(i) {
        keepOneOf(i, "adminPassword", "adminPasswordCiphertext", false);
        if (isPlainObject(i.metastore) && isPlainObject(i.metastore.mysql)) keepOneOf(i.metastore.mysql, "password", "passwordCiphertext", true);
        if (i.installComponents !== undefined) i.clusterType = "custom";
        if (i.clusterType === "custom" && arr(i.installComponents).length === 0) i.installComponents = ["hive"];
        const replication = typeof i.hdfsReplication === "number" ? i.hdfsReplication : 3;
        if (typeof i.workerCnt === "number" && i.workerCnt < replication) i.workerCnt = replication;
        if (isPlainObject(i.metastore)) {
          const m = i.metastore;
          if (m.mysql !== undefined && m.dataCatalogId !== undefined) delete m.dataCatalogId;
          if (m.mysql === undefined && m.dataCatalogId === undefined) m.dataCatalogId = "catalog-1";
        }
        if (i.rerun !== undefined && i.userTask === undefined) i.userTask = { type: "spark", terminationPolicy: "always", fileUrl: "bucket/job.jar" };
        if (isPlainObject(i.userTask)) {
          const t = i.userTask;
          if (t.type === "hive") {
            if (t.hiveQuery !== undefined && t.fileUrl !== undefined) delete t.fileUrl;
            if (t.hiveQuery === undefined && t.fileUrl === undefined) t.hiveQuery = "select 1";
            delete t.deployMode;
          }
          if (t.type === "spark" && t.fileUrl === undefined) t.fileUrl = "bucket/job.jar";
        }
        if (isPlainObject(i.rerun)) {
          const r = i.rerun;
          const seen = new Set<unknown>();
          r.instanceSpecs = arr(r.instanceSpecs).filter((s) => !seen.has(obj(s).type) && seen.add(obj(s).type));
          const masters = i.isHa === true ? 3 : 1;
          let workers = typeof i.workerCnt === "number" ? i.workerCnt : 1;
          for (const s of arr(r.instanceSpecs).map(obj)) {
            if (s.type === "MASTER" && s.nodeCnt !== undefined) s.nodeCnt = masters;
            if (s.type === "WORKER" && typeof s.nodeCnt === "number") workers = s.nodeCnt;
          }
          const config = obj(r.config);
          const rerunReplication = typeof config.hdfsReplication === "number" ? config.hdfsReplication : replication;
          if (workers < rerunReplication) {
            if (isPlainObject(r.config) && config.hdfsReplication !== undefined) config.hdfsReplication = workers;
            for (const s of arr(r.instanceSpecs).map(obj))
              if (s.type === "WORKER" && typeof s.nodeCnt === "number") s.nodeCnt = Math.max(workers, rerunReplication);
          }
          if (obj(i.userTask).type === "hive" && isPlainObject(r.userTaskInfo)) delete r.userTaskInfo.deployMode;
        }
      },
      rules: [
        ...oneOfRules("", (i) => i, "adminPassword", "adminPasswordCiphertext", false, ""),
        ...oneOfRules(
          "",
          (i) => {
            const m = isPlainObject(i.metastore) ? i.metastore : (i.metastore = {});
            delete (m as Obj).dataCatalogId;
            if (!isPlainObject((m as Obj).mysql)) (m as Obj).mysql = { objectId: "db-1", dbName: "hive", userId: "hive", password: "pw-1" };
            return (m as Obj).mysql as Obj;
          },
          "password",
          "passwordCiphertext",
          true,
          "metastore.mysql",
        ),
        ...serviceRules("a userScript is not empty (the service refuses an empty Base64 script)", fc.constantFrom(""), (empty) => (valid) => ({
          input: { ...valid, userScript: empty },
          path: "userScript",
          texts: ["must not be empty"],
        })),
        rule(
          "installComponents only for a custom cluster",
          "",
          fc.constantFrom("hadoop", "hbase", "trino", "dataflow").map((type) => (valid) => ({
            input: { ...valid, clusterType: type, installComponents: ["hive"] },
            path: "installComponents",
            texts: ["applies to clusterType custom only"],
          })),
        ),
        rule(
          "a custom cluster lists its components",
          "",
          fc.boolean().map((empty) => (valid) => {
            const input: Input = { ...valid, clusterType: "custom" };
            if (empty) input.installComponents = [];
            else delete input.installComponents;
            return { input, path: "installComponents", texts: ["is required for clusterType custom"] };
          }),
        ),
        rule(
          "workerCnt is at least hdfsReplication",
          "",
          fc.tuple(fc.integer({ min: 1, max: 499 }), fc.integer({ min: 1, max: 500 })).map(([workers, more]) => (valid) => {
            const replication = Math.min(500, workers + more);
            return {
              input: { ...valid, workerCnt: workers, hdfsReplication: replication },
              path: "workerCnt",
              texts: [`must be at least hdfsReplication (${replication})`],
            };
          }),
        ),
        rule(
          "a metastore is a MySQL database or a data catalog, not both",
          "",
          fc.boolean().map((both) => (valid) => ({
            input: {
              ...valid,
              metastore: both ? { mysql: { objectId: "db-1", dbName: "hive", userId: "hive", password: "pw" }, dataCatalogId: "catalog-1" } : {},
            },
            path: "metastore",
            texts: ["set exactly one of mysql and dataCatalogId"],
          })),
        ),
        rule(
          "a hive task has exactly one of hiveQuery and fileUrl",
          "",
          fc.boolean().map((both) => (valid) => ({
            input: { ...valid, userTask: { type: "hive", terminationPolicy: "never", ...(both ? { hiveQuery: "select 1", fileUrl: "bucket/q.sql" } : {}) } },
            path: "userTask.hiveQuery",
            texts: ["a hive task needs exactly one of hiveQuery and fileUrl"],
          })),
        ),
        rule(
          "deployMode is for spark tasks",
          "",
          fc.constantFrom("cluster", "client").map((mode) => (valid) => ({
            input: { ...valid, userTask: { type: "hive", terminationPolicy: "never", hiveQuery: "select 1", deployMode: mode } },
            path: "userTask.deployMode",
            texts: ["applies to spark tasks only"],
          })),
        ),
        rule(
          "a spark task names its JAR",
          "",
          fc.constantFrom("never", "onSuccess", "always").map((policy) => (valid) => ({
            input: { ...valid, userTask: { type: "spark", terminationPolicy: policy } },
            path: "userTask.fileUrl",
            texts: ["a spark task needs the JAR's fileUrl"],
          })),
        ),
        rule(
          "rerun only with a userTask",
          "",
          fc.stringMatching(/^[a-z0-9]{1,8}$/).map((trigger) => (valid) => {
            const input: Input = { ...valid, rerun: { trigger } };
            delete input.userTask;
            return { input, path: "rerun", texts: ["applies to job clusters (with a userTask) only"] };
          }),
        ),
        rule(
          "a re-run lists each instance group once",
          "",
          fc.tuple(fc.constantFrom("MASTER", "WORKER", "TASK"), fc.nat()).map(([type, k]) => (valid) => {
            const specs: Obj[] = [{ type: "MASTER" }, { type: "WORKER", volumeSize: 100 }, { type: "TASK" }];
            specs.splice(k % (specs.length + 1), 0, { type });
            const second = specs.findIndex((s, i) => specs.findIndex((t) => t.type === s.type) < i);
            return {
              input: { ...valid, ...jobCluster, rerun: { trigger: "t", instanceSpecs: specs } },
              path: `rerun.instanceSpecs[${second}].type`,
              texts: [`${String(specs[second]!.type)} is given twice`],
            };
          }),
        ),
        rule(
          "a re-run keeps the cluster's master count (1, or 3 with isHa)",
          "",
          fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 1000 })).map(([ha, n]) => (valid) => {
            const masters = ha ? 3 : 1;
            const nodeCnt = n === masters ? masters + 1 : n;
            return {
              input: { ...valid, ...jobCluster, isHa: ha, rerun: { trigger: "t", instanceSpecs: [{ type: "MASTER", nodeCnt }] } },
              path: "rerun.instanceSpecs[0].nodeCnt",
              texts: [`must be ${masters}: the cluster has ${masters} master node`],
            };
          }),
        ),
        rule(
          "a re-run keeps at least hdfsReplication workers",
          "",
          fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 100 }), fc.boolean()).map(([workers, more, bySpec]) => (valid) => {
            const replication = workers + more;
            const input: Input = { ...valid, ...jobCluster };
            if (bySpec) {
              Object.assign(input, { workerCnt: replication, hdfsReplication: replication });
              input.rerun = { trigger: "t", instanceSpecs: [{ type: "WORKER", nodeCnt: workers }] };
              return { input, path: "rerun.instanceSpecs[0].nodeCnt", texts: [`must be at least hdfsReplication (${replication})`] };
            }
            Object.assign(input, { workerCnt: workers, hdfsReplication: 1 });
            input.rerun = { trigger: "t", config: { hdfsReplication: replication } };
            return { input, path: "rerun.config.hdfsReplication", texts: [`must be at most the workers (${workers})`] };
          }),
        ),
        rule(
          "a re-run's deployMode is for spark tasks",
          "",
          fc.constantFrom("cluster", "client").map((mode) => (valid) => ({
            input: {
              ...valid,
              userTask: { type: "hive", terminationPolicy: "always", hiveQuery: "select 1" },
              rerun: { trigger: "t", userTaskInfo: { deployMode: mode } },
            },
            path: "rerun.userTaskInfo.deployMode",
            texts: ["applies to spark tasks only"],
          })),
        ),
      ],
    },

    "krcloud:kms:Ciphertext": { rules: [] },
    "krcloud:kms:DataKey": { rules: [] },
  };
}

/** A job cluster whose task takes any re-run option. */
const jobCluster = { userTask: { type: "spark", terminationPolicy: "always", fileUrl: "bucket/job.jar" } } as const;
