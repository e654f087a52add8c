/**
 * The capability document `GET /info` (seed 2.5), parsed tolerantly: every key optional, unknown
 * keys and sections kept in `raw`. The seed capitalises `Account_listing_limit` and
 * `max_Account_name_length`; upstream Swift writes them lower-case, and calls `max_meta_length`
 * `max_meta_overall_size`. Both spellings are read.
 */

import { z } from "zod";
import { once } from "../core";
import { looseInt } from "./bucket";
import { ResponseFormatError } from "./errors";
import type { Capabilities } from "./types";

const capabilitiesSchema = once(() => {
  const n = () => looseInt().nullish();
  return z.looseObject({
    swift: z
      .looseObject({
        version: z.union([z.string(), z.number()]).nullish(),
        Account_listing_limit: n(),
        account_listing_limit: n(),
        container_listing_limit: n(),
        max_file_size: n(),
        max_meta_length: n(),
        max_meta_overall_size: n(),
        min_meta_name_length: n(),
        max_meta_name_length: n(),
        min_meta_value_length: n(),
        max_meta_value_length: n(),
        min_object_name_length: n(),
        max_object_name_length: n(),
        min_container_name_length: n(),
        max_container_name_length: n(),
        max_Account_name_length: n(),
        max_account_name_length: n(),
        policies: z.array(z.looseObject({ name: z.string(), default: z.boolean().nullish() })).nullish(),
      })
      .nullish(),
    tempurl: z.looseObject({ methods: z.array(z.string()).nullish() }).nullish(),
    slo: z.looseObject({ max_manifest_segments: n(), min_segment_size: n(), max_manifest_size: n() }).nullish(),
  });
});

function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined || o[k] === null) delete o[k];
  return o;
}

export function flattenCapabilities(body: unknown): Capabilities {
  const p = capabilitiesSchema().safeParse(body);
  if (!p.success) throw new ResponseFormatError(`reading the capability document: ${p.error.message}`);
  const s = p.data.swift ?? {};
  const caps: Capabilities = {
    swift: defined({
      version: s.version == null ? undefined : String(s.version),
      accountListingLimit: s.Account_listing_limit ?? s.account_listing_limit ?? undefined,
      containerListingLimit: s.container_listing_limit ?? undefined,
      maxFileSize: s.max_file_size ?? undefined,
      maxMetaLength: s.max_meta_length ?? s.max_meta_overall_size ?? undefined,
      minMetaNameLength: s.min_meta_name_length ?? undefined,
      maxMetaNameLength: s.max_meta_name_length ?? undefined,
      minMetaValueLength: s.min_meta_value_length ?? undefined,
      maxMetaValueLength: s.max_meta_value_length ?? undefined,
      minObjectNameLength: s.min_object_name_length ?? undefined,
      maxObjectNameLength: s.max_object_name_length ?? undefined,
      minContainerNameLength: s.min_container_name_length ?? undefined,
      maxContainerNameLength: s.max_container_name_length ?? undefined,
      maxAccountNameLength: s.max_Account_name_length ?? s.max_account_name_length ?? undefined,
      policies: s.policies?.map((x) => (x.default == null ? { name: x.name } : { name: x.name, default: x.default })),
    }),
    raw: p.data,
  };
  if (p.data.tempurl) caps.tempurl = defined({ methods: p.data.tempurl.methods ?? undefined });
  if (p.data.slo) {
    caps.slo = defined({
      maxManifestSegments: p.data.slo.max_manifest_segments ?? undefined,
      minSegmentSize: p.data.slo.min_segment_size ?? undefined,
      maxManifestSize: p.data.slo.max_manifest_size ?? undefined,
    });
  }
  return caps;
}
