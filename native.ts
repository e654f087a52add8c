/**
 * pulumi-krcloud/native: the TypeScript SDK generated from schema.json for the native plugin
 * (sdk/nodejs/, pure generator output: scripts/gen-sdks.sh), with one thing of krcloud's first.
 *
 * The SDK's per-promise stack traces cost half of a TypeScript program's CPU at scale; light stacks
 * (provider/core/light-stacks.ts) make them cheap. Installed here, when the program imports this
 * entry: Pulumi's Node.js host has installed the program's stack formatter (ts-node's source maps)
 * before it loads the program, so the hook is in place before the program constructs its first
 * resource (tests/unit/native-entry.test.ts measures it). The dynamic classes install it in their
 * constructors instead (provider/core/class.ts).
 */
import { lightStacks } from "./provider/core/light-stacks";

lightStacks();

export * from "./sdk/nodejs";
