/**
 * Secrets are declared once, in the definitions, and both front doors follow them: for every
 * resource and lookup, the dynamic classes (the props and options they hand to the engine),
 * schema.json (what generated SDKs and the native plugin's engine see) and the native plugin's
 * check and outputs treat exactly the same properties as secret.
 */
import * as pulumi from "@pulumi/pulumi";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { lookupOutput, type LookupDefinition } from "../../provider/core";
import { outputKeys, resourceArgs } from "../../provider/core/class";
import { KrcloudProviderService, secretKeys } from "../../provider/plugin/server";
import { isSecretEnvelope, SECRET_SIG, SIG_KEY } from "../../provider/plugin/properties";
import { allDefinitions, allLookups } from "../../provider/registry";
import { configuredProvider } from "../support/servers/configured";
import { validInputs } from "../resources";

const VALID_INPUTS = validInputs();

type Json = Record<string, any>;

const schema = require("../../../schema.json") as Json;

const secretProps = (props: Json | undefined) =>
  Object.entries(props ?? {})
    .filter(([, p]) => (p as Json).secret === true)
    .map(([k]) => k)
    .sort();

/** What the dynamic class hands to the engine for these args: secret props, additional secret outputs. */
async function dynamicSecrets(token: string, args: Record<string, unknown>) {
  const def = allDefinitions().find((d) => d.token === token)!;
  const [, , props, opts] = resourceArgs(def, "res", args, outputKeys(def.outputs()), undefined);
  const inputs: string[] = [];
  for (const [k, v] of Object.entries(props)) if (pulumi.Output.isInstance(v) && (await pulumi.isSecret(v))) inputs.push(k);
  return { inputs: inputs.sort(), outputs: [...(opts.additionalSecretOutputs ?? [])].sort() };
}

/** The native plugin's check of plain inputs: which properties it returns as secrets (so the engine stores them encrypted). */
async function nativeCheckSecrets(token: string, inputs: Record<string, unknown>): Promise<string[]> {
  const req = new provproto.CheckRequest();
  req.setUrn(`urn:pulumi:dev::p::${token}::res`);
  req.setType(token);
  req.setName("res");
  req.setNews(structproto.Struct.fromJavaScript(inputs as never));
  const service = new KrcloudProviderService();
  const res = await new Promise<provproto.CheckResponse>((resolve, reject) =>
    service.check({ request: req } as never, (err, r) => (err ? reject(new Error(`check failed: ${JSON.stringify(err)}`)) : resolve(r!))),
  );
  expect(res.getFailuresList().map((f) => f.getReason())).toEqual([]);
  const out = res.getInputs()!.toJavaScript();
  return Object.keys(out)
    .filter((k) => isSecretEnvelope(out[k]))
    .sort();
}

configuredProvider();

describe("every resource: the same secrets on both front doors", () => {
  test("every resource type has valid sample inputs here", () => {
    expect(Object.keys(VALID_INPUTS).sort()).toEqual(
      allDefinitions()
        .map((d) => d.token)
        .sort(),
    );
  });

  for (const def of allDefinitions()) {
    test(`${def.token}: plain inputs`, async () => {
      const spec = schema.resources[def.token] as Json;
      const dyn = await dynamicSecrets(def.token, VALID_INPUTS[def.token]!);
      // The class makes exactly the schema's secret inputs secret, and the schema's secret outputs.
      expect(dyn.inputs).toEqual(secretProps(spec.inputProperties));
      expect(dyn.outputs).toEqual(secretProps(spec.properties));
      // The native plugin returns the same inputs as secrets from check, whatever the program passed...
      expect(await nativeCheckSecrets(def.token, VALID_INPUTS[def.token]!)).toEqual(
        secretProps(spec.inputProperties).filter((k) => VALID_INPUTS[def.token]![k] !== undefined),
      );
      // ...and the same outputs from create, read and update.
      expect([...secretKeys(def, [])].sort()).toEqual(secretProps(spec.properties));
    });
  }

  test("what becomes secret with a secret input (an object's ETag and size with its content): the same on both doors", async () => {
    for (const def of allDefinitions()) {
      for (const input of Object.keys(def.secretWith ?? {})) {
        const args = { ...VALID_INPUTS[def.token], [input]: pulumi.secret("s3cret") };
        const dyn = await dynamicSecrets(def.token, args);
        const native = [...secretKeys(def, [input])].filter((k) => k !== input).sort();
        expect([def.token, input, dyn.outputs]).toEqual([def.token, input, native]);
        expect(native.length).toBeGreaterThan(secretProps(schema.resources[def.token].properties).length);
      }
    }
    // An inline StringAsset may be secret text on either door; a file is not.
    const object = allDefinitions().find((d) => d.token === "krcloud:objectstorage:BucketObject")!;
    const text = { bucket: "b", key: "k", source: new pulumi.asset.StringAsset("password=1") };
    const wire = { bucket: "b", key: "k", source: { [SIG_KEY]: "c44067f5952c0a294b673a41bacd8c17", text: "password=1" } };
    expect((await dynamicSecrets(object.token, text)).outputs).toEqual([...secretKeys(object, [], wire)].sort());
    expect((await dynamicSecrets(object.token, { bucket: "b", key: "k", source: new pulumi.asset.FileAsset("a.txt") })).outputs).toEqual([]);
  });
});

describe("every lookup: secret results declared once", () => {
  test("schema.json marks exactly the declared secret results, and the Output form of each is secret then", async () => {
    for (const l of allLookups()) {
      const spec = schema.functions[l.token] as Json;
      expect([l.token, secretProps(spec.outputs?.properties)]).toEqual([l.token, [...(l.secretResults ?? [])].sort()]);
    }
    const fake = (secretResults?: string[]): LookupDefinition<{ a?: string }, { v: string }> => ({
      token: "krcloud:test:getThing",
      description: "t",
      result: () => ({}) as never,
      secretResults,
      run: async () => ({ v: "x" }),
    });
    expect(await pulumi.isSecret(lookupOutput(fake(["v"]))({}))).toBe(true);
    expect(await pulumi.isSecret(lookupOutput(fake())({}))).toBe(false);
  });
});

test("the secret envelope the native plugin writes is Pulumi's", () => {
  expect(SECRET_SIG).toBe("1b47061264138c4ac30d75fd1eb44270");
});
