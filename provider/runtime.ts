/**
 * What the serialized provider stub requires at run time (`pulumi-krcloud/runtime`): resolves a
 * type token to its built provider. Service modules are loaded lazily so a Bucket operation does
 * not load the cache service.
 */
import "./core/node-version";
import { guardCredentials } from "./core/credential-guard";
import { buildProvider } from "./core/provider";
import { warn } from "./core/engine-log";
import type { AnyDefinition, DiffResult } from "./core/resource";
import { findDefinition } from "./registry";
import { stackIdentity, STACK_IDENTITY_TOKEN } from "./core/stack-identity";

const BUILT = Symbol.for("krcloud.runtime.providers");

export function definition(token: string): AnyDefinition {
  const def = token === STACK_IDENTITY_TOKEN ? stackIdentity : findDefinition(token);
  if (!def) throw new Error(`unknown krcloud resource type ${token}: is the installed pulumi-krcloud older than the program?`);
  return def;
}

export function provider(token: string): ReturnType<typeof buildProvider> {
  const g = globalThis as unknown as Record<symbol, Map<string, ReturnType<typeof buildProvider>> | undefined>;
  const cache = (g[BUILT] ??= new Map());
  let p = cache.get(token);
  if (!p) {
    // A core type (the stack's identity) calls no service: no credentials to guard.
    p = token === STACK_IDENTITY_TOKEN ? buildProvider(definition(token)) : guardCredentials(buildProvider(definition(token)));
    cache.set(token, p);
  }
  return p;
}

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

/**
 * Which provider method a stub call is (see stub.ts for why the methods share functions). The
 * labels of earlier stubs ("configure|create", "check|read", and one per method) stay understood:
 * state written by an earlier version holds those stubs, and refresh and destroy run them.
 */
export function methodOf(m: string, args: readonly unknown[]): Method {
  const first = args[0];
  const hasProvider = typeof first === "object" && first !== null && "__provider" in first;
  switch (m) {
    case "configure|create|check|read|update":
      if (args.length >= 3) return "update";
      if (args.length === 2) return typeof first === "string" ? "read" : "check";
      return hasProvider ? "create" : "configure";
    case "diff|delete":
      return args.length >= 3 ? "diff" : "delete";
    case "configure|create":
      return hasProvider ? "create" : "configure";
    case "check|read":
      return typeof first === "string" ? "read" : "check";
    default:
      return m as Method;
  }
}

/** Entry point of the serialized stub: `require("pulumi-krcloud/runtime").call(token, method, args)`. */
export async function call(token: string, m: string, args: unknown[]): Promise<unknown> {
  const p = provider(token) as unknown as Record<Method, (...a: unknown[]) => Promise<unknown>>;
  const method = methodOf(m, args);
  const result = await p[method](...args);
  // Why a replacement happens, and what it loses: the dynamic host's diff has nowhere to say it.
  const warnings = method === "diff" ? (result as DiffResult).warnings : undefined;
  if (warnings?.length) await warn(warnings);
  return result;
}
