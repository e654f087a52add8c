import { BadRequest, NotFound } from '../core/errors';
import type { ServiceDefinition } from '../core/http';
import type { CoreContext } from '../core/server';
import { HadoopBackend, SERVICE, type StoredCluster } from './backend';
import { hadoopRoutes } from './routes';

/**
 * Hadoop clusters (seed 03 C). Control API, `PATCH /_control/resources/hadoop/<kind>/<id>`:
 * `cluster/{id}` with `{apiKey: '<key>'}` issues the cluster's API key (apiKeyStatus: applied),
 * `{failJob: true}` makes its next job fail, `{workerCnt}` / `{status}` drift;
 * `create-failure/{clusterName}` with `{reason}` makes the next create of that name end Terminated.
 */
export function createHadoopService(core: CoreContext): ServiceDefinition {
  const backend = new HadoopBackend(() => core.clock.now(), core.state, () => core.objectStore);
  return {
    name: SERVICE,
    routes: hadoopRoutes(backend),
    errorFormat: () => 'json',
    inventory: () => backend.inventory(),
    getResource: (_kind, id) => {
      const c = backend.clusters.get(id);
      if (!c) throw new NotFound(`No cluster "${id}".`, 'NoSuchResource');
      return backend.detail(c);
    },
    patchResource: (kind, id, patch) => {
      const p = (patch ?? {}) as Record<string, unknown>;
      if (kind === 'create-failure') {
        backend.failCreate.set(id, String(p.reason ?? 'failed to create'));
        return { name: id, reason: p.reason };
      }
      const c = backend.clusters.get(id);
      if (!c) throw new NotFound(`No cluster "${id}".`, 'NoSuchResource');
      if (typeof p.apiKey === 'string') c.apiKey = p.apiKey;
      if (p.failJob === true) backend.failJob.add(c.id);
      if (typeof p.workerCnt === 'number') c.workerCnt = p.workerCnt;
      if (typeof p.status === 'string') core.state.set(SERVICE, 'cluster', c.id, p.status);
      if (Object.keys(p).length === 0) throw new BadRequest('Nothing to change.');
      return backend.detail(c);
    },
    deleteResource: (_kind, id) => {
      if (!backend.clusters.delete(id)) throw new NotFound(`No cluster "${id}".`, 'NoSuchResource');
    },
    reset: () => backend.reset(),
    snapshot: () => [...backend.clusters.values()].map((c) => ({ ...c, requests: [...c.requests.values()] })),
    restore: (data) => {
      backend.reset();
      for (const c of (data as Array<Record<string, unknown>> | undefined) ?? []) {
        backend.clusters.set(c.id as string, { ...(c as unknown as StoredCluster), requests: new Map(((c.requests ?? []) as { id: string; createdAt: number }[]).map((r) => [r.id, r])) });
      }
    },
  };
}
