/**
 * The plugin's `Construct`: a component (provider/core/component.ts) built for a YAML, Python or Go
 * program. The engine sends the component's type, name, inputs and options; the plugin runs the
 * definition's `build` with the Node SDK's runtime pointed at the engine's resource monitor, so the
 * children (the plugin's own `krcloud:objectstorage:Bucket` ...) register as any program's would,
 * parented to the component, and answers with the component's URN and outputs.
 *
 * The runtime plumbing is @pulumi/pulumi's own (provider/server.js `construct`, which we cannot use
 * whole: its Server class is not exported, and this plugin has its gRPC server): the same calls in
 * the same order, reused from the SDK's modules rather than rewritten.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as pulumi from "@pulumi/pulumi";
import { ComponentResource, DependencyProviderResource, DependencyResource } from "@pulumi/pulumi/resource";
import { setAllConfig } from "@pulumi/pulumi/runtime/config";
import { serializeResourceProperties } from "@pulumi/pulumi/runtime/rpc";
import { resetOptions } from "@pulumi/pulumi/runtime/settings";
import { customScope, finishComponent, validatedInputs, type AnyComponent } from "../core/component";

/** The SDK's internals that its d.ts leaves out (provider/server.js uses them the same way). */
interface SdkInternals {
  awaitFeatureSupport: () => Promise<void>;
  waitForRPCs: () => Promise<void>;
  withLocalStorage: <T>(fn: () => Promise<T>) => Promise<T>;
  deserializeInputs: (inputs: structproto.Struct | undefined, deps: unknown) => Promise<Record<string, unknown>>;
}
function internals(): SdkInternals {
  const settings = require("@pulumi/pulumi/runtime/settings") as SdkInternals;
  const state = require("@pulumi/pulumi/runtime/state") as SdkInternals;
  const server = require("@pulumi/pulumi/provider/server") as SdkInternals;
  return {
    awaitFeatureSupport: settings.awaitFeatureSupport,
    waitForRPCs: settings.waitForRPCs,
    withLocalStorage: state.withLocalStorage,
    deserializeInputs: server.deserializeInputs,
  };
}

/** An Output's value (`promise()` is the SDK's internal accessor, which its d.ts leaves out). */
function promiseOf<T>(o: pulumi.Output<T>): Promise<T> {
  return (o as unknown as { promise(): Promise<T> }).promise();
}

/** The component of the request built against the engine: its URN and outputs. */
export async function construct(
  req: provproto.ConstructRequest,
  engineAddress: string | undefined,
  component: AnyComponent,
  version: string,
): Promise<provproto.ConstructResponse> {
  if (!engineAddress) throw new Error("Construct needs the engine's address (the plugin was started without it)");
  const sdk = internals();
  return sdk.withLocalStorage(async () => {
    // The runtime's options are process-global in the SDK too: each Construct sets them again.
    resetOptions(req.getProject(), req.getStack(), req.getParallel(), engineAddress, req.getMonitorendpoint(), req.getDryrun(), req.getOrganization());
    await sdk.awaitFeatureSupport();
    setAllConfig(Object.fromEntries(req.getConfigMap().entries()), req.getConfigsecretkeysList());
    const inputs = await sdk.deserializeInputs(req.getInputs(), req.getInputdependenciesMap());
    const name = req.getName();
    const opts: pulumi.ComponentResourceOptions = {
      parent: req.getParent() ? new DependencyResource(req.getParent()) : undefined,
      dependsOn: req.getDependenciesList().map((urn) => new DependencyResource(urn)),
      // An explicit provider the program passed (`providers`), which every child inherits.
      providers: Object.fromEntries([...req.getProvidersMap().entries()].map(([pkg, ref]) => [pkg, new DependencyProviderResource(ref)])),
      protect: req.getProtect(),
      aliases: req.getAliasesList().flatMap((a) => (a.hasUrn() ? [a.getUrn()] : [])),
      ignoreChanges: req.getIgnorechangesList(),
      retainOnDelete: req.getRetainondelete(),
    };
    const self = new ComponentResource(component.token, name, {}, opts);
    const outs = finishComponent(self, component.build(customScope(self, version), name, validatedInputs(component, name, inputs), inputs));
    const res = new provproto.ConstructResponse();
    res.setUrn(await promiseOf(self.urn));
    const [state, deps] = await serializeResourceProperties(`construct(${component.token}, ${name})`, outs);
    const depsMap = res.getStatedependenciesMap();
    for (const [key, resources] of deps) {
      const d = new provproto.ConstructResponse.PropertyDependencies();
      d.setUrnsList(await Promise.all([...resources].map((r) => promiseOf(r.urn))));
      depsMap.set(key, d);
    }
    res.setState(structproto.Struct.fromJavaScript(state as Record<string, structproto.JavaScriptValue>));
    await sdk.waitForRPCs();
    return res;
  });
}
