/**
 * Hadoop in the console: a project's clusters, terminated ones too (the inventory leaves those
 * out), each with its status, its record as the control API shows it, and its VMs.
 */
import { group, type ServiceBrowser } from "../core/browse";
import type { HadoopBackend } from "./backend";
import type { HadoopControl } from "./control";
import { vmView } from "./views";

export function hadoopBrowser(backend: HadoopBackend, control: HadoopControl): ServiceBrowser {
  return {
    tree(projectId) {
      const clusters = [...backend.clusters.values()].filter((c) => c.projectId === projectId).sort((a, b) => a.createdAt - b.createdAt);
      return [
        group(
          "clusters",
          "clusters",
          clusters.map((c) => {
            const record = control.clusterRecord(c);
            const vms = [...c.vms].sort((a, b) => (a.group === b.group ? a.index - b.index : a.group === "MASTER" ? -1 : 1));
            return {
              kind: "cluster",
              id: c.id,
              label: c.name,
              status: String(record.status),
              facts: { type: c.clusterType, version: c.clusterVersion, vms: c.vms.length },
              record,
              control: { kind: "cluster", id: c.id },
              children: vms.map((vm) => {
                const view = vmView(vm, backend.lifecycle.vmStatus(c, vm));
                return { kind: "vm", id: vm.instanceId, label: vm.name, status: String(view.status), facts: { group: vm.group, ip: vm.ip }, record: view };
              }),
            };
          }),
        ),
      ];
    },
    transitions: [
      { kind: "cluster", moves: "Initializing -> Running (a job cluster then runs its task)" },
      { kind: "job", moves: "a job cluster's task -> Terminated" },
      { kind: "scale", moves: "Updating -> Running" },
      { kind: "terminate", moves: "Terminating -> Terminated(User)" },
    ],
  };
}
