/**
 * Where every resource type and lookup lives, by convention: `krcloud:<module>:<Name>` is exported
 * by `provider/<module>` (its index lists the module's resource classes, each carrying its
 * definition, and its lookup functions, each carrying its lookup). Nothing here names a resource:
 * adding one to a service is its file plus one line in the service's index; adding a service is a
 * folder plus one line in provider/index.ts. Modules load lazily, so one resource's operation
 * does not load every service.
 */
import type { AnyDefinition } from "./core/resource";
import type { AnyLookup } from "./core/lookup";
import type { AnyComponent } from "./core/component";

export interface ServiceModule {
  resources: AnyDefinition[];
  lookups: AnyLookup[];
  /** The module's components (provider/core/component.ts), each carried by its class. */
  components: AnyComponent[];
}

const LOADED = Symbol.for("krcloud.registry.modules");

function loaded(): Map<string, ServiceModule> {
  const g = globalThis as unknown as Record<symbol, Map<string, ServiceModule> | undefined>;
  return (g[LOADED] ??= new Map());
}

/** The resources and lookups a module's exports carry. */
export function collect(exports: Record<string, unknown>): ServiceModule {
  const resources: AnyDefinition[] = [];
  const lookups: AnyLookup[] = [];
  const components: AnyComponent[] = [];
  for (const v of Object.values(exports)) {
    const def = (v as { definition?: AnyDefinition } | undefined)?.definition;
    if (typeof v === "function" && def && typeof def.token === "string" && typeof def.create === "function") resources.push(def);
    const lookup = (v as { lookup?: AnyLookup } | undefined)?.lookup;
    if (typeof v === "function" && lookup && typeof lookup.token === "string" && typeof lookup.run === "function") lookups.push(lookup);
    const component = (v as { component?: AnyComponent } | undefined)?.component;
    if (typeof v === "function" && component && typeof component.token === "string" && typeof component.build === "function") components.push(component);
  }
  return { resources, lookups, components };
}

/** The service module of `krcloud:<module>:<Name>`; undefined for a token of no module. */
export function serviceModule(module: string): ServiceModule | undefined {
  const cache = loaded();
  let m = cache.get(module);
  if (!m) {
    if (!/^[a-z][a-z0-9]*$/.test(module)) return undefined;
    let exports: Record<string, unknown>;
    try {
      exports = require(`./${module}`) as Record<string, unknown>;
    } catch (e) {
      // Only the service module itself missing means "no such module": a dependency it cannot load
      // (a package left out of an install) must surface as what it is.
      if ((e as { code?: unknown })?.code === "MODULE_NOT_FOUND" && String((e as Error).message).startsWith(`Cannot find module './${module}'`))
        return undefined;
      throw e;
    }
    m = collect(exports);
    cache.set(module, m);
  }
  return m;
}

function moduleOf(token: string): string {
  const [pkg, module] = token.split(":");
  return pkg === "krcloud" && module !== undefined ? module : "";
}

export function findDefinition(token: string): AnyDefinition | undefined {
  return serviceModule(moduleOf(token))?.resources.find((d) => d.token === token);
}

export function findComponent(token: string): AnyComponent | undefined {
  return serviceModule(moduleOf(token))?.components.find((c) => c.token === token);
}

export function findLookup(token: string): AnyLookup | undefined {
  return serviceModule(moduleOf(token))?.lookups.find((l) => l.token === token);
}

/** Every service module, from provider/index.ts (`export * as <module> from "./<module>"`). */
export function allModules(): Record<string, ServiceModule> {
  // Required here, not imported at the top: the runtime loads this file for one resource's
  // operation, which must not load every service.
  const services = require("./index") as Record<string, Record<string, unknown>>;
  const out: Record<string, ServiceModule> = {};
  for (const name of Object.keys(services).sort()) {
    const m = serviceModule(name);
    if (m) out[name] = m;
  }
  return out;
}

export function allDefinitions(): AnyDefinition[] {
  return Object.values(allModules()).flatMap((m) => m.resources);
}

export function allLookups(): AnyLookup[] {
  return Object.values(allModules()).flatMap((m) => m.lookups);
}

export function allComponents(): AnyComponent[] {
  return Object.values(allModules()).flatMap((m) => m.components);
}
