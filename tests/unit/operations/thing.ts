/**
 * An in-memory resource type, "Thing": enough to exercise the core's operations
 * (provider/core/operations/) without a cloud. The tests of each operation share it.
 */
import { z } from "zod";
import { CREATE_KEY, PartialFailure, type ResourceDefinition } from "../../../provider/core";

/** Checked inputs without the create key check records (tested in provider-recovery.test.ts). */
export const visible = (inputs: Record<string, unknown>) => {
  const { [CREATE_KEY]: key, ...rest } = inputs;
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  return rest;
};

export type In = { name: string; size: number; tags: Record<string, string>; adopt: boolean };
export type Out = In & { createdAt: string };

/**
 * The inputs every Thing has around a test's own fields (here and in provider-recovery.test.ts,
 * whose Thing lives in a cloud that can fail): a name of 4 to `maxLength` characters, a size, `adopt`.
 */
export function thingInputs<S extends z.ZodRawShape>(maxLength: number, own: S) {
  return z
    .object({
      name: z.string().min(4, "must be at least 4 characters").max(maxLength),
      size: z.number().int().min(1, "must be at least 1"),
      ...own,
      adopt: z.boolean().default(false),
    })
    .strict();
}

/** What every Thing declares besides its schemas, replaceOn and operations: replaced delete-first, auto-named, `adopt` local. */
export function thingBasics(maxLength: number) {
  return {
    token: "krcloud:test:Thing",
    description: "test",
    deleteBeforeReplace: true,
    localInputs: ["adopt"] as const,
    autoName: { property: "name", minLength: 4, maxLength, lowerCase: true },
    describe: (id: string) => `thing "${id}"`,
  };
}

/** An in-memory resource: enough to exercise the shared mechanics without a cloud. */
export function fakeDefinition(store: Map<string, Out>, failAfterCreate = false): ResourceDefinition<In, Out> {
  const inputs = () => thingInputs(20, { tags: z.record(z.string(), z.string()).default({}) });
  return {
    ...thingBasics(20),
    inputs,
    outputs: () => inputs().extend({ createdAt: z.string() }),
    replaceOn: { name: "a thing has no rename" },
    async create(_ctx, i) {
      store.set(i.name, { ...i, createdAt: "2026-01-01T00:00:00Z" });
      if (failAfterCreate) throw new PartialFailure(i.name, { ...i }, new Error("waiting for thing: timed out"));
      return { id: i.name, outs: store.get(i.name)! };
    },
    async read(_ctx, id) {
      const v = store.get(id);
      return v ? { ...v } : undefined;
    },
    async update(_ctx, id, _cur, n) {
      store.set(id, { ...store.get(id)!, ...n });
      return store.get(id)!;
    },
    async delete(_ctx, id) {
      store.delete(id);
    },
  };
}

export const PROVIDER = "stub-text";
