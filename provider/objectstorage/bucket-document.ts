/**
 * What BucketCors and BucketLifecycle share: a per-bucket document (a list of rules) that a set
 * replaces as a whole, whose id is the bucket name. create reads what exists and takes it over only
 * with proof that this create set it (the bucket's metadata `krcloud-<document>-owner` holds the
 * ownership marker of its create key, written before the document: ownership.ts) or with `adopt`,
 * and refuses otherwise; then it claims the document and puts it;
 * create and update return what the service echoed, read normalises what the service may normalise
 * (via `align`, against the rules last recorded), and delete waits until the document is gone.
 */
import { z } from "zod";
import { rethrowAs } from "../../client/core";
import type { ObjectStorageClient } from "../../client/objectstorage";
import { markerOf, waitWithProgress, type Context, type Listed, type ResourceDefinition } from "../core";
import { bucketNamesPage } from "./bucket";
import { objectStorage } from "./client";
import { bucketName } from "./validation";

/** How long a delete waits for the document to be gone. */
export const DOCUMENT_DELETE_TIMEOUT_MS = 2 * 60_000;

export type BucketDocument<R> = {
  bucket: string;
  rules: R[];
  adopt: boolean;
};

/**
 * A document's inputs, which are also its outputs: the bucket (a change of it replaces what
 * `replaced` names), the whole list of rules, and whether to take over a `noun` that exists.
 */
/**
 * A document's inputs: the bucket, its rules (at least one, each a `rule`; `refine` adds the
 * document's own limits) and adopt.
 */
export function documentInputs<R extends z.ZodType, A extends z.ZodType>(
  noun: string,
  replaced: string,
  rule: R,
  refine: (rules: z.ZodArray<R>) => A,
  description: string,
) {
  return z.strictObject({
    bucket: bucketName().describe(`The bucket. Changing it replaces the ${replaced}.`),
    rules: refine(z.array(rule).min(1, "at least one rule is required")).describe(description),
    adopt: z.boolean().default(false).describe(`If the bucket already has a ${noun}, take it over instead of failing.`),
  });
}

/** One rule of a document. */
type RuleOf<I extends BucketDocument<unknown>> = I["rules"][number];

export interface BucketDocumentSpec<I extends BucketDocument<unknown>, R = RuleOf<I>> {
  description: string;
  /** `CORS policy`, `lifecycle configuration`: used in every message. */
  noun: string;
  /** How the refusal names an existing document; default `a <noun>`. */
  existing?: string;
  derive?: ResourceDefinition<I, I>["derive"];
  /** The bucket metadata key that holds the ownership marker of whoever set the document (`krcloud-cors-owner`). */
  claimKey: string;
  /**
   * What several of them are called (`CORS policies`), whether a bucket has one (the type's list),
   * and the suffix of its logical name beside its bucket's (`-cors`: it is named by its bucket).
   */
  listed: { nouns: string; has(c: ObjectStorageClient, bucket: string): Promise<boolean>; nameSuffix: string };
  /** The document's rules; an empty list when none is set or the bucket is gone. */
  get(c: ObjectStorageClient, bucket: string): Promise<R[]>;
  /** Sets the whole document; resolves to the rules the service echoed. */
  put(c: ObjectStorageClient, bucket: string, rules: R[]): Promise<R[]>;
  remove(c: ObjectStorageClient, bucket: string): Promise<void>;
  /** The rules read from the service in the shape recorded before (`prior`, absent on import). */
  align(read: R[], prior: readonly R[] | undefined): R[];
}

