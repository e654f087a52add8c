/**
 * On-demand backups, from the cloud's public API documentation (the spec shows none; the readings
 * are in docs/api-assumptions.md): `POST /v1/backups {clusterId, name}` takes one, `GET
 * /v1/backups?clusterName=` lists them (automatic ones too), and, guessed, `GET` and `DELETE
 * /v1/backups/{id}`. A backup is `Creating` while its data is written (the engine's real RDB files),
 * then `Available` (managed kind `backup`, which tests may hold), or `Failed`.
 */
import { BackupNotFound, DuplicateName, InvalidState } from "../errors";
import { SERVICE } from "../lifecycle";
import type { StoredBackup } from "../model";
import type { CacheState } from "./state";

export class BackupBackend {
  constructor(private readonly state: CacheState) {}

  create(projectId: string, body: { clusterId: string; name: string }): string {
    const c = this.state.cluster(projectId, body.clusterId);
    if (this.state.backups.find(projectId, body.name)) throw new DuplicateName(`A backup named "${body.name}" exists.`);
    if (this.state.statuses.cluster(c, false) === "Creating") throw new InvalidState(`"${c.name}" is still being created: it has no data to back up yet.`);
    return this.state.backups.takeNamed(c, body.name, this.state.now()).id;
  }

  /** The project's backups, automatic and on demand, oldest first; `clusterName` keeps those of a cluster (or instance set) of that name. */
  list(projectId: string, clusterName: string | null): StoredBackup[] {
    return this.state.backups
      .list()
      .filter((b) => b.projectId === projectId && (clusterName === null || b.clusterName === clusterName))
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  get(projectId: string, idOrName: string): StoredBackup {
    const b = this.state.backups.findByIdOrName(projectId, idOrName);
    if (!b) throw new BackupNotFound(`No backup "${idOrName}".`);
    return b;
  }

  delete(projectId: string, idOrName: string): string {
    const b = this.get(projectId, idOrName);
    this.state.backups.delete(b.projectId, b.name);
    return b.id;
  }

  /** `Failed` when its data could not be written, `Creating` while it is, else the managed status (`Available`, or what a test forced). */
  status(b: StoredBackup, countRead: boolean): string {
    if (b.failure !== undefined) return "Failed";
    if (b.size === undefined) return "Creating";
    return (countRead ? this.state.managed.read(SERVICE, "backup", b.id) : this.state.managed.peek(SERVICE, "backup", b.id)) ?? "Available";
  }
}
