/**
 * Components: a group of krcloud resources with defaults (`objectstorage.StaticSite`), declared once
 * in `provider/<module>/<noun>.ts` as a `ComponentDefinition` and served by both doors from that one
 * declaration:
 *
 * - the TypeScript class (`componentClass`), a `pulumi.ComponentResource` whose children are the
 *   dynamic classes;
 * - the native plugin's `Construct` (provider/plugin/construct.ts), whose children are the plugin's
 *   own custom resources (`krcloud:objectstorage:Bucket`), so YAML, Python and Go programs get the
 *   same component through the generated SDKs (schema.json marks it `isComponent`).
 *
 * The definition's `build` never names a door: it declares its children through `Scope.resource`,
 * which each door implements.
 */
import type * as pulumi from "@pulumi/pulumi";
import { all as allOf, output, Output, unsecret } from "@pulumi/pulumi/output";
import { ComponentResource, CustomResource } from "@pulumi/pulumi/resource";
import type { z } from "zod";
import { dynamicEngineType, outputKeys, withSecretInputs, type ResourceClass } from "./class";
import { formatPath, issueMessage } from "./issues";
import { outputSchema } from "./resource";

/** How a component declares a child resource; each door has its own. */
export interface Scope {
  /** The component itself: every child's parent. */
  readonly parent: pulumi.ComponentResource;
  /** A child of class `cls` (its token, its output keys), named `name`, with `args`. */
  resource<A extends object, O>(
    cls: ResourceClass<A, O>,
    name: string,
    args: A,
    opts?: pulumi.CustomResourceOptions,
  ): pulumi.CustomResource & ResourceOutputsOf<O>;
}
type ResourceOutputsOf<O> = { readonly [K in keyof O]-?: pulumi.Output<O[K]> };

/** What `build` returns: the component's outputs, each a value or an Output. */
export type ComponentOutputs<O> = { [K in keyof O]-?: pulumi.Input<O[K]> };

export interface ComponentDefinition<I = unknown, O = unknown> {
  /** `krcloud:<module>:<Name>`, the type of the component in every door. */
  token: string;
  description: string;
  /** The inputs as a zod object: validated before any child is declared, defaults applied; schema.json's inputProperties. */
  inputs: () => z.ZodType<I>;
  /** The outputs as a zod object: schema.json's properties. */
  outputs: () => z.ZodType<O>;
  /** Inputs that are secret: schema.json marks them, the TypeScript class makes them secret whatever the program passed. */
  secretInputs?: string[];
  /**
   * Declares the children from the validated inputs and returns the outputs. `args` are the inputs
   * as the program gave them, values still unresolved: which children exist may depend only on
   * which keys are set, known while values are not (a preview), never on the values.
   */
  build(scope: Scope, name: string, inputs: ValidatedInputs<I>, args: Record<string, unknown>): ComponentOutputs<O>;
  /** How krcloud-drift's remedies for its children name what a program can write (drift/remediation.ts). */
  drift?: ComponentDrift;
}

/**
 * A program declares the component, never its children: drift of a child is kept by the
 * component's inputs or by none (krcloud-drift then names the ignore rule that accepts it).
 */
export interface ComponentDrift {
  /** The component's logical name, from a child's name and type token; undefined when the child is none of its children. */
  ownerOf(child: { name: string; type: string }): string | undefined;
  /** The component's inputs that give each drifted input of the child its cloud value, and why no input gives the others. */
  accept(child: DriftedChild): ChildAccept;
}

/** A child whose inputs drifted, as krcloud-drift read it. */
export interface DriftedChild {
  name: string;
  /** `krcloud:<module>:<Type>`. */
  type: string;
  /** The drifted top-level inputs. */
  keys: readonly string[];
  /** The child's inputs as refresh read them from the cloud (secrets masked). */
  cloud: Readonly<Record<string, unknown>>;
}

export interface ChildAccept {
  /** The component's inputs to set, with the values that keep the cloud's. */
  inputs: Record<string, unknown>;
  /** The drifted inputs of the child no input of the component keeps, each with why. */
  unkept: Record<string, string>;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyComponent = ComponentDefinition<any, any>;

export function defineComponent<I, O>(def: ComponentDefinition<I, O>): ComponentDefinition<I, O> {
  return def;
}

/**
 * The inputs parsed by the definition's schema (defaults applied), or an error that names the
 * component, each failing property and its rule.
 */
export function parseComponentInputs<I>(def: ComponentDefinition<I, unknown>, name: string, raw: unknown): I {
  // An input the program left out can arrive as null (the generated SDKs send every declared input
  // of a remote component): null means not set, as it does for a resource's inputs.
  const given = raw !== null && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null)) : (raw ?? {});
  const r = def.inputs().safeParse(given);
  if (r.success) return r.data;
  // The same words as a resource's check failures: the property's path, then the rule.
  const problems = r.error.issues.map((i) => `${i.path.length ? formatPath(i.path) : "(inputs)"}: ${issueMessage(i)}`);
  throw new Error(`${def.token.split(":")[2]} "${name}": invalid inputs: ${problems.join("; ")}`);
}

