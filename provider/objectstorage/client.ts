import { ObjectStorageClient } from "../../client/objectstorage";
import type { Context } from "../core";

/** A client for one provider call; built per call so rotated credentials are picked up. */
export function objectStorage(ctx: Pick<Context, "settings">): ObjectStorageClient {
  return new ObjectStorageClient({ settings: ctx.settings });
}
