/**
 * Generated malformed requests for every route of every local cloud service and of the control
 * API (property-based, fast-check with a fixed seed): wrong types, missing and extra fields
 * (`__proto__`, `constructor`), huge and negative numbers, NaN-like strings, unicode and NUL,
 * overlong names and ids, malformed JSON and XML, wrong content types, bad query strings, missing
 * and bad credentials. Each gets a 4xx with an error body (the status the seed gives where it
 * gives one: 400 bad input, 401 credentials, 404 ids, 415 content types), never a 5xx; odd but
 * acceptable input (unicode in free text, unknown query parameters) may succeed but never earns a
 * 5xx; and the local cloud keeps answering (a health request after each batch of 25).
 *
 * Each run starts from the route's valid request (the resources it names exist: `ensure` puts
 * back what a generated request deleted) and changes one thing. The number of requests is in each
 * test's name and printed at the end. Deeper runs: `FUZZ_PER_ROUTE=300 FUZZ_SEED=7` (other
 * seeds), `FUZZ_COLLECT=1` (print every finding instead of stopping at the first), `FUZZ_DEBUG=1`
 * (the statuses each service answered).
 */
import fc from "fast-check";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../emulator";
import { hadoopCreateBody } from "../support/local-cloud-bodies";

const PROJECT = "fuzzmalformed";
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** Runs per route; every route gets about this many generated requests. */
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 10);
const BATCH = 25;

type Json = Record<string, unknown>;
type FieldType = "string" | "name" | "text" | "int" | "number" | "bool" | "array" | "object" | "enum";

interface Field {
  key: string;
  type: FieldType;
  /** Required by the route: leaving it out is 400. Default true. */
  required?: boolean;
}

interface Route {
  op: string;
  method: string;
  /** Service-relative path; `{slot}` placeholders are filled from the service's ids. */
  path: string;
  auth: "token" | "key" | "none";
  json?: () => Json;
  /** Top-level body fields whose type the route checks (a wrong type is 400). */
  fields?: Field[];
  /** A non-JSON body (XML or text) with malformed variants that are 400. */
  raw?: { contentType: string; body: () => string; malformed: string[] };
  /** Content-Types the route requires (415 otherwise). */
  media?: string[];
  headers?: () => Record<string, string>;
  query?: string;
  /** Unknown body fields are 400 (else ignored). */
  strict?: boolean;
  /** Statuses for bad input other than 400 (e.g. 422, or 404 where the id is looked at first). */
  invalid?: number[];
  /** Path slots that name what the request creates: a generated value there may be a valid name. */
  creates?: string[];
}

interface Service {
  name: string;
  /** Its entry in `ids`. */
  key: string;
  base: () => string;
  routes: Route[];
  /** Puts back the resources the routes name (a generated request may have deleted one). */
  ensure: () => Promise<void>;
  /** Error bodies are JSON `{code, message}`, else plain text. */
  json: (path: string) => boolean;
  /** Bad values for slots whose names are free (object storage: "constructor" is a valid bucket name). */
  badIds?: Record<string, string[]>;
}

type Expectation = { kind: "exact"; statuses: number[] } | { kind: "4xx" } | { kind: "not5xx" };

interface Mutation {
  label: string;
  method: string;
  /** With `{slot}` placeholders the ids fill when it is sent (a resource may have been made again meanwhile). */
  path: string;
  headers: () => Record<string, string>;
  body: () => string | undefined;
  expect: Expectation;
}

const WRONG: Record<FieldType, unknown[]> = {
  string: [5, -1, true, null, [], {}, ["x"], { a: 1 }],
  name: [5, true, null, [], {}, "", "A".repeat(300), "a\u0000b", "\uD800", "..", "UPPER CASE", "ü".repeat(80)],
  text: [5, true, [], { a: 1 }],
  int: ["5", "NaN", "Infinity", "1e999", "-0", "", true, null, [], {}, 1.5, -1, 1e308, -1e308, 2 ** 53 + 2],
  number: ["5", "NaN", "Infinity", "1e999", "", true, null, [], {}, -1, -0.5, 1e308, -1e308],
  bool: ["true", 1, 0, null, "yes", [], {}],
  array: ["x", 5, {}, null, true, [5], [null]],
  object: ["x", 5, [], true],
  enum: ["", "nope", 5, null, [], {}, "\u0000"],
};
const WEIRD_TEXT = ["", "\u0000", "a\u0000b", "\uD800", "\u202Eevil", "💩".repeat(20), "x".repeat(20_000), "NaN", "__proto__", "<x/>", "'; drop table t; --"];
const BAD_IDS = [
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "x".repeat(3000),
  "%00",
  "a%00b",
  "%E2%82",
  "%zz",
  "..",
  "%2e%2e",
  "%F0%9F%92%A9",
  "-1",
  "NaN",
  "1e999",
];
const BAD_JSON = ['{"a":', "{", "}", "[1,]", '{"a":1,}', "nul", "{'a':1}", '{"a":"\\u12"}', "\u0000", "[".repeat(20_000)];
const NOT_OBJECTS = ["[]", "null", "5", '"x"', "true", "[{}]"];
const BAD_QUERIES = [
  "limit=-1",
  "limit=1e999&offset=NaN",
  "page=-5&size=0",
  "marker=%zz",
  "__proto__=1&constructor=2",
  "since=abc",
  "a=%00",
  "x".repeat(5000) + "=1",
  "sort=__proto__,asc",
  "states=NOPE",
];
const BAD_CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "image/png"];