/**
 * Resolves `args` (values, Outputs, promises, at any depth) and parses them: an Output of the
 * validated inputs. A plain, fully known value is checked right away, so a program with a wrong
 * input fails where the component is declared, before any child is registered.
 */
export function validatedInputs<I>(def: ComponentDefinition<I, unknown>, name: string, args: object): ValidatedInputs<I> {
  if (!containsOutput(args)) parseComponentInputs(def, name, args);
  const all: Output<I> = output(args).apply((raw) => parseComponentInputs<I>(def, name, raw));
  // One secret input makes `all` secret: each input's value is taken from it, its secrecy from
  // the input alone, so a secret password does not make every child input secret (a secret of
  // nothing would even reach a child's check as null).
  const plain = unsecret(all);
  const given = args as Record<string, unknown>;
  return { all, get: (k) => allOf([output(given[k as string]), plain]).apply(([, v]) => (v as Record<string, unknown>)[k as string]) as never };
}

/** The validated inputs `build` gets. */
export interface ValidatedInputs<I> {
  /** Every input, validated, defaults applied; secret when any input is. */
  all: Output<I>;
  /** One input, validated, default applied; secret when it was given secret. */
  get<K extends keyof I>(key: K): Output<I[K]>;
}

function containsOutput(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  if (Output.isInstance(v) || v instanceof Promise) return true;
  return Object.values(v).some(containsOutput);
}

/**
 * An Output of an object as one Output per key of `shape` (a zod object), for a child's args: a
 * child takes its inputs key by key, and the keys are known while the values are not.
 */
export function spread<T extends object>(value: Output<T | undefined>, shape: z.ZodType): { [K in keyof T]-?: Output<T[K]> } {
  const out: Record<string, Output<unknown>> = {};
  for (const k of outputKeys(shape)) out[k] = value.apply((v) => (v as Record<string, unknown> | undefined)?.[k]);
  return out as { [K in keyof T]-?: Output<T[K]> };
}

/** Registers the component's outputs and assigns them to it as output properties. */
export function finishComponent<O>(component: pulumi.ComponentResource, outs: ComponentOutputs<O>): Record<string, Output<unknown>> {
  const props: Record<string, Output<unknown>> = {};
  for (const [k, v] of Object.entries(outs as Record<string, unknown>)) {
    props[k] = output(v);
    (component as unknown as Record<string, unknown>)[k] = props[k];
  }
  (component as unknown as { registerOutputs(o: unknown): void }).registerOutputs(props);
  return props;
}

/** The TypeScript door's children: the dynamic classes. */
export function dynamicScope(parent: pulumi.ComponentResource): Scope {
  return {
    parent,
    resource: (cls, name, args, opts) => new cls(name, ...([args, { ...opts, parent }] as [never, never])),
  };
}

/** A custom resource of any token (CustomResource is abstract). */
class PluginResource extends CustomResource {}

/** The plugin's children: custom resources of the plugin's own tokens (version: the plugin's), as a generated SDK declares them. */
export function customScope(parent: pulumi.ComponentResource, version: string): Scope {
  return {
    parent,
    resource: (cls, name, args, opts) => {
      const props: Record<string, unknown> = {};
      for (const k of outputKeys(outputSchema(cls.definition))) props[k] = undefined;
      Object.assign(props, args);
      // A stack made with the TypeScript class had the dynamic classes as children: the alias takes
      // each over when the program moves to pulumi-krcloud/native (or YAML), without a replace.
      const aliases = [{ type: dynamicEngineType(cls.token) }, ...(opts?.aliases ?? [])];
      return new PluginResource(cls.token, name, props, { ...opts, parent, version, aliases }) as never;
    },
  };
}

/** A component class: `new StaticSite("site", {...})`, carrying its definition. */
export interface ComponentClass<A, O> {
  new (name: string, args: A, opts?: pulumi.ComponentResourceOptions): pulumi.ComponentResource & ResourceOutputsOf<O>;
  readonly token: string;
  readonly component: AnyComponent;
}

/**
 * The TypeScript door: a ComponentResource of the definition's token whose children are the dynamic
 * classes. `A` is the args type (each property a Pulumi Input), `O` the outputs.
 */
export function componentClass<A extends object, O>(def: ComponentDefinition<unknown, O>): ComponentClass<A, O> {
  const typeName = def.token.split(":")[2] ?? "";
  class KrcloudComponent extends ComponentResource {
    static readonly token = def.token;
    static readonly component: AnyComponent = def;
    constructor(name: string, args: A, opts?: pulumi.ComponentResourceOptions) {
      super(def.token, name, {}, opts);
      const given = withSecretInputs(args, def.secretInputs ?? []);
      finishComponent(this, def.build(dynamicScope(this), name, validatedInputs(def, name, given), given as Record<string, unknown>));
    }
  }
  Object.defineProperty(KrcloudComponent, "name", { value: typeName });
  return KrcloudComponent as unknown as ComponentClass<A, O>;
}
