import { KmsClient } from "../../client/kms";
import type { Context } from "../core";

/** A client for one provider call; built per call so rotated credentials are picked up. */
export function kms(ctx: Pick<Context, "settings">): KmsClient {
  return new KmsClient({ settings: ctx.settings });
}