/** The generated variants of one route; each says what the answer must be. */
function mutations(service: Service, route: Route): fc.Arbitrary<Mutation> {
  const invalid: Expectation = { kind: "exact", statuses: route.invalid ? [400, ...route.invalid] : [400] };
  const auth = (): Record<string, string> => (route.auth === "none" ? {} : creds[route.auth]!);
  const withQuery = (path: string): string => path + (route.query ? `?${route.query}` : "");
  const base = (): Mutation => ({
    label: "",
    method: route.method,
    path: withQuery(route.path),
    headers: () => ({
      ...auth(),
      ...(route.json ? { "Content-Type": "application/json" } : route.raw ? { "Content-Type": route.raw.contentType } : {}),
      ...(route.headers?.() ?? {}),
    }),
    body: () => (route.json ? JSON.stringify(route.json()) : route.raw?.body()),
    expect: { kind: "not5xx" },
  });
  const withBody = (label: string, body: string, expect: Expectation): Mutation => ({ ...base(), label, body: () => body, expect });
  const withField = (label: string, change: (b: Json) => void, expect: Expectation): Mutation => ({
    ...base(),
    label,
    body: () => {
      const b = route.json!();
      change(b);
      return JSON.stringify(b);
    },
    expect,
  });
  const options: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...BAD_QUERIES).map((q) => {
      const m = base();
      return { ...m, label: `query ${q.slice(0, 40)}`, path: `${m.path}${m.path.includes("?") ? "&" : "?"}${q}` };
    }),
  ];
  const slots = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (slots.length > 0) {
    options.push(
      fc
        .constantFrom(...slots)
        .chain((slot) => fc.constantFrom(...(service.badIds?.[slot] ?? BAD_IDS)).map((id) => [slot, id] as const))
        .map(([slot, id]) => ({
          ...base(),
          label: `id ${slot}=${id.slice(0, 30)}`,
          path: withQuery(route.path.replace(`{${slot}}`, id)),
          expect: route.creates?.includes(slot) ? { kind: "not5xx" } : { kind: "4xx" },
        })),
    );
  }
  if (route.auth !== "none") {
    const presented: Record<string, string>[] = [
      {},
      { "X-Auth-Token": "not-a-token" },
      { "Credential-ID": "nope", "Credential-Secret": "nope" },
      { other: "" },
    ];
    options.push(
      fc.constantFrom(...presented).map((h) => {
        const m = base();
        const credential = (): Record<string, string> => (h.other !== undefined ? creds[route.auth === "token" ? "key" : "token"]! : h);
        const headers = (): Record<string, string> => ({
          ...Object.fromEntries(Object.entries(m.headers()).filter(([k]) => !["x-auth-token", "credential-id", "credential-secret"].includes(k.toLowerCase()))),
          ...credential(),
        });
        return { ...m, label: `credential ${Object.keys(h).join("+") || "none"}`, headers, expect: { kind: "exact", statuses: [401] } };
      }),
    );
  }
  if (route.json) {
    options.push(fc.constantFrom(...BAD_JSON).map((raw) => withBody(`json ${raw.slice(0, 20)}`, raw, invalid)));
    options.push(fc.constantFrom(...NOT_OBJECTS).map((raw) => withBody(`not an object ${raw}`, raw, invalid)));
    options.push(
      fc
        .tuple(fc.constantFrom("__proto__", "constructor", "prototype", "extraField"), fc.constantFrom<unknown>(1, {}, { polluted: true }, null))
        .map(([k, v]) => {
          const m = base();
          // Spliced into the text: JSON.stringify of an object cannot make an own `__proto__` key.
          const body = (): string => {
            const text = m.body()!;
            return `${text.slice(0, -1)}${text === "{}" ? "" : ","}${JSON.stringify(k)}:${JSON.stringify(v)}}`;
          };
          return { ...m, label: `extra ${k}`, body, expect: route.strict ? invalid : { kind: "not5xx" } };
        }),
    );
    const checked = route.fields ?? [];
    if (checked.length > 0) {
      options.push(
        fc
          .constantFrom(...checked)
          .chain((f) => fc.constantFrom(...WRONG[f.type]).map((v) => ({ f, v })))
          .map(({ f, v }) =>
            withField(
              `${f.key} = ${JSON.stringify(v)?.slice(0, 30)}`,
              (b) => {
                b[f.key] = v;
              },
              invalid,
            ),
          ),
      );
      const required = checked.filter((f) => f.required !== false);
      if (required.length > 0)
        options.push(
          fc.constantFrom(...required).map((f) =>
            withField(
              `without ${f.key}`,
              (b) => {
                delete b[f.key];
              },
              invalid,
            ),
          ),
        );
      const texts = checked.filter((f) => f.type === "text");
      if (texts.length > 0)
        options.push(
          fc.tuple(fc.constantFrom(...texts), fc.constantFrom(...WEIRD_TEXT)).map(([f, v]) =>
            withField(
              `${f.key} = weird text ${JSON.stringify(v.slice(0, 12))}`,
              (b) => {
                b[f.key] = v;
              },
              { kind: "not5xx" },
            ),
          ),
        );
    }
  }
  if (route.raw && route.raw.malformed.length > 0)
    options.push(fc.constantFrom(...route.raw.malformed).map((raw) => withBody(`malformed ${raw.slice(0, 30)}`, raw, invalid)));
  if (route.media) {
    options.push(
      fc.constantFrom(...BAD_CONTENT_TYPES).map((type) => {
        const m = base();
        return { ...m, label: `Content-Type ${type}`, headers: () => ({ ...m.headers(), "Content-Type": type }), expect: { kind: "exact", statuses: [415] } };
      }),
    );
  }
  return fc.oneof(...options);
}

interface Answer {
  status: number;
  text: string;
}

