/**
 * Lookups (Pulumi functions: `getBucket`, `decrypt`, ...), declared once like resources: token,
 * description, argument and result schemas (zod, with `.describe()` docs), which results are secret,
 * and the function. From the definition come the TypeScript function and its `...Output` form
 * (`lookupFunction`, `lookupOutput`), the native plugin's invoke and schema.json's `functions`.
 * A service declares its lookups by name through `serviceLookups`, which derives the rest.
 */
import type * as pulumi from "@pulumi/pulumi";
import { secret } from "@pulumi/pulumi/output";
import { z } from "zod";
import { authenticated, rethrowAs, SERVICES, type ServiceName, type Settings } from "../../client/core";
import { isDryRun } from "@pulumi/pulumi/runtime/settings";
import { lookupSettings, outputForm, type LookupOptions } from "./invoke";
import type { InputArgs } from "./types";

export interface LookupDefinition<A extends object, R> {
  /** `krcloud:<module>:<function>` */
  token: string;
  description: string;
  /** The arguments (a zod object); omitted for a lookup without any. */
  args?: () => z.ZodType<A>;
  /** The result: a zod object, or another type for a plain return value. */
  result: () => z.ZodType<R>;
  /** Top-level result properties that are secrets (a decrypted plaintext, an HMAC, a signed URL). */
  secretResults?: readonly string[];
  /** R is the result schema's type: what `run` returns must fit it (NoInfer: never widened to fit `run`). */
  run(args: A, settings: Settings): Promise<NoInfer<R>>;
  /**
   * Set for a function that changes something (a day-2 operation: a backup taken, a parameter group
   * rolled back): `what` it changes, for the docs. A preview runs a program's functions too; such a
   * function then makes no request and returns `preview(args)`, which says it did nothing
   * (`dryRun: true`). `pulumi up`, `pulumi do` and a call outside a program's preview act.
   */
  mutates?: { what: string; preview(args: A): NoInfer<R> };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyLookup = LookupDefinition<any, any>;

/** A lookup function, carrying its definition for the registry; `args` may be omitted when every argument is optional. */
// `{} extends A` holds exactly when every property of A is optional.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type LookupFunction<A extends object, R> = ((...a: {} extends A ? [args?: A, opts?: LookupOptions] : [args: A, opts?: LookupOptions]) => Promise<R>) & {
  readonly lookup: LookupDefinition<A, R>;
};

/** The argument and result types of a lookup function: `export type DecryptArgs = LookupArgs<typeof decrypt>`. */
export type LookupArgs<F extends { readonly lookup: AnyLookup }> = F["lookup"] extends LookupDefinition<infer A, unknown> ? A : never;
export type LookupResult<F extends { readonly lookup: AnyLookup }> = F["lookup"] extends LookupDefinition<object, infer R> ? R : never;

/** The TypeScript function of a lookup: arguments validated by its schema (defaults applied), run with the program's settings. */
// A lookup without `args` takes no argument: A is then Record<string, never>.
export function lookupFunction<A extends object = Record<string, never>, R = unknown>(def: LookupDefinition<A, R>): LookupFunction<A, R> {
  const fn = async (args?: A, opts: LookupOptions = {}): Promise<R> => runLookup(def, parseArgs(def, args ?? {}), lookupSettings(opts), isDryRun());
  return Object.assign(fn, { lookup: def });
}

/** Runs a lookup, or, for a function that changes something, only says what it would do during a preview (`dryRun`). */
export function runLookup<A extends object, R>(def: LookupDefinition<A, R>, args: A, settings: Settings, dryRun: boolean): Promise<R> {
  return def.mutates && dryRun ? Promise.resolve(def.mutates.preview(args)) : def.run(args, settings);
}

/** `fooOutput(args)`: Inputs in, an Output out; a secret Output when any result property is secret. */
export function lookupOutput<A extends object, R>(def: LookupDefinition<A, R>): (args?: InputArgs<A>) => pulumi.Output<R> {
  const fn = outputForm((a: A) => runLookup(def, parseArgs(def, a), lookupSettings(), isDryRun()));
  return (args) => {
    const out = fn((args ?? {}) as InputArgs<A>);
    return ((def.secretResults?.length ?? 0) > 0 ? secret(out) : out) as pulumi.Output<R>;
  };
}

/** Arguments as the schema takes them; a violation names the argument and the rule, before any request. */
export function parseArgs<A extends object>(def: LookupDefinition<A, unknown>, args: unknown): A {
  if (!def.args) return {} as A;
  const r = def.args().safeParse(args);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.map(String).join(".") || "arguments"}: ${i.message}`);
  throw new Error(`${def.token}: ${issues.join("; ")}`);
}

/** The arguments of a lookup whose argument properties are `S`: none without any. */
export type ArgsOf<S extends z.ZodRawShape> = keyof S extends never ? Record<string, never> : z.output<z.ZodObject<S>>;

/**
 * One lookup of a service as `serviceLookups` takes it: no token (its name gives it), the
 * arguments' properties (arguments are always an object), and `run` gets the service's client.
 */
export interface ServiceLookup<C, S extends z.ZodRawShape, R> extends Omit<LookupDefinition<ArgsOf<S>, R>, "token" | "args" | "run"> {
  /** The argument properties (zod, with `.describe()` docs); omitted for a lookup without any. */
  args?: () => S;
  /** `settings`: the call's, completed by the credential (for a function that waits: its Context). */
  run: (args: ArgsOf<S>, client: C, settings: Settings) => Promise<NoInfer<R>>;
}

/** A lookup function under its name and its Output form under `<name>Output`, for `export const { getX, getXOutput } = ...`. */
export type NamedLookup<N extends string, A extends object, R> = { readonly [K in N]: LookupFunction<A, R> } & {
  readonly [K in `${N}Output`]: (args?: InputArgs<A>) => pulumi.Output<R>;
};

/**
 * The lookups of the service `module`, each declared by its name: the name gives the token
 * (`krcloud:<module>:<name>`) and names every failure of the lookup; `run` gets the client the
 * service's resources use (`client`), built for the settings of the call; the function comes with
 * its `...Output` form.
 */
export function serviceLookups<C>(module: string, client: (call: { settings: Settings }) => C) {
  return <N extends string, S extends z.ZodRawShape = Record<never, never>, R = unknown>(
    name: N,
    spec: ServiceLookup<C, S, R>,
  ): NamedLookup<N, ArgsOf<S>, R> => {
    const { args, run, ...declared } = spec;
    const service = SERVICES.includes(module as ServiceName) ? (module as ServiceName) : undefined;
    const fn = lookupFunction<ArgsOf<S>, R>({
      ...declared,
      token: `krcloud:${module}:${name}`,
      args: args && (() => z.object(args()) as unknown as z.ZodType<ArgsOf<S>>),
      // The settings completed by the credential (the token's project and catalog), as a resource's.
      run: (a, settings) =>
        authenticated(settings, { service })
          .then((complete) => run(a, client({ settings: complete }), complete))
          .catch(rethrowAs(name)),
    });
    return { [name]: fn, [`${name}Output`]: lookupOutput(fn.lookup) } as unknown as NamedLookup<N, ArgsOf<S>, R>;
  };
}
