/**
 * Secret redaction. Every message, error field and debug line that could contain a credential
 * passes through here: values of credential headers, known secret values found in free text (error
 * bodies echo requests), and secret query parameters in URLs (temp-URL signatures).
 *
 * client/core knows no service. Each service's client module registers the names that are secret in
 * its API, once, when it is loaded:
 *
 *     registerSecrets({
 *       headers: ["x-auth-token"],            // credential headers: value hidden everywhere
 *       queryKeys: ["temp_url_sig"],          // URL parameters whose values are credentials
 *       privateHeaderPrefixes: ["x-object-meta-"], // user data: values kept out of debug lines
 *     });
 *
 * (object storage: client/objectstorage/secrets.ts). A service that sends `Credential-Secret` or
 * `Hadoop-Service-Api-Key` registers those the same way. Values of every header the transport's
 * `authHeaders()` returns, and the settings' secrets, are redacted whether registered or not. One
 * credential is no secret: an access key's ID (`Credential-ID`, `krcloud:credentialId`) says which
 * key was used, and every message about the key names it; its secret never appears.
 */

export const REDACTED = "[redacted]";

export interface SecretNames {
  /** Header names (any case) whose values are credentials: hidden in debug lines and in any text. */
  headers?: readonly string[];
  /** Query parameter names whose values are credentials, redacted from any URL in any text. */
  queryKeys?: readonly string[];
  /**
   * Header name prefixes (any case) whose values are user data that may be secret (user metadata):
   * hidden in debug lines; not searched for in other text, where they would be mostly false hits.
   */
  privateHeaderPrefixes?: readonly string[];
}

interface Registry {
  headers: Set<string>;
  queryKeys: Set<string>;
  privateHeaderPrefixes: Set<string>;
}

/** Only what is secret in any HTTP API. */
const GENERIC_SECRET_HEADERS = ["authorization", "proxy-authorization"];

const REGISTRY = Symbol.for("krcloud.redact.registry");

/** Process-wide, shared by every copy of this module (the provider loads the package more than once). */
function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[REGISTRY];
  if (!r) {
    r = { headers: new Set(GENERIC_SECRET_HEADERS), queryKeys: new Set(), privateHeaderPrefixes: new Set() };
    g[REGISTRY] = r;
  }
  return r;
}

/** Adds a service's secret names; idempotent, called by each service's client module when loaded. */
export function registerSecrets(names: SecretNames): void {
  const r = registry();
  for (const h of names.headers ?? []) r.headers.add(h.toLowerCase());
  for (const k of names.queryKeys ?? []) r.queryKeys.add(k);
  for (const p of names.privateHeaderPrefixes ?? []) r.privateHeaderPrefixes.add(p.toLowerCase());
}

export function isSecretHeader(name: string): boolean {
  return registry().headers.has(name.toLowerCase());
}

/** Secret, or user data that stays out of logs. */
function isPrivateHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (registry().headers.has(n)) return true;
  for (const p of registry().privateHeaderPrefixes) if (n.startsWith(p)) return true;
  return false;
}

/** For debug lines: names stay, values of secret and private headers are replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = isPrivateHeader(k) ? REDACTED : Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

const FORMS = Symbol.for("krcloud.redact.forms");
const MAX_REMEMBERED_FORMS = 1000;

/**
 * The forms in which a secret can reach a message: as itself, Base64 (standard, without padding,
 * URL-safe), URL-encoded and JSON-escaped. A service that echoes its input echoes what was sent,
 * and a KMS plaintext or a password is sent Base64-encoded. Computed once per secret and process.
 */
export function secretForms(secret: string): string[] {
  const g = globalThis as unknown as Record<symbol, Map<string, string[]> | undefined>;
  const memo = (g[FORMS] ??= new Map());
  let forms = memo.get(secret);
  if (forms === undefined) {
    const b64 = Buffer.from(secret, "utf8").toString("base64");
    const candidates = [
      secret,
      b64,
      b64.replace(/=+$/, ""),
      Buffer.from(secret, "utf8").toString("base64url"),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ];
    // Longest first: a form that contains another is replaced whole.
    forms = [...new Set(candidates)].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
    if (memo.size >= MAX_REMEMBERED_FORMS) memo.clear();
    memo.set(secret, forms);
  }
  return forms;
}

const RUNTIME = Symbol.for("krcloud.redact.runtimeSecrets");

/** Process-wide, like the registry: every copy of this module sees the same values. */
function runtime(): Set<string> {
  const g = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  return (g[RUNTIME] ??= new Set());
}

/**
 * Remembers a secret this process came to know at run time (a token the identity service issued,
 * what a token command printed): every redaction from now on removes it too, whatever list of
 * secrets its caller passed.
 */
export function rememberSecret(value: string): void {
  if (value.length >= 4) runtime().add(value);
}

/** The secrets remembered with `rememberSecret`. */
export function runtimeSecrets(): string[] {
  return [...runtime()];
}

/**
 * Replaces every occurrence of each secret (at least 4 characters long) in any of its forms, of
 * every secret this process remembered (`rememberSecret`), and every registered query value.
 */
export function redactText(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const s of [...secrets, ...runtime()]) {
    if (!s || s.length < 4) continue;
    for (const form of secretForms(s)) if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  const keys = [...registry().queryKeys];
  if (keys.length === 0) return out;
  const names = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return out.replace(new RegExp(`([?&](?:${names})=)[^&\\s"'#<>]+`, "gi"), `$1${REDACTED}`);
}

/**
 * Redacts an error in place and returns it: every string field, own or inherited from the
 * constructor (`message`, `stack`, `apiMessage`, `path`, `action`, body excerpts...), in nested
 * objects and arrays and along the `cause` chain, so that neither `JSON.stringify` nor
 * `util.inspect` of it can show a secret.
 */
export function redactError<E>(e: E, secrets: Iterable<string | undefined>): E {
  const list = [...secrets].filter((s): s is string => typeof s === "string");
  redactDeep(e, list, new WeakSet(), 0);
  return e;
}

const MAX_DEPTH = 8;

function redactDeep(v: unknown, secrets: string[], seen: WeakSet<object>, depth: number): void {
  if (typeof v !== "object" || v === null || seen.has(v) || depth > MAX_DEPTH) return;
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return;
  seen.add(v);
  const obj = v as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (!d) continue;
    // `stack` is an accessor on V8 errors; other accessors are left alone (they may compute or throw).
    const value = "value" in d ? d.value : key === "stack" ? safeGet(obj, key) : undefined;
    if (typeof value === "string") {
      const r = redactText(value, secrets);
      if (r !== value) {
        try {
          obj[key] = r;
        } catch {
          /* a frozen field: nothing we can do in place */
        }
      }
    } else if (typeof value === "object" && value !== null) {
      redactDeep(value, secrets, seen, depth + 1);
    }
  }
}

function safeGet(obj: Record<PropertyKey, unknown>, key: PropertyKey): unknown {
  try {
    return obj[key];
  } catch {
    return undefined;
  }
}
