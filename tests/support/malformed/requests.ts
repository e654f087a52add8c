/**
 * Malformed requests generated for a route of the local cloud (property-based, fast-check): wrong
 * types, missing and extra fields (`__proto__`, `constructor`), huge and negative numbers, NaN-like
 * strings, unicode and NUL, overlong names and ids, malformed JSON and XML, wrong content types,
 * bad query strings, missing and bad credentials. Each gets a 4xx with an error body (the status
 * the spec gives where it gives one: 400 bad input, 401 credentials, 404 ids, 415 content types),
 * never a 5xx; odd but acceptable input (unicode in free text, unknown query parameters) may
 * succeed but never earns a 5xx.
 *
 * Each variant starts from the route's valid request (the resources it names exist: the service's
 * `ensure` puts back what a generated request deleted) and changes one thing. The services and
 * their routes are in tests/local-cloud/malformed-*.test.ts; clouds.ts runs them.
 */
import fc from "fast-check";
import { request } from "undici";

export type Json = Record<string, unknown>;
export type FieldType = "string" | "name" | "text" | "int" | "number" | "bool" | "array" | "object" | "enum";

export interface Field {
  key: string;
  type: FieldType;
  /** Required by the route: leaving it out is 400. Default true. */
  required?: boolean;
}

/** A field's type; with a trailing `?` the field is optional (`required: false`). */
export type FieldSpec = FieldType | `${FieldType}?`;

/** The fields of a route written as a map from key to type: `fieldsOf({ name: "name", description: "text?" })`. */
export function fieldsOf(spec: Record<string, FieldSpec>): Field[] {
  return Object.entries(spec).map(([key, t]) =>
    t.endsWith("?") ? { key, type: t.slice(0, -1) as FieldType, required: false } : { key, type: t as FieldType },
  );
}

export interface Route {
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

/** A route from its operation, `"METHOD /path"` (the path relative to the service), its auth and what else it declares. */
export function route(op: string, methodPath: string, auth: Route["auth"], more: Omit<Route, "op" | "method" | "path" | "auth"> = {}): Route {
  const space = methodPath.indexOf(" ");
  return { op, method: methodPath.slice(0, space), path: methodPath.slice(space + 1), auth, ...more };
}

export interface Service {
  name: string;
  /** Its entry in `ids`. */
  key: string;
  base: () => string;
  routes: Route[];
  /** Puts back the resources the routes name (a generated request may have deleted one), noting them in its entry in `ids`. */
  ensure: (ids: Record<string, string>) => Promise<void>;
  /** Error bodies are JSON `{code, message}` where this holds (absent: on every path), else plain text. */
  json?: (path: string) => boolean;
  /** Bad values for slots whose names are free (object storage: "constructor" is a valid bucket name). */
  badIds?: Record<string, string[]>;
}

export type Expectation = { kind: "exact"; statuses: number[] } | { kind: "4xx" } | { kind: "not5xx" };

export interface Mutation {
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

/** The generated variants of one route, each with what the answer must be; `creds` are the credentials a valid request carries. */
export function mutations(service: Service, route: Route, creds: Readonly<Record<string, Record<string, string>>>): fc.Arbitrary<Mutation> {
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

export interface Answer {
  status: number;
  text: string;
}

/** Sends `m` with the placeholders of its path filled from `slots` (the service's ids now). */
export async function send(service: Service, m: Mutation, slots: Record<string, string>): Promise<{ url: string; answer: Answer }> {
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
export function judge(service: Service, m: Mutation, answer: Answer): string | undefined {
  if (answer.status >= 500) return `a ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (m.expect.kind === "exact" && !m.expect.statuses.includes(answer.status))
    return `${answer.status} instead of ${m.expect.statuses.join(" or ")}: ${answer.text.slice(0, 300)}`;
  if (m.expect.kind === "4xx" && (answer.status < 400 || answer.status > 499)) return `${answer.status} instead of a 4xx: ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400 && m.method !== "HEAD") {
    if (answer.text.trim() === "") return `${answer.status} without an error body`;
    if (service.json?.(m.path) ?? true) {
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
