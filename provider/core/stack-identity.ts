/**
 * The stack's identity on the dynamic door: one small resource per stack (`krcloud-stack`, type
 * `krcloud:index:StackIdentity`) whose create draws a random key and keeps it in the stack's
 * state. Every krcloud resource class takes its key as a hidden input (`STACK_KEY`), so create
 * keys, auto-names and ownership markers (ownership.ts) differ between two stacks of the same
 * name and project in different backends, and stay the same across runs of one stack, the run
 * after a killed CLI included.
 *
 * The native plugin needs no such resource: the engine gives every provider resource an id of its
 * own, unique per stack and kept in its state, and passes it to Configure.
 *
 * It makes no request: create draws the key, read returns what was recorded, delete forgets it.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { defineResource, type ResourceDefinition } from "./resource";

export const STACK_IDENTITY_TOKEN = "krcloud:index:StackIdentity";
/** The logical name of the one StackIdentity a stack holds. */
export const STACK_IDENTITY_NAME = "krcloud-stack";

function identityInputs() {
  return z.strictObject({});
}
function identityOutputs() {
  return z.strictObject({ key: z.string().describe("A random key drawn when the stack's first krcloud resource was created.") });
}

export const stackIdentity: ResourceDefinition<Record<string, never>, { key: string }> = defineResource(STACK_IDENTITY_TOKEN, identityInputs, identityOutputs, {
  description: "The stack's identity for krcloud's ownership markers (dynamic door only; created with the stack's first krcloud resource).",
  replaceOn: [],
  describe: () => "the stack's krcloud identity",
  async create() {
    const key = randomUUID();
    return { id: key, outs: { key } };
  },
  readsFromList: { no: "its read makes no request" },
  async read(_ctx, id, olds) {
    return { key: typeof olds.key === "string" && olds.key !== "" ? olds.key : id };
  },
  async update(_ctx, _id, current) {
    return current;
  },
  async delete() {},
});

/** Whether `token` is a core type of krcloud's own (no service, no request). */
export function isCoreToken(token: string): boolean {
  return token === STACK_IDENTITY_TOKEN;
}
