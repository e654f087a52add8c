#!/usr/bin/env node
/**
 * pulumi-resource-krcloud: the krcloud native provider plugin. The Pulumi engine starts it with its
 * own address as the first argument; it prints the port of its gRPC server and serves until killed.
 * See provider/plugin/server.ts.
 */
import "../provider/core/node-version";
import { serve } from "../provider/plugin/server";

// Errors outside a request must not go unnoticed: print them (messages carry no secrets) and fail.
const fail = (e: unknown): void => {
  console.error((e as Error)?.stack ?? String(e));
  process.exitCode = 1;
};
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);

serve(process.argv.slice(2)).catch((e) => {
  fail(e);
  process.exit(1);
});