/** Sends `m` with the placeholders of its path filled from `slots` (the service's ids now). */
async function send(service: Service, m: Mutation, slots: Record<string, string>): Promise<{ url: string; answer: Answer }> {
  const path = m.path.replace(/\{(\w+)\}/g, (_, slot: string) => encodeURIComponent(slots[slot] ?? `missing-${slot}`));
  const url = `${service.base()}${path}`;
  const res = await request(url, {
    method: m.method as "GET",
    headers: m.headers(),
    body: m.method === "GET" || m.method === "HEAD" ? null : (m.body() ?? null),
  });
  return { url, answer: { status: res.statusCode, text: await res.body.text() } };
}

/** What is wrong with an answer, or undefined. */
function judge(service: Service, m: Mutation, answer: Answer): string | undefined {
  if (answer.status >= 500) return `a ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (m.expect.kind === "exact" && !m.expect.statuses.includes(answer.status))
    return `${answer.status} instead of ${m.expect.statuses.join(" or ")}: ${answer.text.slice(0, 300)}`;
  if (m.expect.kind === "4xx" && (answer.status < 400 || answer.status > 499)) return `${answer.status} instead of a 4xx: ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400 && m.method !== "HEAD") {
    if (answer.text.trim() === "") return `${answer.status} without an error body`;
    if (service.json(m.path)) {
      let parsed: { code?: unknown; message?: unknown } | undefined;
      try {
        parsed = JSON.parse(answer.text) as { code?: unknown; message?: unknown };
      } catch {
        return `${answer.status} with a body that is not JSON: ${answer.text.slice(0, 100)}`;
      }
      if (typeof parsed?.code !== "string" || typeof parsed.message !== "string")
        return `${answer.status} without code and message: ${answer.text.slice(0, 100)}`;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// The local cloud and its resources

let cloud: LocalCloud;
const creds: Record<string, Record<string, string>> = {};
const ids: Record<string, Record<string, string>> = { os: {}, cache: {}, kms: {}, dq: {}, hadoop: {}, control: {} };
let total = 0;

async function api(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await request(url, {
    method: method as "GET",
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

const exists = (service: string, kind: string, id: string | undefined): boolean => {
  if (id === undefined) return false;
  try {
    cloud.control.getResource(service, kind, id);
    return true;
  } catch {
    return false;
  }
};

const subnets = [{ id: "sn-a" }, { id: "sn-b" }];
const cacheCommon = { version: "7.0.15", port: 6379, flavorId: "redis.small", subnets, securityGroups: [{ id: "sg-1" }] };
const clusterBody = (name: string): Json => ({
  ...cacheCommon,
  name,
  parameterGroupId: "default.redis7.0.cluster",
  shardCount: 2,
  nodeCountPerShard: 2,
  subnetAssignments: [0, 1].map(() => ({ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] })),
});
const setBody = (name: string): Json => ({
  ...cacheCommon,
  instanceSetName: name,
  projectId: PROJECT,
  parameterGroupId: "default.redis7.0.standalone",
  replicas: 3,
  recoveryEnabled: false,
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }, { id: "sn-b" }] }],
});
const hadoopBody = (name: string, extra: Json = {}): Json => hadoopCreateBody({ name, ...extra });
const LIFECYCLE =
  "<LifecycleConfiguration><Rule><Prefix>a</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
const MALFORMED_XML = [
  "<<<",
  "<LifecycleConfiguration><Rule>",
  '<!DOCTYPE x [<!ENTITY a "b">]><LifecycleConfiguration>&a;</LifecycleConfiguration>',
  "<a>".repeat(20_000),
  "\u0000",
  "<LifecycleConfiguration><Rule><Prefix>a</Prefix><Status>Maybe</Status><Expiration><Days>-1</Days></Expiration></Rule></LifecycleConfiguration>",
  "<Other/>",
];
let seq = 0;

// ---------------------------------------------------------------------------------------------------
// Services and their routes

const BAD_BUCKETS = ["__proto__", "hasOwnProperty", "UPPER", "a", "x".repeat(300), "%00", "a%00b", "%E2%82", "%zz", "-x", "a_b", "NaN", "%F0%9F%92%A9"];
const BAD_OBJECTS = ["x".repeat(3000), "%00", "a%00b", "%E2%82"];

