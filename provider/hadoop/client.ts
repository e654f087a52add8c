import { HadoopClient } from "../../client/hadoop";
import type { Context } from "../core";

/** A client for one provider call; built per call so rotated credentials are picked up. */
export function hadoop(ctx: Pick<Context, "settings">): HadoopClient {
  return new HadoopClient({ settings: ctx.settings });
}
