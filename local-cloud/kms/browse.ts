/** Key management in the console: a project's keys, each with its type, versions and the default version's state. */
import { group, type ServiceBrowser } from "../core/browse";
import type { KmsBackend } from "./backend";
import type { KmsControl } from "./control";

export function kmsBrowser(backend: KmsBackend, control: KmsControl): ServiceBrowser {
  return {
    tree(projectId) {
      const keys = [...backend.keys.values()].filter((k) => k.projectId === projectId).sort((a, b) => a.id.localeCompare(b.id));
      return [
        group(
          "keys",
          "keys",
          keys.map((k) => ({
            kind: "key",
            id: k.id,
            label: k.id,
            status: k.versions[k.defaultVersion - 1]?.state ?? "",
            facts: { type: k.type, versions: k.versions.length, default: k.defaultVersion },
            record: control.getResource("key", k.id),
            control: { kind: "key", id: k.id },
          })),
        ),
      ];
    },
  };
}
