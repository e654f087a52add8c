/** Hadoop cluster routes (seed 03 C.4): `/v2/hadoop-service/clusters...`, access-key auth. */
import { BadRequest, Unauthorized } from '../core/errors';
import { header, jsonResponse, parseJsonBody, type RequestContext, type RouteDefinition } from '../core/http';
import type { HadoopBackend } from './backend';

const BASE = '/v2/hadoop-service/clusters';
const TYPES = ['hadoop', 'hbase', 'trino', 'dataflow', 'custom'];
const VERSION = /^[A-Za-z]{3}-\d+\.\d+\.\d+$/;
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

function caller(ctx: RequestContext): { projectId: string; owner: string } {
  const p = ctx.presented;
  if (p.kind === 'invalid') throw new Unauthorized('Credential authentication failed.');
  if (p.kind !== 'valid' || p.identity.kind !== 'access-key') throw new Unauthorized('The Hadoop service authenticates with Credential-ID and Credential-Secret.');
  return { projectId: p.identity.projectId, owner: header(ctx, 'credential-id') ?? 'unknown' };
}

function body(ctx: RequestContext): Record<string, unknown> {
  const b = parseJsonBody(ctx);
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new BadRequest('The body must be a JSON object.');
  return b as Record<string, unknown>;
}

const need = (cond: boolean, message: string): void => {
  if (!cond) throw new BadRequest(message);
};
const isInt = (v: unknown, lo: number, hi: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

function validateCreate(b: Record<string, unknown>): void {
  for (const k of ['name', 'clusterVersion', 'clusterType', 'keypairName', 'masterFlavorName', 'workerFlavorName', 'vpcId', 'subnetId']) need(typeof b[k] === 'string' && b[k] !== '', `${k}: required.`);
  need(VERSION.test(b.clusterVersion as string), 'clusterVersion: <PREFIX>-X.X.X, e.g. HDE-2.0.0.');
  need(TYPES.includes(b.clusterType as string), `clusterType: one of ${TYPES.join(', ')}.`);
  need(b.installComponents === undefined || b.clusterType === 'custom', 'installComponents: only for clusterType custom.');
  for (const k of ['isHa', 'monitoring']) need(typeof b[k] === 'boolean', `${k}: a boolean is required.`);
  for (const k of ['masterVolumeSize', 'workerVolumeSize']) need(isInt(b[k], 100, 16384), `${k}: an integer from 100 to 16384 (GB).`);
  need(isInt(b.workerCnt, 1, 1000), 'workerCnt: an integer from 1 to 1000.');
  const config = (b.config ?? {}) as Record<string, unknown>;
  const block = config.hdfsBlockSize ?? config.BlockSize;
  need(isInt(config.hdfsReplication, 1, 500), 'config.hdfsReplication: an integer from 1 to 500.');
  need(isInt(block, 1, 1024), 'config.hdfsBlockSize: an integer from 1 to 1024 (MB).');
  need((b.workerCnt as number) >= (config.hdfsReplication as number), 'workerCnt: at least config.hdfsReplication.');
  for (const k of ['configText', 'userScript']) need(config[k] === undefined || (typeof config[k] === 'string' && B64.test(config[k])), `config.${k}: must be Base64.`);
  const admin = b.adminInfo as { userPw?: unknown } | undefined;
  need(admin?.userPw === undefined || (typeof admin.userPw === 'string' && B64.test(admin.userPw)), 'adminInfo.userPw: must be Base64.');
  const task = b.userTask as Record<string, unknown> | undefined;
  if (task) {
    need(task.type === 'hive' || task.type === 'spark', 'userTask.type: hive or spark.');
    need(['never', 'onSuccess', 'always'].includes(task.terminationPolicy as string), 'userTask.terminationPolicy: never, onSuccess or always.');
  }
  const meta = b.hiveMetastoreInfo as { mySqlInfo?: Record<string, unknown>; dataCatalogInfo?: unknown; dataCatalog?: unknown } | undefined;
  if (meta?.mySqlInfo) need(typeof meta.mySqlInfo.userPw === 'string' && B64.test(meta.mySqlInfo.userPw), 'hiveMetastoreInfo.mySqlInfo.userPw: must be Base64.');
  const redis = b.redisInfo as Record<string, unknown> | undefined;
  if (redis) {
    need(typeof redis.objectId === 'string', 'redisInfo.objectId: required.');
    for (const k of ['dbIdSupersetCelery', 'dbIdSupersetResults']) need(redis[k] === undefined || isInt(redis[k], 0, 15), `redisInfo.${k}: an integer from 0 to 15.`);
  }
}

/** A page of the C.2 envelope. */
function page<T>(items: T[], ctx: RequestContext): Record<string, unknown> {
  const size = Number(ctx.query.get('size') ?? 20);
  const number = Number(ctx.query.get('page') ?? 0);
  need(Number.isInteger(size) && size >= 1 && size <= 1000, 'size: an integer from 1 to 1000.');
  need(Number.isInteger(number) && number >= 0, 'page: a non-negative integer.');
  const content = items.slice(number * size, number * size + size);
  const totalPages = Math.max(1, Math.ceil(items.length / size));
  return { content, pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false }, totalPages, totalElements: items.length, last: number + 1 >= totalPages, first: number === 0, size, number, numberOfElements: content.length, empty: content.length === 0 };
}

