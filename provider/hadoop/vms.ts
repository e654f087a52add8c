/** A Hadoop VM as the lookups and the Cluster resource show it: one shape, one mapping. */
import { z } from "zod";
import type { Vm } from "../../sdk/hadoop";
import { pickShape } from "../core";

/** One VM as the lookups and the Cluster resource's `vms` output show it. */
export const vmShape = () =>
  z.object({
    name: z.string().optional(),
    instanceId: z.string().optional(),
    isMaster: z.boolean().optional(),
    index: z.number().optional(),
    ip: z.string().optional(),
    floatingIp: z.string().optional(),
    status: z.string().optional(),
    flavorName: z.string().optional(),
  });
export type VmResult = z.infer<ReturnType<typeof vmShape>>;

export function vmResult(v: Vm): VmResult {
  return pickShape(vmShape().shape, v);
}
