/** A Hadoop VM as the lookups and the Cluster resource show it: one shape, one mapping. */
import { z } from "zod";
import type { Vm } from "../../client/hadoop";
import { pickShape } from "../core";

/** One VM as the lookups and the Cluster resource's `vms` output show it: the client's fields, any of which the service may leave out. */
export const vmShape = () =>
  z
    .object({
      name: z.string(),
      instanceId: z.string(),
      isMaster: z.boolean(),
      index: z.number(),
      ip: z.string(),
      floatingIp: z.string(),
      status: z.string(),
      flavorName: z.string(),
    })
    .partial();
export type VmResult = z.infer<ReturnType<typeof vmShape>>;

export function vmResult(v: Vm): VmResult {
  return pickShape(vmShape().shape, v);
}
