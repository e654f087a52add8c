/**
 * Property values between the engine's wire form and the plain JSON the definitions work on.
 *
 * The plugin accepts secrets (`acceptSecrets: true`), so inputs and state arrive with secret values
 * wrapped in envelopes. Definitions see plain values; the plugin remembers which top-level
 * properties held a secret anywhere inside and wraps those properties again in everything it
 * returns (checked inputs, outputs). A nested secret therefore makes its whole top-level property
 * secret: coarser than the input, never weaker.
 */

/** Pulumi's secret envelope: `{[SIG_KEY]: SECRET_SIG, value}`. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

export function isSecretEnvelope(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_SIG;
}

/** `v` without envelopes, and whether it held any secret. */
export function reveal(v: unknown): { value: unknown; secret: boolean } {
  if (isSecretEnvelope(v)) return { value: reveal(v.value).value, secret: true };
  if (Array.isArray(v)) {
    let secret = false;
    const value = v.map((x) => {
      const r = reveal(x);
      secret ||= r.secret;
      return r.value;
    });
    return { value, secret };
  }
  if (v !== null && typeof v === "object") {
    let secret = false;
    const value: Props = {};
    for (const [k, x] of Object.entries(v as Props)) {
      const r = reveal(x);
      secret ||= r.secret;
      value[k] = r.value;
    }
    return { value, secret };
  }
  return { value: v, secret: false };
}

/** Plain properties and the names of the top-level properties that held a secret. */
export function revealProps(props: Props | undefined): { props: Props; secrets: Set<string> } {
  const out: Props = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(props ?? {})) {
    const r = reveal(v);
    out[k] = r.value;
    if (r.secret) secrets.add(k);
  }
  return { props: out, secrets };
}

/** `props` with each property named in `secrets` wrapped as a secret. */
export function wrapSecrets(props: Props, secrets: Iterable<string>): Props {
  const out: Props = { ...props };
  for (const k of secrets) {
    if (out[k] !== undefined && !isSecretEnvelope(out[k])) out[k] = { [SIG_KEY]: SECRET_SIG, value: out[k] };
  }
  return out;
}

/** The wire form of an asset (`{[SIG_KEY]: ASSET_SIG, ...}`) holding inline text: a StringAsset. */
export const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";
export function isInlineAsset(v: unknown): boolean {
  return v !== null && typeof v === "object" && (v as Props)[SIG_KEY] === ASSET_SIG && typeof (v as Props).text === "string";
}

/** The resource type of a URN (`urn:pulumi:stack::project::parent$krcloud:objectstorage:Bucket::name`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The logical name of a URN. */
export function nameOfUrn(urn: string): string {
  return urn.split("::").slice(3).join("::");
}
