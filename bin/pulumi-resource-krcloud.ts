#!/usr/bin/env node
/**
 * pulumi-resource-krcloud: the krcloud native provider plugin. The Pulumi engine starts it with its
 * own address as the first argument; it prints the port of its gRPC server and serves until killed.
 * See provider/plugin/server.ts.
 *
 * `pulumi-resource-krcloud drift ...` runs krcloud-drift instead (the engine's first argument is an
 * address, never `drift`): the Pulumi tool plugin `krcloud-drift` runs it this way, so a YAML,
 * Python, Go or Java project checks drift with `pulumi plugin run krcloud-drift -- --stack dev` and
 * no npm project of its own (tools/pack-plugin.ts).
 */
import "../provider/core/node-version";

// Errors outside a request must not go unnoticed: print them (messages carry no secrets) and fail.
const fail = (e: unknown): void => {
  console.error((e as Error)?.stack ?? String(e));
  process.exitCode = 1;
};

const args = process.argv.slice(2);
if (args[0] === "drift") {
  // Loaded only here: the provider's server never pays for the drift tool, nor the tool for the server.
  void import("./drift-process").then((m) => m.runDriftProcess(args.slice(1)));
} else {
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  void import("../provider/plugin/server").then((m) =>
    m.serve(args).catch((e) => {
      fail(e);
      process.exit(1);
    }),
  );
}
