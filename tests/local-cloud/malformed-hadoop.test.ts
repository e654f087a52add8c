/**
 * Generated malformed requests for every route of the local cloud's Hadoop service (clusters, their
 * VMs, re-runs of a job cluster): each gets a 4xx with an error body, never a 5xx, and the local
 * cloud keeps answering. What is generated and what each request must get:
 * tests/support/malformed/requests.ts; the run: tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle } from "../support/malformed/clouds";
import { fieldsOf, route, type Json, type Service } from "../support/malformed/requests";
import { hadoopCreateBody } from "../support/local-cloud/bodies";

const fuzz = malformedClouds();
const { api, creds, exists, ids } = fuzz;
let seq = 0;

const hadoopBody = (name: string, extra: Json = {}): Json => hadoopCreateBody({ name, ...extra });

const hadoop: Service = {
  name: "Hadoop",
  key: "hadoop",
  base: () => `${fuzz.cloud.endpoints.hadoop!}/v2/hadoop-service/clusters`,
  async ensure(i) {
    const h = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
      api(method, `${this.base()}${path}`, { ...creds.key!, ...extra }, body);
    const live = (id: string | undefined) =>
      exists("hadoop", "cluster", id) && !/^Terminat/.test((fuzz.cloud.control.getResource("hadoop", "cluster", id!) as { status: string }).status);
    if (!live(i.cluster)) i.cluster = (await h("POST", "", hadoopBody(`fz-etl-${++seq}`))).id;
    if (!exists("hadoop", "cluster", i.job)) {
      // A job cluster whose job ends it: only a Terminated cluster can be re-run.
      i.job = (await h("POST", "", hadoopBody(`fz-job-${++seq}`, { userTask: { type: "hive", terminationPolicy: "always", hiveQuery: "select 1" } }))).id;
      await h("GET", `/${i.job}`);
      i.apiKey = (fuzz.cloud.control.patchResource("hadoop", "api-key", i.job!, {}) as { apiKey: string }).apiKey;
      i.request = (await h("POST", `/${i.job}`, {}, { "Hadoop-Service-Api-Key": i.apiKey })).requestId;
    }
  },
  routes: [
    route("CreateCluster", "POST ", "key", {
      json: () => hadoopBody(`fz-new-${++seq}`),
      fields: fieldsOf({
        name: "string",
        clusterVersion: "string",
        clusterType: "enum",
        isHa: "bool",
        masterVolumeSize: "int",
        workerCnt: "int",
        monitoring: "bool",
        config: "object",
        securityGroupIds: "array?",
      }),
      media: ["application/json"],
    }),
    route("ListClusters", "GET ", "key", { query: "page=0&size=5&includeTerminated=false" }),
    route("GetCluster", "GET /{cluster}", "key", { query: "retainMetadata=true" }),
    route("ListClusterVms", "GET /{cluster}/vms", "key"),
    route("DeleteCluster", "DELETE /{cluster}", "key"),
    route("ScaleCluster", "PATCH /{cluster}", "key", {
      json: () => ({ workerCnt: 3 }),
      fields: fieldsOf({ workerCnt: "int" }),
      media: ["application/json"],
      invalid: [409],
    }),
    route("RerunCluster", "POST /{job}", "key", {
      json: () => ({}),
      headers: () => ({ "Hadoop-Service-Api-Key": ids.hadoop!.apiKey! }),
      media: ["application/json"],
      invalid: [409],
    }),
    route("GetRerunRequest", "GET /{job}/requests/{request}", "key", {
      query: "verbose=true",
      headers: () => ({ "Hadoop-Service-Api-Key": ids.hadoop!.apiKey! }),
    }),
  ],
};

describe(hadoop.name, () => {
  test(malformedTitle(hadoop), () => fuzz.run(hadoop));
});
