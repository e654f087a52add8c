/**
 * Values as the engine's events carry them: plain JSON where secrets are envelopes
 * (`{"4dabf18193072939515e22adb298388d": "1b47…", "ciphertext": "[secret]"}`), compared and walked
 * by property path. Nothing here ever unwraps a secret: an envelope becomes the marker `[secret]`
 * before anything else looks at the value, so no report can print one.
 */

/** The signature key of Pulumi's secret envelope and its value for a secret. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";
/** How reports show a secret value. */
export const SECRET = "[secret]";
/** The engine's stand-in for a value a preview cannot know yet, and how reports show it. */
const UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const UNKNOWN = "(known after apply)";

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function isSecretEnvelope(v: unknown): boolean {
  return isRecord(v) && v[SECRET_SIG] === SECRET_SIG_VALUE;
}

/** `v` with every secret envelope replaced by `[secret]` (and the preview's unknown-value sentinel by a readable marker). */
export function maskSecrets(v: unknown): unknown {
  if (isSecretEnvelope(v)) return SECRET;
  if (v === UNKNOWN_SENTINEL) return UNKNOWN;
  if (Array.isArray(v)) return v.map(maskSecrets);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskSecrets(x)]));
  return v;
}

export function hasSecret(v: unknown): boolean {
  if (v === SECRET) return true;
  if (Array.isArray(v)) return v.some(hasSecret);
  return isRecord(v) && Object.values(v).some(hasSecret);
}

/** Inputs without the provider's hidden keys (`__provider`, `__logicalName`, `__krcloud…`), secrets masked. */
export function publicInputs(v: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v ?? {})) if (!k.startsWith("__")) out[k] = maskSecrets(x);
  return out;
}

/** JSON with object keys sorted: equal values give equal text. */
export function canonical(v: unknown): string {
  return JSON.stringify(sortKeys(v)) ?? "undefined";
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isRecord(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * `acl.public`, `rules[0].allowedOrigins[1]`, `manifest["site/a.txt"].hash`: the parts of a
 * property path. A key holding `.`, `[`, `]` or `"` (a file name as a map key) is written quoted,
 * as Pulumi writes property paths.
 */
export function pathParts(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of p.matchAll(/\[("(?:[^"\\]|\\.)*")\]|([^.[\]]+)|\[(\d+)\]/g)) {
    out.push(m[1] !== undefined ? (JSON.parse(m[1]) as string) : m[3] !== undefined ? Number(m[3]) : m[2]!);
  }
  return out;
}

/** The path of key `k` within the value at `at`. */
function childPath(at: string, k: string): string {
  if (/[.[\]"]/.test(k) || k === "") return `${at}[${JSON.stringify(k)}]`;
  return at ? `${at}.${k}` : k;
}

export function valueAt(root: unknown, p: string): unknown {
  let cur = root;
  for (const part of pathParts(p)) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[part];
  }
  return cur;
}

/** The first part of a path: the input property (`acl` of `acl.public`). */
export function topKey(p: string): string {
  const first = pathParts(p)[0];
  return first === undefined ? p : String(first);
}

export interface LeafDiff {
  path: string;
  /** Absent: not set on that side. */
  a?: unknown;
  b?: unknown;
  /** One side is (or holds) a secret: the values were not compared. */
  secret?: boolean;
}

const MAX_DEPTH = 8;

/**
 * The leaf paths where `a` and `b` differ. Where either side is a secret the path is returned with
 * `secret` and no values: equal markers prove nothing about the values behind them.
 */
export function leafDiffs(a: unknown, b: unknown, at = "", depth = 0): LeafDiff[] {
  if (a === SECRET || b === SECRET) return at ? [{ path: at, secret: true }] : [];
  if (jsonEqual(a, b) && !hasSecret(a)) return [];
  if (depth < MAX_DEPTH && isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => leafDiffs(a[k], b[k], childPath(at, k), depth + 1));
  }
  if (depth < MAX_DEPTH && Array.isArray(a) && Array.isArray(b)) {
    const out: LeafDiff[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...leafDiffs(a[i], b[i], `${at}[${i}]`, depth + 1));
    return out;
  }
  const d: LeafDiff = { path: at || "(inputs)" };
  if (a !== undefined) d.a = a;
  if (b !== undefined) d.b = b;
  return [d];
}

/** A value for one line of text: JSON, shortened. */
export function show(v: unknown, max = 120): string {
  if (v === undefined) return "(not set)";
  if (v === SECRET) return SECRET;
  // JSON.stringify gives undefined only for functions and symbols, which events never hold.
  const s = JSON.stringify(v) ?? typeof v;
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Whole-string glob: `*` matches any run of characters (`:` and `/` included), `?` one character. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "s");
}

export function isGlob(s: string): boolean {
  return /[*?]/.test(s);
}
