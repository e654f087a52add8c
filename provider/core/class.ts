/**
 * The resource classes users instantiate (`new krcloud.objectstorage.Bucket(...)`), derived from
 * the resource definitions: `export const Bucket = resourceClass<BucketArgs, BucketOutputs>(bucket)`.
 * The token, the output properties and which inputs and outputs are secret all come from the
 * definition, so the dynamic classes and schema.json (the native plugin) cannot disagree.
 */
// The submodules, not the package's index: the index loads all of @pulumi/pulumi (automation API
// included, ~0.5 s of CPU), and every provider process that loads a definition loads this file.
import type * as pulumi from "@pulumi/pulumi";
import { Archive, Asset } from "@pulumi/pulumi/asset";
import { Resource as DynamicResource } from "@pulumi/pulumi/dynamic";
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { Output, secret } from "@pulumi/pulumi/output";
import { CustomResource, ProviderResource } from "@pulumi/pulumi/resource";
import { getStackResource } from "@pulumi/pulumi/runtime/stack";
import { LOGICAL_NAME_KEY, outputSchema, URN_KEY, STACK_KEY, type AnyDefinition, type ResourceDefinition } from "./resource";
import { STACK_IDENTITY_NAME } from "./stack-identity";
import { secretOutputsFor } from "./secrets";
import { lightStacks } from "./light-stacks";
import { stubProvider } from "./stub";
import type { ResourceOutputs } from "./types";

/**
 * `krcloud:objectstorage:Bucket` -> module and type for `pulumi.dynamic.Resource`. Dynamic resources
 * always live in the `pulumi-nodejs` package, so the engine's type is
 * `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket`; the krcloud token is the one in schema.json.
 */
export function moduleAndType(token: string): [string, string] {
  const [pkg, mod, type] = token.split(":");
  return [`${pkg}/${mod}`, type ?? ""];
}

/** The engine type of a definition's dynamic class: `pulumi-nodejs:dynamic/krcloud/<module>:<Type>`. */
export function dynamicEngineType(token: string): string {
  const [mod, typeName] = moduleAndType(token);
  return `pulumi-nodejs:dynamic/${mod}:${typeName}`;
}

/** The property names of an output schema (a zod object), exposed as output properties. */
export function outputKeys(schema: unknown): string[] {
  const s = schema as { shape?: Record<string, unknown> };
  return Object.keys(s.shape ?? {});
}

/** `args` with each named property that is set made a secret, whatever the program passed. */
export function withSecretInputs<A extends object>(args: A, keys: readonly string[]): A {
  const out = { ...args } as Record<string, unknown>;
  for (const k of keys) if (out[k] !== undefined) out[k] = secret(out[k]);
  return out as A;
}

/**
 * Whether a program value may hold a secret the class cannot see while the resource registers: an
 * Output or a promise (it may be secret), or inline asset text (a StringAsset); looked for inside
 * arrays and objects too. A plain string or a file is not.
 */
export function mayHoldSecret(v: unknown): boolean {
  if (v === undefined || v === null || typeof v !== "object") return false;
  if (Output.isInstance(v) || v instanceof Promise) return true;
  if (Asset.isInstance(v)) return "text" in v;
  if (Archive.isInstance(v)) return false;
  return Object.values(v).some(mayHoldSecret);
}

/**
 * The resource's URN as the engine will compute it (stack, project, parent types, type, name), from
 * what the program knows synchronously: its deterministic names and create keys derive from it
 * (operations `check`). A retried create after a crash derives the same URN.
 */
export function urnOf(token: string, name: string, parent: pulumi.Resource | undefined): string {
  const types: string[] = [];
  // A resource's parent chain ends at the stack resource, which the URN leaves out.
  for (let p = parent as unknown as { __pulumiType?: string; __parentResource?: unknown } | undefined; p; p = p.__parentResource as typeof p) {
    if (p.__pulumiType === undefined || p.__pulumiType === "pulumi:pulumi:Stack") break;
    types.unshift(p.__pulumiType);
  }
  types.push(dynamicEngineType(token));
  return `urn:pulumi:${getStack()}::${getProject()}::${types.join("$")}::${name}`;
}

/** The identity of each stack a program runs (Automation API programs may run several in one process). */
const IDENTITIES = new WeakMap<object, Output<string>>();
/** Where no stack resource exists (a mocked runtime in tests): one for the process. */
const NO_STACK = {};
/** The package of the engine's built-in provider (it serves StackReference): its provider resources cost no plugin process. */
const BUILTIN_PROVIDER_PACKAGE = "pulumi";

class StackIdentityProvider extends ProviderResource {}

