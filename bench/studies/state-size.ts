/**
 * State size: bytes of code stored per resource by a naive dynamic provider (one that closes over a
 * client the obvious way) against ours (the stub that requires the installed package). The same at
 * both sizes: it serializes every registered type's stub once.
 */
import { ObjectStorageClient } from "../../client/objectstorage";
import { resolveSettings } from "../../client/core";
import { stubProvider } from "../../provider/core";
import { allDefinitions } from "../../provider/registry";
import type { Study } from "../study";

type Serialize = (f: () => unknown, o: object) => Promise<{ text: string }>;

export const stateSizeStudy: Study = {
  name: "state-size",
  async run() {
    const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure") as { serializeFunction: Serialize };
    let largestStub = 0;
    for (const { token } of allDefinitions()) {
      const p = stubProvider(token);
      largestStub = Math.max(largestStub, Buffer.byteLength((await serializeFunction(() => p, { allowSecrets: true })).text));
    }
    // The obvious naive provider closes over the client class: Pulumi's serializer cannot even
    // serialize that (it fails inside the client's clock), so the baseline closes over zod, the next
    // most common capture (input validation), with an inline fetch client.
    const naiveClient = {
      async create(inputs: { name: string }) {
        const client = new ObjectStorageClient({ settings: resolveSettings() });
        await client.createBucket({ name: inputs.name });
        return { id: inputs.name, outs: inputs };
      },
    };
    const clientCapture = await serializeFunction(() => naiveClient, { allowSecrets: true }).then(
      (r) => `${Buffer.byteLength(r.text)} bytes`,
      (e: Error) => `cannot be serialized (${e.message.split("\n")[0]})`,
    );
    const { z } = require("zod") as typeof import("zod");
    const naiveZod = {
      async create(inputs: { name: string }) {
        const args = z.object({ name: z.string().min(4) }).parse(inputs);
        await fetch(`${process.env.ENDPOINT}/v1_ext/bucket`, { method: "PUT", body: JSON.stringify(args) });
        return { id: args.name, outs: args };
      },
    };
    const zodCapture = await serializeFunction(() => naiveZod, { allowSecrets: true }).then(
      (r) => ({ bytes: Buffer.byteLength(r.text), text: `${Buffer.byteLength(r.text)} bytes` }),
      (e: Error) => ({ bytes: NaN, text: `cannot be serialized (${e.message.split("\n")[0]})` }),
    );
    return {
      rows: [
        {
          figure: "code stored per resource (bytes)",
          ours: String(largestStub),
          baseline: Number.isNaN(zodCapture.bytes) ? "not serializable" : String(zodCapture.bytes),
          ratio: Number.isNaN(zodCapture.bytes) ? "-" : `${(zodCapture.bytes / largestStub).toFixed(0)}x smaller`,
          goal: `stub < 1024: ${largestStub < 1024 ? "met" : "missed"}`,
        },
      ],
      notes: [
        `- A naive provider closing over the client class: ${clientCapture}.`,
        `- A naive provider closing over zod with an inline fetch: ${zodCapture.text}.`,
      ],
    };
  },
};