/** A document's definition from its token and its inputs (`documentInputs`), which are also its outputs. */
export function bucketDocument<I extends BucketDocument<unknown>>(
  token: string,
  inputs: () => z.ZodType<I>,
  spec: BucketDocumentSpec<NoInfer<I>>,
): ResourceDefinition<I, I> {
  type R = RuleOf<I>;
  const of = (bucket: string) => `the ${spec.noun} of bucket "${bucket}"`;
  const outs = (bucket: string, rules: R[], adopt: boolean) => ({ bucket, rules, adopt }) as I;

  return {
    token,
    description: spec.description,
    inputs,
    outputs: inputs,
    replaceOn: { bucket: `the ${spec.noun} belongs to the bucket it was set on` },
    localInputs: ["adopt"],
    importId: "the bucket name",
    derive: spec.derive,
    describe: (id) => `${spec.noun} of bucket "${id}"`,
    // Every bucket's, or one bucket's (`query.bucket`); the id is the bucket's name.
    list: {
      kind: [spec.noun, spec.listed.nouns],
      inputs: { bucket: `Only this bucket's ${spec.noun} (a bucket has at most one).` },
      nameSuffix: spec.listed.nameSuffix,
      async page(ctx, request) {
        const c = objectStorage(ctx);
        const one = request.query?.bucket;
        const page = one !== undefined ? { names: [one] } : await bucketNamesPage(ctx, request);
        const items: Listed[] = [];
        for (const name of page.names) if (await spec.listed.has(c, name)) items.push({ id: name, name });
        return { items, continuation: page.continuation };
      },
    },

    async create(ctx, inputs) {
      const c = objectStorage(ctx);
      const existing = await spec.get(c, inputs.bucket).catch(rethrowAs(`reading ${of(inputs.bucket)}`));
      const mine = markerOf(ctx.createKey);
      if (existing.length > 0 && !inputs.adopt) {
        const claim = (await c.findBucket(inputs.bucket).catch(rethrowAs(`reading bucket "${inputs.bucket}"`)))?.metadata[spec.claimKey];
        if (mine === undefined || claim !== mine) {
          throw new Error(
            `creating ${of(inputs.bucket)}: the bucket already has ${spec.existing ?? `a ${spec.noun}`}, and this stack did not set it (the bucket's ${spec.claimKey} metadata does not hold this stack's ownership marker): set adopt: true to replace and manage it (its destroy will then remove it)`,
          );
        }
        ctx.progress(`${of(inputs.bucket)}: an earlier attempt of this stack set it (the bucket carries this stack's ownership marker); taking it over`);
      }
      // Claimed before it is set: an `up` killed in between leaves a claim the next one recognises.
      if (mine !== undefined) {
        await c.updateContainerMetadata(inputs.bucket, { [spec.claimKey]: mine }).catch(rethrowAs(`marking ${of(inputs.bucket)} as this stack's`));
      }
      const echoed = await spec.put(c, inputs.bucket, inputs.rules).catch(rethrowAs(`setting ${of(inputs.bucket)}`));
      return { id: inputs.bucket, outs: outs(inputs.bucket, spec.align(echoed, inputs.rules), inputs.adopt) };
    },

    readsFromList: { no: `the ${spec.noun} is a document of its bucket (a GET per bucket): the list of buckets does not carry it` },

    /** From the id alone (import: no olds) the rules are reported as the service has them. */
    async read(ctx, id, olds) {
      const rules = await findDocument(ctx, objectStorage(ctx), id);
      if (rules.length === 0) return undefined;
      return outs(id, spec.align(rules, olds.rules), olds.adopt ?? false);
    },

    async update(ctx, id, _current, news) {
      const echoed = await spec.put(objectStorage(ctx), id, news.rules).catch(rethrowAs(`setting ${of(id)}`));
      return outs(id, spec.align(echoed, news.rules), news.adopt);
    },

    async delete(ctx, id) {
      const c = objectStorage(ctx);
      await spec.remove(c, id).catch(rethrowAs(`removing ${of(id)}`));
      await waitDocumentGone(ctx, c, id);
    },
  };

  function findDocument(_ctx: Context, c: ObjectStorageClient, bucket: string): Promise<R[]> {
    return spec.get(c, bucket).catch(rethrowAs(`reading ${of(bucket)}`));
  }

  async function waitDocumentGone(ctx: Context, c: ObjectStorageClient, bucket: string): Promise<void> {
    await waitWithProgress<R[]>(ctx, {
      resource: of(bucket),
      status: async () => {
        const rules = await findDocument(ctx, c, bucket);
        return rules.length === 0 ? undefined : rules;
      },
      stateOf: () => "present",
      target: [],
      targetGone: true,
      timeoutMs: DOCUMENT_DELETE_TIMEOUT_MS,
    });
  }
}

/** `next` in the order of `prior` when both hold the same items (compared by `key`); else `next`. */
export function inPriorOrder<T>(next: readonly T[], prior: readonly T[] | undefined, key: (t: T) => string = String): T[] {
  if (!prior || prior.length !== next.length) return [...next];
  const a = next.map(key).sort();
  const b = prior.map(key).sort();
  return a.every((k, i) => k === b[i]) ? [...prior] : [...next];
}
