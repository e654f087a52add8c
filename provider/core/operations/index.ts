/**
 * The provider by operation, one named function per engine call, as pulumi-go-provider's `infer`
 * has one method per RPC: each takes the call (the definition, the environment `buildProvider`
 * binds, the engine's trailing options) and the engine's arguments; diff, pure, takes the definition.
 */
export { check, adoptNotice } from "./check";
export { diff } from "./diff";
export { create } from "./create";
export { read } from "./read";
export { update } from "./update";
export { deleteResource } from "./delete";
export { forEngine, type OperationEnv } from "./env";