function sorted(items: Record<string, unknown>[], ctx: RequestContext, fields: string[]): Record<string, unknown>[] {
  const sorts = ctx.query.getAll('sort').map((s) => s.split(','));
  for (const [f, d] of sorts) need(fields.includes(f ?? '') && (d === 'asc' || d === 'desc'), `sort: field,asc|desc with a field of ${fields.join(', ')}.`);
  const out = [...items];
  for (const [f, d] of [...sorts].reverse()) out.sort((a, b) => (String(a[f!]) < String(b[f!]) ? -1 : String(a[f!]) > String(b[f!]) ? 1 : 0) * (d === 'desc' ? -1 : 1));
  return out;
}

export function hadoopRoutes(be: HadoopBackend): RouteDefinition[] {
  const ok = (v: unknown) => jsonResponse(200, v);
  return [
    {
      methods: ['POST'],
      path: BASE,
      operation: 'CreateCluster',
      handler: (ctx) => {
        const { projectId, owner } = caller(ctx);
        const b = body(ctx);
        validateCreate(b);
        const c = be.create(projectId, owner, b);
        return ok({ id: c.id, name: c.name, status: 'Initializing' });
      },
    },
    { methods: ['GET'], path: `${BASE}/:id`, operation: 'GetCluster', handler: (ctx) => ok(be.detail(be.cluster(caller(ctx).projectId, ctx.params.id!))) },
    {
      methods: ['GET'],
      path: BASE,
      operation: 'ListClusters',
      handler: (ctx) => {
        const { projectId } = caller(ctx);
        const name = ctx.query.get('name');
        const includeTerminated = ctx.query.get('includeTerminated') !== 'false';
        const apiKeyStatus = ctx.query.get('apiKeyStatus');
        const items = [...be.clusters.values()]
          .filter((c) => c.projectId === projectId && (!name || c.name.includes(name)))
          .map((c) => be.summary(c))
          .filter((s) => (includeTerminated || !String(s.status).startsWith('Terminated')) && (!apiKeyStatus || s.apiKeyStatus === apiKeyStatus));
        return ok(page(sorted(items, ctx, ['id', 'name', 'status', 'owner', 'clusterType', 'clusterVersion', 'apiKeyStatus', 'masterCnt', 'workerCnt', 'createdAt', 'runningAt', 'elapsedTime']), ctx));
      },
    },
    {
      methods: ['GET'],
      path: `${BASE}/:id/vms`,
      operation: 'ListClusterVms',
      handler: (ctx) => {
        const c = be.cluster(caller(ctx).projectId, ctx.params.id!);
        const like = (k: string) => ctx.query.get(k);
        const items = be.vms(c).filter((v) => (!like('name') || String(v.name).includes(like('name')!)) && (!like('instanceId') || String(v.instanceId).includes(like('instanceId')!)) && (!like('ip') || String(v.ip).includes(like('ip')!)));
        return ok(page(sorted(items, ctx, ['name', 'instanceId', 'isMaster', 'flavorName', 'ip', 'floatingIp', 'createdAt']), ctx));
      },
    },
    {
      methods: ['DELETE'],
      path: `${BASE}/:id`,
      operation: 'DeleteCluster',
      handler: (ctx) => {
        const c = be.cluster(caller(ctx).projectId, ctx.params.id!);
        be.delete(c);
        return ok({ id: c.id, name: c.name, status: be.status(c) });
      },
    },
    ...(['PATCH', 'PUT'] as const).map(
      (method): RouteDefinition => ({
        methods: [method],
        path: method === 'PATCH' ? `${BASE}/:id` : `${BASE}/:id/scale`,
        operation: 'ScaleCluster',
        handler: (ctx) => {
          const c = be.cluster(caller(ctx).projectId, ctx.params.id!);
          const b = body(ctx);
          need(isInt(b.workerCnt, 1, 1000), 'workerCnt: an integer from 1 to 1000.');
          be.scale(c, b.workerCnt as number);
          return ok({ id: c.id, name: c.name, status: 'Updating' });
        },
      }),
    ),
    {
      methods: ['POST'],
      path: `${BASE}/:id`,
      operation: 'RerunCluster',
      handler: (ctx) => {
        const c = be.cluster(caller(ctx).projectId, ctx.params.id!);
        const b = ctx.body.length ? body(ctx) : {};
        for (const [i, s] of ((b.instanceSpecs ?? []) as Record<string, unknown>[]).entries()) {
          need(s.nodeCnt === undefined || isInt(s.nodeCnt, 1, 1000), `instanceSpecs[${i}].nodeCnt: 1 to 1000.`);
          need(s.volumeSize === undefined || isInt(s.volumeSize, 100, 16384), `instanceSpecs[${i}].volumeSize: 100 to 16384.`);
        }
        return jsonResponse(202, be.rerun(c, header(ctx, 'hadoop-service-api-key')));
      },
    },
    {
      methods: ['GET'],
      path: `${BASE}/:id/requests/:request`,
      operation: 'GetRerunRequest',
      handler: (ctx) => {
        const c = be.cluster(caller(ctx).projectId, ctx.params.id!);
        const r = be.request(c, ctx.params.request!, header(ctx, 'hadoop-service-api-key'));
        return ok(ctx.query.get('verbose') === 'true' ? { ...r, clusterType: c.clusterType, clusterVersion: c.clusterVersion, isHa: c.isHa, owner: c.owner } : r);
      },
    },
  ];
}
