/**
 * What the serialized provider stub requires at run time (`pulumi-krcloud/runtime`): resolves a
 * type token to its built provider. Service modules are loaded lazily so a Bucket operation does
 * not load the cache service.
 */
import { buildProvider, type AnyDefinition } from "./resource";
import { REGISTRY } from "../registry";

const BUILT = Symbol.for("krcloud.runtime.providers");

export function definition(token: string): AnyDefinition {
  const load = REGISTRY[token];
  if (!load) throw new Error(`unknown krcloud resource type ${token}: is the installed pulumi-krcloud older than the program?`);
  return load();
}

export function provider(token: string): ReturnType<typeof buildProvider> {
  const g = globalThis as unknown as Record<symbol, Map<string, ReturnType<typeof buildProvider>> | undefined>;
  const cache = (g[BUILT] ??= new Map());
  let p = cache.get(token);
  if (!p) {
    p = buildProvider(definition(token));
    cache.set(token, p);
  }
  return p;
}
