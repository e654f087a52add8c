/**
 * A resource definition turned into a Pulumi provider: what every resource shares. Each engine call
 * is a named function of operations/ (check, diff, create, read, update, delete); `buildProvider`
 * binds them to one definition and the clock. Validation in `check` with property paths and no
 * network (but a definition's `checkWithCloud`: reads only), deterministic auto-naming
 * (identity.ts), a pure `diff` that understands unknowns, outputs sanitised to plain JSON, creates
 * that never make a second copy (recovery.ts), updates that converge against what the cloud has
 * now, the partial-failure error for changes that fail after the cloud accepted them, "gone"
 * handling, and errors that carry no secret and no JavaScript stack.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { systemClock, type Clock } from "../../client/core";
import { setStackConfig } from "./config";
import { check, create, deleteResource, diff, read, update, type OperationEnv } from "./operations";
import type { AnyDefinition, CheckOptions, DiffResult, OperationOptions } from "./resource";

export { adoptNotice, forEngine } from "./operations";
export { keepWriteOnly, withoutHidden } from "./properties";
export { formatPath, issueMessage } from "./issues";

/**
 * The provider of one definition. The dynamic host calls each method with its usual arguments; the
 * native plugin (provider/plugin) also passes the trailing options, which the host never does.
 */
export interface BuiltProvider {
  configure(req: dynamic.ConfigureRequest): Promise<void>;
  check(olds: Record<string, unknown>, news: Record<string, unknown>, opts?: CheckOptions): Promise<dynamic.CheckResult>;
  /** `oldInputs`: the recorded inputs, where the engine gives them (the native plugin; dynamic providers get outputs only). */
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, oldInputs?: Record<string, unknown>): Promise<DiffResult>;
  create(inputs: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.CreateResult>;
  read(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.ReadResult>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>, opts?: OperationOptions): Promise<dynamic.UpdateResult>;
  delete(id: string, props: Record<string, unknown>, opts?: OperationOptions): Promise<void>;
}

export interface ProviderOptions {
  /** The clock of the provider's own pauses (tests). */
  clock?: Clock;
}

export function buildProvider(def: AnyDefinition, options: ProviderOptions = {}): BuiltProvider {
  const env: OperationEnv = { clock: options.clock ?? systemClock };
  return {
    async configure(req) {
      setStackConfig(req.config);
    },
    check: (olds, news, opts) => check({ def, env, opts }, olds, news),
    diff: (id, olds, news, oldInputs) => diff(def, id, olds, news, oldInputs),
    create: (inputs, opts) => create({ def, env, opts }, inputs),
    read: (id, props, opts) => read({ def, env, opts }, id, props),
    update: (id, olds, news, opts) => update({ def, env, opts }, id, olds, news),
    delete: (id, props, opts) => deleteResource({ def, env, opts }, id, props),
  };
}
