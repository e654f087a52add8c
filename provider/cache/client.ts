import { CacheClient } from "../../client/cache";
import type { Context } from "../core";

/** A client for one provider call; built per call so rotated credentials are picked up. */
export function cache(ctx: Pick<Context, "settings">): CacheClient {
  return new CacheClient({ settings: ctx.settings });
}
