import { DataQueryClient } from "../../client/dataquery";
import type { Context } from "../core";

/** A client for one provider call; built per call so rotated credentials are picked up. */
export function dataQuery(ctx: Pick<Context, "settings">): DataQueryClient {
  return new DataQueryClient({ settings: ctx.settings });
}