/**
 * This stack's identity (stack-identity.ts), declared once per stack with its first krcloud
 * resource: every krcloud resource takes it as a hidden input, so its create key, generated name
 * and ownership marker are this stack's alone, and the identity exists before (and goes after)
 * every resource that depends on it.
 *
 * It is the id of a provider resource, `krcloud-stack`, which the engine draws once and keeps in
 * the stack's state, as it does for the native plugin's provider (whose id is that door's
 * identity). A provider resource, because the engine targets providers implicitly: `pulumi up
 * --target <a krcloud resource>` creates it with the targeted resource on a new stack, where a
 * resource of its own would be left out of the targets and fail the run ("depends on ... which was
 * not specified in --target list"). One of the engine's built-in provider (`pulumi:providers:pulumi`),
 * which the engine serves itself: one of the dynamic provider's package would start a second
 * dynamic provider host on the program's critical path (measured: 2 to 4 s more per preview of a
 * small stack on the loaded 2-core build machine). It has no inputs, so it is never updated nor
 * replaced; nothing uses it as a provider. Stacks made before keep their StackIdentity resource
 * until an untargeted `up` deletes it (its delete makes no request).
 */
export function stackIdentityKey(): Output<string> {
  const holder = (getStackResource() as object | undefined) ?? NO_STACK;
  const known = IDENTITIES.get(holder);
  if (known !== undefined) return known;
  const id: Output<string> = new StackIdentityProvider(BUILTIN_PROVIDER_PACKAGE, STACK_IDENTITY_NAME, {}, {}).id;
  IDENTITIES.set(holder, id);
  return id;
}

/**
 * The arguments of `pulumi.dynamic.Resource`'s constructor for a krcloud resource: the stub
 * provider of the token, the props (the user's args with the secret inputs made secret, every
 * output key as undefined so it is exposed as an output property, the logical name and URN
 * for auto-naming) and the options with the secret outputs added.
 */
export function resourceArgs(
  def: AnyDefinition,
  name: string,
  args: object,
  keys: readonly string[],
  opts: pulumi.CustomResourceOptions | undefined,
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const props: pulumi.Inputs = {};
  for (const k of keys) props[k] = undefined;
  Object.assign(props, withSecretInputs(args, def.secretInputs ?? []));
  props[LOGICAL_NAME_KEY] = name;
  props[URN_KEY] = urnOf(def.token, name, opts?.parent);
  props[STACK_KEY] = stackIdentityKey();
  const given = args as Record<string, unknown>;
  const secrets = secretOutputsFor(def, (k) => mayHoldSecret(given[k]));
  const options = secrets.length === 0 ? (opts ?? {}) : { ...(opts ?? {}), additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
  return [stubProvider(def.token), name, props, options, ...moduleAndType(def.token)];
}

/** Constructor arguments: `args` may be omitted when every input is optional. */
// `{} extends A` holds exactly when every property of A is optional.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type CtorArgs<A> = {} extends A ? [args?: A, opts?: pulumi.CustomResourceOptions] : [args: A, opts?: pulumi.CustomResourceOptions];

/** A resource class: `new Bucket("logs", {...})`, with `Bucket.token` and its definition. */
export interface ResourceClass<A, O> {
  new (name: string, ...rest: CtorArgs<A>): pulumi.dynamic.Resource & ResourceOutputs<O>;
  /** `krcloud:<module>:<Type>`, the token of schema.json. */
  readonly token: string;
  /** The definition the class was derived from (what the provider runs). */
  readonly definition: AnyDefinition;
  isInstance(obj: unknown): obj is pulumi.dynamic.Resource & ResourceOutputs<O>;
}

/**
 * The user-facing class of a definition. `A` is the args type the program passes (inputs, each a
 * Pulumi Input; the auto-named property optional), `O` the outputs. The class is named after the
 * token's type (`Bucket`), its engine type is `pulumi-nodejs:dynamic/krcloud/<module>:<Type>`.
 */
export function resourceClass<A extends object, O extends Record<string, unknown>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  def: ResourceDefinition<any, O>,
): ResourceClass<A, O> {
  // The output keys on first use: a program imports every class and constructs a few.
  let keys: string[] | undefined;
  const engineType = dynamicEngineType(def.token);
  class KrcloudResource extends DynamicResource {
    static readonly token = def.token;
    static readonly definition: AnyDefinition = def;
    constructor(name: string, args?: A, opts?: pulumi.CustomResourceOptions) {
      // The SDK's per-promise stack traces cost half the program's CPU at scale (light-stacks.ts).
      lightStacks();
      super(...resourceArgs(def, name, args ?? {}, (keys ??= outputKeys(outputSchema(def))), opts));
    }
    static override isInstance(obj: unknown): obj is KrcloudResource {
      return CustomResource.isInstance(obj) && (obj as unknown as { __pulumiType?: string }).__pulumiType === engineType;
    }
  }
  Object.defineProperty(KrcloudResource, "name", { value: moduleAndType(def.token)[1] });
  return KrcloudResource as unknown as ResourceClass<A, O>;
}