const objectStorage: Service = {
  name: "object storage",
  key: "os",
  badIds: { bucket: BAD_BUCKETS, empty: BAD_BUCKETS, object: BAD_OBJECTS },
  base: () => cloud.endpoints["object-storage"]!,
  json: (path) => path.startsWith("/v1_ext") || path.startsWith("/info"),
  async ensure() {
    const os = this.base();
    const t = creds.token!;
    const i = ids.os!;
    i.account = PROJECT;
    if (!exists("object-storage", "bucket", "fz-bucket")) {
      await api("PUT", `${os}/v1_ext/bucket`, t, { name: "fz-bucket", type: "STANDARD" });
      await api("PUT", `${os}/v1_ext/bucket/fz-bucket/cors`, t, { cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"] }] });
    }
    i.bucket = "fz-bucket";
    for (const o of ["fz-obj.txt", "seg/1"])
      if (!exists("object-storage", "object", `fz-bucket/${o}`))
        await request(`${os}/v1/${PROJECT}/fz-bucket/${o}`, { method: "PUT", headers: t, body: "hello" }).then((r) => r.body.dump());
    i.object = "fz-obj.txt";
    if (!exists("object-storage", "bucket", "fz-empty")) await api("PUT", `${os}/v1_ext/bucket`, t, { name: "fz-empty", type: "STANDARD" });
    i.empty = "fz-empty";
    if (!exists("object-storage", "multipart-upload", `fz-bucket/fz-mp/${i.upload}`)) {
      const res = await request(`${os}/v1/${PROJECT}/fz-bucket/fz-mp?uploads`, { method: "POST", headers: t });
      i.upload = /<UploadId>([^<]+)<\/UploadId>/.exec(await res.body.text())![1]!;
    }
  },
  routes: [
    { op: "GetInfo", method: "GET", path: "/info", auth: "none" },
    { op: "ListBuckets", method: "GET", path: "/v1_ext/bucket", auth: "token", query: "limit=5" },
    {
      op: "CreateBucket",
      method: "PUT",
      path: "/v1_ext/bucket",
      auth: "token",
      json: () => ({ name: `fz-new-${++seq}`, type: "STANDARD" }),
      fields: [
        { key: "name", type: "name" },
        { key: "type", type: "enum" },
      ],
      media: ["application/json"],
      strict: true,
    },
    { op: "GetBucketMeta", method: "GET", path: "/v1_ext/bucket/{bucket}", auth: "token" },
    {
      op: "UpdateBucketAcl",
      method: "POST",
      path: "/v1_ext/bucket/{bucket}",
      auth: "token",
      json: () => ({ name: "fz-bucket", acl: { public: "deny" } }),
      fields: [
        { key: "name", type: "string" },
        { key: "acl", type: "object" },
      ],
      media: ["application/json"],
      strict: true,
    },
    { op: "DeleteBucket", method: "DELETE", path: "/v1_ext/bucket/{empty}", auth: "token" },
    {
      op: "PutBucketLifecycleConfiguration",
      method: "PUT",
      path: "/v1_ext/bucket/{bucket}/lifecycle",
      auth: "token",
      raw: { contentType: "application/xml", body: () => LIFECYCLE, malformed: MALFORMED_XML },
      media: ["application/xml"],
    },
    { op: "GetBucketLifecycleConfiguration", method: "GET", path: "/v1_ext/bucket/{bucket}/lifecycle", auth: "token" },
    { op: "DeleteBucketLifecycleConfiguration", method: "DELETE", path: "/v1_ext/bucket/{bucket}/lifecycle", auth: "token" },
    { op: "GetBucketCors", method: "GET", path: "/v1_ext/bucket/{bucket}/cors", auth: "token" },
    {
      op: "PutBucketCors",
      method: "PUT",
      path: "/v1_ext/bucket/{bucket}/cors",
      auth: "token",
      json: () => ({ cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"] }] }),
      fields: [{ key: "cors", type: "array" }],
      media: ["application/json"],
      strict: true,
    },
    { op: "ListContainers", method: "GET", path: "/v1/{account}", auth: "token", query: "format=json" },
    { op: "HeadContainer", method: "HEAD", path: "/v1/{account}/{bucket}", auth: "token" },
    { op: "ListObjects", method: "GET", path: "/v1/{account}/{bucket}", auth: "token", query: "format=json&limit=2" },
    { op: "ListMultipartUploads", method: "GET", path: "/v1/{account}/{bucket}", auth: "token", query: "uploads" },
    {
      op: "CreateContainer",
      method: "PUT",
      path: "/v1/{account}/{bucket}",
      auth: "token",
      headers: () => ({ "X-Container-Meta-Team": "fuzz" }),
      creates: ["bucket"],
    },
    { op: "UpdateContainerMetadata", method: "POST", path: "/v1/{account}/{bucket}", auth: "token", headers: () => ({ "X-Container-Meta-Team": "fuzz" }) },
    { op: "DeleteContainer", method: "DELETE", path: "/v1/{account}/{empty}", auth: "token" },
    {
      op: "PutObject",
      method: "PUT",
      path: "/v1/{account}/{bucket}/{object}",
      auth: "token",
      raw: { contentType: "text/plain", body: () => "hello", malformed: [] },
      creates: ["object"],
    },
    {
      op: "PutSloManifest",
      method: "PUT",
      path: "/v1/{account}/{bucket}/fz-slo",
      auth: "token",
      query: "multipart-manifest=put",
      raw: {
        contentType: "application/json",
        body: () => JSON.stringify([{ path: "fz-bucket/seg/1" }]),
        malformed: ["[", "{}", "[]", '[{"path":5}]', '[{"path":"fz-bucket/seg/1","size_bytes":-1}]', '[{"path":"fz-bucket/seg/1","__proto__":1}]', "null"],
      },
    },
    { op: "HeadObject", method: "HEAD", path: "/v1/{account}/{bucket}/{object}", auth: "token" },
    { op: "GetObject", method: "GET", path: "/v1/{account}/{bucket}/{object}", auth: "token", headers: () => ({ Range: "bytes=0-1" }) },
    { op: "PostObject", method: "POST", path: "/v1/{account}/{bucket}/{object}", auth: "token", headers: () => ({ "X-Object-Meta-Team": "fuzz" }) },
    { op: "CopyObject", method: "COPY", path: "/v1/{account}/{bucket}/{object}", auth: "token", headers: () => ({ Destination: "/fz-bucket/fz-copy" }) },
    { op: "DeleteObject", method: "DELETE", path: "/v1/{account}/{bucket}/fz-copy", auth: "token" },
    { op: "InitiateMultipartUpload", method: "POST", path: "/v1/{account}/{bucket}/fz-mp2", auth: "token", query: "uploads" },
    { op: "UploadPart", method: "PUT", path: "/v1/{account}/{bucket}/fz-mp", auth: "token", query: "uploadId={upload}&partNumber=1" },
    { op: "ListParts", method: "GET", path: "/v1/{account}/{bucket}/fz-mp", auth: "token", query: "uploadId={upload}" },
    {
      op: "CompleteMultipartUpload",
      method: "PUT",
      path: "/v1/{account}/{bucket}/fz-mp",
      auth: "token",
      query: "uploadId={upload}",
      raw: {
        contentType: "application/xml",
        body: () => '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>',
        malformed: ["<<<", "<CompleteMultipartUpload><Part><PartNumber>x</PartNumber></Part></CompleteMultipartUpload>", "<Other/>", "<a>".repeat(20_000)],
      },
      invalid: [404, 409],
    },
    { op: "CreateTempUrl", method: "GET", path: "/v1/{account}/{bucket}/{object}", auth: "token", query: "temp_url&temp_url_expires=3600" },
  ],
};

const cache: Service = {
  name: "cache",
  key: "cache",
  base: () => cloud.endpoints.cache!,
  json: () => true,
  async ensure() {
    const i = ids.cache!;
    const c = (method: string, path: string, body?: unknown) => api(method, `${cloud.endpoints.cache!}/v1${path}`, creds.token!, body);
    const present =
      exists("cache", "parameter-group", i.group) &&
      exists("cache", "cluster", i.cluster) &&
      exists("cache", "shard", i.shard) &&
      exists("cache", "node", i.node) &&
      exists("cache", "instance-set", i.set) &&
      exists("cache", "instance", i.instance);
    if (present) return;
    for (const r of cloud.control.inventory()) if (r.service === "cache" && r.projectId === PROJECT) cloud.control.deleteResource("cache", r.kind, r.id);
    const n = ++seq;
    i.group = (await c("POST", "/parameter-groups", { parameterGroupId: "default.redis7.0.cluster", name: `fz-group-${n}` })).objectId;
    i.cluster = (await c("POST", "/clusters", clusterBody(`fz-cluster-${n}`))).objectId;
    const shards = (await c("GET", `/clusters/${i.cluster}/shards`)).shards as { id: string; nodes: { id: string; role: string }[] }[];
    i.shard = shards[0]!.id;
    i.node = shards[0]!.nodes.find((x) => x.role === "replica")!.id;
    i.set = (await c("POST", "/instance-sets", setBody(`fz-set-${n}`))).objectId;
    i.instance = ((await c("GET", `/instance-sets/${i.set}/instances`)).data as { objectId: string; role: string }[]).find(
      (x) => x.role === "replica",
    )!.objectId;
    i.primary = ((await c("GET", `/instance-sets/${i.set}/instances`)).data as { objectId: string; role: string }[]).find(
      (x) => x.role === "primary",
    )!.objectId;
  },
  routes: [
    { op: "ListVersions", method: "GET", path: "/v1/redis/versions", auth: "token" },
    { op: "ListFlavors", method: "GET", path: "/v1/redis/flavors", auth: "token" },
    { op: "ListClusters", method: "GET", path: "/v1/clusters", auth: "token", query: "parameterGroup={group}" },
    { op: "GetCluster", method: "GET", path: "/v1/clusters/{cluster}", auth: "token" },
    {
      op: "CreateCluster",
      method: "POST",
      path: "/v1/clusters",
      auth: "token",
      json: () => clusterBody(`fz-new-${++seq}`),
      fields: [
        { key: "name", type: "name" },
        { key: "version", type: "string" },
        { key: "port", type: "int" },
        { key: "flavorId", type: "string" },
        { key: "parameterGroupId", type: "string" },
        { key: "subnets", type: "array" },
        { key: "subnetAssignments", type: "array" },
        { key: "securityGroups", type: "array" },
        { key: "shardCount", type: "int" },
        { key: "nodeCountPerShard", type: "int" },
        { key: "description", type: "text", required: false },
      ],
      invalid: [422],
    },
    {
      op: "UpdateCluster",
      method: "PATCH",
      path: "/v1/clusters/{cluster}",
      auth: "token",
      json: () => ({ description: "fuzzed", backupSchedule: { cron: "0 3 * * *" } }),
      fields: [
        { key: "description", type: "text", required: false },
        { key: "backupSchedule", type: "object", required: false },
      ],
    },
    { op: "DeleteCluster", method: "DELETE", path: "/v1/clusters/{cluster}", auth: "token", query: "keepAutomaticBackups=false" },
    { op: "RetryParameterGroupApply", method: "POST", path: "/v1/clusters/{cluster}/parameter-group/apply", auth: "token", invalid: [409] },
    { op: "ListShards", method: "GET", path: "/v1/clusters/{cluster}/shards", auth: "token" },
    {
      op: "AddShard",
      method: "POST",
      path: "/v1/clusters/{cluster}/shards",
      auth: "token",
      json: () => ({ nodeCount: 2, subnetAssignment: { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] } }),
      fields: [
        { key: "nodeCount", type: "int" },
        { key: "subnetAssignment", type: "object" },
      ],
    },
    { op: "GetShard", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}", auth: "token" },
    { op: "DeleteShard", method: "DELETE", path: "/v1/clusters/{cluster}/shards/{shard}", auth: "token" },
    {
      op: "AddReplica",
      method: "POST",
      path: "/v1/clusters/{cluster}/shards/{shard}/nodes",
      auth: "token",
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: [{ key: "subnet", type: "object" }],
    },
    { op: "ListNodes", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}/nodes", auth: "token" },
    { op: "GetNode", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}/nodes/{node}", auth: "token" },
    { op: "DeleteNode", method: "DELETE", path: "/v1/clusters/{cluster}/shards/{shard}/nodes/{node}", auth: "token" },
    {
      op: "CreateInstanceSet",
      method: "POST",
      path: "/v1/instance-sets",
      auth: "token",
      json: () => setBody(`fz-set-new-${++seq}`),
      fields: [
        { key: "instanceSetName", type: "name" },
        { key: "version", type: "string" },
        { key: "port", type: "int" },
        { key: "replicas", type: "int" },
        { key: "recoveryEnabled", type: "bool" },
        { key: "subnets", type: "array" },
        { key: "subnetAssignments", type: "array" },
        { key: "projectId", type: "string" },
      ],
      invalid: [422],
    },
    {
      op: "UpdateInstanceSet",
      method: "PATCH",
      path: "/v1/instance-sets/{set}",
      auth: "token",
      json: () => ({ description: "fuzzed" }),
      fields: [
        { key: "description", type: "text", required: false },
        { key: "securityGroups", type: "array", required: false },
      ],
    },
    { op: "DeleteInstanceSet", method: "DELETE", path: "/v1/instance-sets/{set}", auth: "token" },
    { op: "ListInstances", method: "GET", path: "/v1/instance-sets/{set}/instances", auth: "token" },
    { op: "DeleteInstance", method: "DELETE", path: "/v1/instance-sets/{set}/instances/{instance}", auth: "token" },
    {
      op: "PromoteReplica",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/primary",
      auth: "token",
      json: () => ({ primaryId: ids.cache!.instance! }),
      fields: [{ key: "primaryId", type: "string" }],
    },
    {
      op: "AddReplicaInstance",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/replicas",
      auth: "token",
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: [{ key: "subnet", type: "object" }],
    },
    {
      op: "SetHighAvailability",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/recovery",
      auth: "token",
      json: () => ({ enabled: false }),
      fields: [{ key: "enabled", type: "bool" }],
    },
    {
      op: "CreateParameterGroup",
      method: "POST",
      path: "/v1/parameter-groups",
      auth: "token",
      json: () => ({ parameterGroupId: "default.redis7.0.cluster", name: `fz-pg-${++seq}`, description: "fuzz" }),
      fields: [
        { key: "parameterGroupId", type: "string" },
        { key: "name", type: "string" },
        { key: "description", type: "text", required: false },
      ],
      invalid: [404],
    },
    { op: "ListParameterGroups", method: "GET", path: "/v1/parameter-groups", auth: "token", query: "engineVersion=7.0&clusterMode=enabled" },
    { op: "GetParameterGroup", method: "GET", path: "/v1/parameter-groups/{group}", auth: "token" },
    {
      op: "ModifyParameterGroup",
      method: "PATCH",
      path: "/v1/parameter-groups/{group}",
      auth: "token",
      json: () => ({ parameters: [{ parameterKey: "timeout", parameterValue: "30" }], applyMode: "parallel" }),
      fields: [
        { key: "parameters", type: "array", required: false },
        { key: "applyMode", type: "enum", required: false },
        { key: "description", type: "text", required: false },
      ],
    },
    { op: "RollbackParameterGroup", method: "POST", path: "/v1/parameter-groups/{group}/rollback", auth: "token", invalid: [409] },
    {
      op: "ResetParameterGroup",
      method: "POST",
      path: "/v1/parameter-groups/{group}/reset",
      auth: "token",
      json: () => ({ applyMode: "sequential" }),
      fields: [{ key: "applyMode", type: "enum" }],
    },
    { op: "DeleteParameterGroup", method: "DELETE", path: "/v1/parameter-groups/{group}", auth: "token", invalid: [409] },
    { op: "ListParameterGroupEvents", method: "GET", path: "/v1/parameter-groups/{group}/events", auth: "token" },
  ],
};

const kmsRoute = (op: string, suffix: string, key: string, body: () => Json, fields: Field[]): Route => ({
  op,
  method: "POST",
  path: `/api/v1/keys/{${key}}${suffix}`,
  auth: "token",
  json: body,
  fields,
  media: ["application/json"],
});
const kms: Service = {
  name: "key management",
  key: "kms",
  base: () => cloud.endpoints.kms!,
  json: () => true,
  async ensure() {
    const i = ids.kms!;
    for (const [slot, type] of [
      ["sym", "symmetric"],
      ["asym", "asymmetric"],
      ["mac", "mac"],
    ] as const) {
      i[slot] = `fz-${slot}`;
      if (!exists("kms", "key", i[slot])) cloud.control.patchResource("kms", "key", i[slot], { projectId: PROJECT, type });
    }
  },
  routes: [
    kmsRoute("GenerateDataKey", "/data-key", "sym", () => ({}), []),
    kmsRoute("Encrypt", "/encrypt", "sym", () => ({ input: "hello", aad: "ctx" }), [
      { key: "input", type: "string" },
      { key: "aad", type: "string", required: false },
    ]),
    kmsRoute("Decrypt", "/decrypt", "sym", () => ({ ciphertext: "kms:1:AAAA" }), [{ key: "ciphertext", type: "string" }]),
    kmsRoute("Sign", "/sign", "asym", () => ({ content: "aGVsbG8=" }), [{ key: "content", type: "string" }]),
    kmsRoute("VerifySignature", "/sign/verify", "asym", () => ({ input: "aGVsbG8=", output: "1:AAAA" }), [
      { key: "input", type: "string" },
      { key: "output", type: "string" },
    ]),
    kmsRoute("CreateHmac", "/hmac", "mac", () => ({ content: "aGVsbG8=" }), [{ key: "content", type: "string" }]),
    kmsRoute("VerifyHmac", "/hmac/verify", "mac", () => ({ input: "aGVsbG8=", output: "AAAA" }), [
      { key: "input", type: "string" },
      { key: "output", type: "string" },
    ]),
  ],
};

const dataQuery: Service = {
  name: "data query",
  key: "dq",
  base: () => `${cloud.endpoints["data-query"]!}/v1/data-query`,
  json: () => true,
  async ensure() {
    const i = ids.dq!;
    const dq = (method: string, path: string, body?: unknown) => api(method, `${this.base()}${path}`, creds.key!, body);
    if (!exists("data-query", "instance", "fz-db")) {
      cloud.control.flush();
      await cloud.control.patchResource("data-query", "instance", "fz-db", {
        projectId: PROJECT,
        engine: "mysql",
        databases: { shop: "CREATE TABLE t(x INTEGER)" },
      });
    }
    if (!exists("object-storage", "bucket", "fz-results"))
      await api("PUT", `${cloud.endpoints["object-storage"]!}/v1_ext/bucket`, creds.token!, { name: "fz-results", type: "STANDARD" });
    if (!exists("data-query", "data-source", `${PROJECT}/fz_ds`))
      await dq("POST", "/data-source", { name: "fz_ds", type: "MYSQL", scope: "PRIVATE", instanceId: "fz-db", username: "u", password: "cHc=" });
    i.source = "fz_ds";
    if (!exists("data-query", "query", i.query))
      i.query = (await dq("POST", "/query", { query: "select 1", resultConfig: { bucketName: "fz-results" } })).queryInfo.queryId;
  },
  routes: [
    {
      op: "RunQuery",
      method: "POST",
      path: "/query",
      auth: "key",
      json: () => ({ query: "select 1", resultConfig: { bucketName: "fz-results" }, reuseConfig: { reuse: false } }),
      fields: [
        { key: "query", type: "string" },
        { key: "resultConfig", type: "object" },
      ],
      invalid: [404],
    },
    { op: "GetQueryResult", method: "GET", path: "/query/{query}", auth: "key", query: "page=0" },
    { op: "ListQueries", method: "GET", path: "/query", auth: "key", query: "size=5&sort=createdAt,desc" },
    { op: "AbortQuery", method: "PUT", path: "/query/{query}/abort", auth: "key", invalid: [409] },
    { op: "ListDataSources", method: "GET", path: "/data-source", auth: "key" },
    {
      op: "CreateDataSource",
      method: "POST",
      path: "/data-source",
      auth: "key",
      json: () => ({ name: `fz_new_${++seq}`, type: "MYSQL", scope: "PRIVATE", instanceId: "fz-db", username: "u", password: "cHc=", description: "fuzz" }),
      fields: [
        { key: "name", type: "name" },
        { key: "type", type: "enum" },
        { key: "scope", type: "enum" },
        { key: "instanceId", type: "string" },
        { key: "username", type: "string" },
        { key: "password", type: "string" },
        { key: "description", type: "text", required: false },
      ],
    },
    { op: "DeleteDataSource", method: "DELETE", path: "/data-source/{source}", auth: "key" },
  ],
};

const hadoop: Service = {
  name: "Hadoop",
  key: "hadoop",
  base: () => `${cloud.endpoints.hadoop!}/v2/hadoop-service/clusters`,
  json: () => true,
  async ensure() {
    const i = ids.hadoop!;
    const h = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
      api(method, `${this.base()}${path}`, { ...creds.key!, ...extra }, body);
    const live = (id: string | undefined) =>
      exists("hadoop", "cluster", id) && !/^Terminat/.test((cloud.control.getResource("hadoop", "cluster", id!) as { status: string }).status);
    if (!live(i.cluster)) i.cluster = (await h("POST", "", hadoopBody(`fz-etl-${++seq}`))).id;
    if (!exists("hadoop", "cluster", i.job)) {
      // A job cluster whose job ends it: only a Terminated cluster can be re-run.
      i.job = (await h("POST", "", hadoopBody(`fz-job-${++seq}`, { userTask: { type: "hive", terminationPolicy: "always", hiveQuery: "select 1" } }))).id;
      await h("GET", `/${i.job}`);
      i.apiKey = (cloud.control.patchResource("hadoop", "api-key", i.job!, {}) as { apiKey: string }).apiKey;
      i.request = (await h("POST", `/${i.job}`, {}, { "Hadoop-Service-Api-Key": i.apiKey })).requestId;
    }
  },
  routes: [
    {
      op: "CreateCluster",
      method: "POST",
      path: "",
      auth: "key",
      json: () => hadoopBody(`fz-new-${++seq}`),
      fields: [
        { key: "name", type: "string" },
        { key: "clusterVersion", type: "string" },
        { key: "clusterType", type: "enum" },
        { key: "isHa", type: "bool" },
        { key: "masterVolumeSize", type: "int" },
        { key: "workerCnt", type: "int" },
        { key: "monitoring", type: "bool" },
        { key: "config", type: "object" },
        { key: "securityGroupIds", type: "array", required: false },
      ],
      media: ["application/json"],
    },
    { op: "ListClusters", method: "GET", path: "", auth: "key", query: "page=0&size=5&includeTerminated=false" },
    { op: "GetCluster", method: "GET", path: "/{cluster}", auth: "key", query: "retainMetadata=true" },
    { op: "ListClusterVms", method: "GET", path: "/{cluster}/vms", auth: "key" },
    { op: "DeleteCluster", method: "DELETE", path: "/{cluster}", auth: "key" },
    {
      op: "ScaleCluster",
      method: "PATCH",
      path: "/{cluster}",
      auth: "key",
      json: () => ({ workerCnt: 3 }),
      fields: [{ key: "workerCnt", type: "int" }],
      media: ["application/json"],
      invalid: [409],
    },
    {
      op: "RerunCluster",
      method: "POST",
      path: "/{job}",
      auth: "key",
      json: () => ({}),
      headers: () => ({ "Hadoop-Service-Api-Key": ids.hadoop!.apiKey! }),
      media: ["application/json"],
      invalid: [409],
    },
    {
      op: "GetRerunRequest",
      method: "GET",
      path: "/{job}/requests/{request}",
      auth: "key",
      query: "verbose=true",
      headers: () => ({ "Hadoop-Service-Api-Key": ids.hadoop!.apiKey! }),
    },
  ],
};

/** The control API, on a local cloud of its own: a fault or transition it accepts must not disturb the services' runs. */
let controlCloud: LocalCloud;
const control: Service = {
  name: "control API",
  key: "control",
  base: () => controlCloud.url,
  json: () => true,
  async ensure() {
    controlCloud.control.clearFaults();
    const i = ids.control!;
    i.fault = controlCloud.control.addFault({ service: "kms", operation: "Encrypt", action: "error", status: 503, times: 1 }).id;
    i.key = "fz-ctl-key";
    try {
      controlCloud.control.getResource("kms", "key", "fz-ctl-key");
    } catch {
      controlCloud.control.patchResource("kms", "key", "fz-ctl-key", { projectId: PROJECT, type: "symmetric" });
    }
    i.service = "kms";
    i.kind = "key";
  },
  routes: [
    { op: "Root", method: "GET", path: "/_control", auth: "none" },
    {
      op: "Reset",
      method: "POST",
      path: "/_control/reset",
      auth: "none",
      json: () => ({ credentials: false }),
      fields: [{ key: "credentials", type: "bool", required: false }],
      strict: true,
    },
    {
      op: "IssueCredentials",
      method: "POST",
      path: "/_control/credentials",
      auth: "none",
      json: () => ({ projectId: "fz-ctl", kind: "token", permissions: ["*"] }),
      fields: [
        { key: "projectId", type: "name", required: false },
        { key: "kind", type: "enum", required: false },
        { key: "permissions", type: "array", required: false },
      ],
      strict: true,
    },
    { op: "ListTransitions", method: "GET", path: "/_control/transitions", auth: "none" },
    {
      op: "SetTransition",
      method: "PUT",
      path: "/_control/transitions",
      auth: "none",
      json: () => ({ service: "cache", kind: "cluster", mode: "reads", reads: 1 }),
      fields: [
        { key: "service", type: "string" },
        { key: "kind", type: "string" },
        { key: "mode", type: "enum" },
        { key: "reads", type: "int", required: false },
      ],
      strict: true,
      invalid: [404],
    },
    {
      op: "AddFault",
      method: "POST",
      path: "/_control/faults",
      auth: "none",
      json: () => ({ service: "kms", action: "error", status: 503, times: 1, retryAfter: 1, headers: { "X-Fuzz": "1" } }),
      fields: [
        { key: "service", type: "string", required: false },
        { key: "action", type: "enum" },
        { key: "status", type: "int", required: false },
        { key: "times", type: "int", required: false },
        { key: "retryAfter", type: "int", required: false },
        { key: "headers", type: "object", required: false },
      ],
      strict: true,
      invalid: [404],
    },
    { op: "ListFaults", method: "GET", path: "/_control/faults", auth: "none" },
    { op: "DeleteFault", method: "DELETE", path: "/_control/faults/{fault}", auth: "none" },
    { op: "Inventory", method: "GET", path: "/_control/inventory", auth: "none" },
    { op: "GetResource", method: "GET", path: "/_control/resources/{service}/{kind}/{key}", auth: "none" },
    {
      op: "PatchResource",
      method: "PATCH",
      path: "/_control/resources/{service}/{kind}/{key}",
      auth: "none",
      json: () => ({ state: "Active" }),
      fields: [
        { key: "state", type: "enum", required: false },
        { key: "rotate", type: "bool", required: false },
      ],
      strict: true,
    },
    { op: "Requests", method: "GET", path: "/_control/requests", auth: "none", query: "since=0" },
    { op: "Counters", method: "GET", path: "/_control/counters", auth: "none" },
    { op: "Clock", method: "GET", path: "/_control/clock", auth: "none" },
    {
      op: "AdvanceClock",
      method: "POST",
      path: "/_control/clock/advance",
      auth: "none",
      json: () => ({ ms: 1000 }),
      fields: [
        { key: "ms", type: "int", required: false },
        { key: "days", type: "number", required: false },
      ],
      strict: true,
    },
  ],
};

const SERVICES = [objectStorage, cache, kms, dataQuery, hadoop, control];

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated", maxBodyBytes: 1024 * 1024 });
  controlCloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const t = cloud.control.issueCredentials({ projectId: PROJECT });
  const k = cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key" });
  creds.token = { "X-Auth-Token": t.kind === "token" ? t.token : "" };
  creds.key = k.kind === "access-key" ? { "Credential-ID": k.credentialId, "Credential-Secret": k.credentialSecret } : {};
});
afterAll(async () => {
  await cloud?.close();
  await controlCloud?.close();
  console.log(`malformed requests sent: ${total}`);
});

async function healthy(): Promise<void> {
  for (const url of [`${cloud.endpoints["object-storage"]!}/info`, `${cloud.controlUrl}`, `${controlCloud.controlUrl}`]) {
    const res = await request(url);
    await res.body.dump();
    expect(res.statusCode).toBe(200);
  }
}

describe.each(SERVICES.map((s) => [s.name, s, s.routes.length * PER_ROUTE] as const))("%s", (_name, service, runs) => {
  test(`${runs} generated malformed requests over ${service.routes.length} routes get a 4xx with an error body, never a 5xx`, async () => {
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (const [index, route] of service.routes.entries()) {
      await fc.assert(
        fc.asyncProperty(mutations(service, route), async (m) => {
          await service.ensure();
          const { url, answer } = await send(service, m, ids[service.key]!);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          sent++;
          total++;
          if (sent % BATCH === 0) await healthy();
          const wrong = judge(service, m, answer);
          if (wrong && process.env.FUZZ_COLLECT) {
            console.log(`FINDING ${route.op}: ${m.method} ${url.slice(0, 160)} with ${m.label}: ${wrong}`);
            return;
          }
          if (wrong) throw new Error(`${route.op}: ${m.method} ${url.slice(0, 160)} with ${m.label}: ${wrong}`);
        }),
        { numRuns: PER_ROUTE, seed: SEED + index },
      );
    }
    await healthy();
    if (process.env.FUZZ_DEBUG) console.log(service.name, statuses);
    expect(sent).toBe(runs);
  });
});
