/** Helpers for the resource classes users instantiate (`new krcloud.objectstorage.Bucket(...)`). */
import * as pulumi from "@pulumi/pulumi";
import { LOGICAL_NAME_KEY } from "./resource";
import { stubProvider } from "./stub";

/**
 * `krcloud:objectstorage:Bucket` -> module and type for `pulumi.dynamic.Resource`. Dynamic resources
 * always live in the `pulumi-nodejs` package, so the engine's type is
 * `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket`; the krcloud token is the one in schema.json.
 */
export function moduleAndType(token: string): [string, string] {
  const [pkg, mod, type] = token.split(":");
  return [`${pkg}/${mod}`, type ?? ""];
}

/**
 * The props handed to the engine: the user's args, every output key as undefined (so it is
 * exposed as an output property), and the logical name for auto-naming.
 */
export function dynamicProps(logicalName: string, args: object, outputKeys: readonly string[]): pulumi.Inputs {
  const props: pulumi.Inputs = {};
  for (const k of outputKeys) props[k] = undefined;
  Object.assign(props, args);
  props[LOGICAL_NAME_KEY] = logicalName;
  return props;
}

/** `args` with each named property that is set made a secret, whatever the program passed. */
export function withSecretInputs<A extends object>(args: A, keys: readonly (keyof A & string)[]): A {
  const out = { ...args };
  for (const k of keys) if (args[k] !== undefined) out[k] = pulumi.secret(args[k]) as A[typeof k];
  return out;
}

export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, secrets: readonly string[]): pulumi.CustomResourceOptions {
  if (secrets.length === 0) return opts ?? {};
  return { ...(opts ?? {}), additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}

/** The property names of an output schema (a zod object), exposed as output properties. */
export function outputKeys(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown> };
  return Object.keys(s.shape ?? {});
}

/**
 * The arguments of `pulumi.dynamic.Resource`'s constructor for a krcloud resource class: the stub
 * provider of `token`, the props (`args` with the named inputs made secret, every output key, the
 * logical name) and the options with the named outputs made secret.
 */
export function resourceArgs<A extends object>(
  token: string,
  name: string,
  args: A,
  outputs: unknown,
  opts: pulumi.CustomResourceOptions | undefined,
  secrets: { inputs?: readonly (keyof A & string)[]; outputs?: readonly string[] } = {},
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const props = dynamicProps(name, withSecretInputs(args, secrets.inputs ?? []), outputKeys(outputs));
  return [stubProvider(token), name, props, withSecretOutputs(opts, secrets.outputs ?? []), ...moduleAndType(token)];
}
