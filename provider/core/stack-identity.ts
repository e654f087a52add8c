/**
 * The stack's identity. Every krcloud resource takes it as a hidden input (`STACK_KEY`), so create
 * keys, auto-names and ownership markers (ownership.ts) differ between two stacks of the same name
 * and project in different backends, and stay the same across runs of one stack, the run after a
 * killed CLI included. It is the id the engine gives a provider resource, unique per stack and kept
 * in its state: on the native plugin, the provider's own (passed to Configure); on the dynamic door,
 * that of one provider resource of the engine's built-in provider, `krcloud-stack`, which the classes
 * declare with the stack's first krcloud resource (class.ts `stackIdentityKey`).
 *
 * Before, the dynamic door kept its identity in a resource of its own, `krcloud-stack` of type
 * `krcloud:index:StackIdentity`, which `pulumi up --target` left out on a new stack. This
 * definition stays for the stacks that hold one: its read returns what was recorded, its delete
 * forgets it (the first untargeted `up` deletes it), and it makes no request.
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
  replaceOn: {},
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
