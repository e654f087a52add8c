/**
 * Generated malformed requests for every route of the local cloud's data query service (queries
 * and data sources): each gets a 4xx with an error body, never a 5xx, and the local cloud keeps
 * answering. What is generated and what each request must get: tests/support/malformed/requests.ts;
 * the run: tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, route, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();
const { api, creds, exists } = fuzz;
let seq = 0;

const dataQuery: Service = {
  name: "data query",
  key: "dq",
  base: () => `${fuzz.cloud.endpoints["data-query"]!}/v1/data-query`,
  async ensure(i) {
    const dq = (method: string, path: string, body?: unknown) => api(method, `${this.base()}${path}`, creds.key!, body);
    if (!exists("data-query", "instance", "fz-db")) {
      fuzz.cloud.control.flush();
      await fuzz.cloud.control.patchResource("data-query", "instance", "fz-db", {
        projectId: PROJECT,
        engine: "mysql",
        databases: { shop: "CREATE TABLE t(x INTEGER)" },
      });
    }
    if (!exists("object-storage", "bucket", "fz-results"))
      await api("PUT", `${fuzz.cloud.endpoints["object-storage"]!}/v1_ext/bucket`, creds.token!, { name: "fz-results", type: "STANDARD" });
    if (!exists("data-query", "data-source", `${PROJECT}/fz_ds`))
      await dq("POST", "/data-source", { name: "fz_ds", type: "MYSQL", scope: "PRIVATE", instanceId: "fz-db", username: "u", password: "cHc=" });
    i.source = "fz_ds";
    if (!exists("data-query", "query", i.query))
      i.query = (await dq("POST", "/query", { query: "select 1", resultConfig: { bucketName: "fz-results" } })).queryInfo.queryId;
  },
  routes: [
    route("RunQuery", "POST /query", "key", {
      json: () => ({ query: "select 1", resultConfig: { bucketName: "fz-results" }, reuseConfig: { reuse: false } }),
      fields: fieldsOf({ query: "string", resultConfig: "object" }),
      invalid: [404],
    }),
    route("GetQueryResult", "GET /query/{query}", "key", { query: "page=0" }),
    route("ListQueries", "GET /query", "key", { query: "size=5&sort=createdAt,desc" }),
    route("AbortQuery", "PUT /query/{query}/abort", "key", { invalid: [409] }),
    route("ListDataSources", "GET /data-source", "key"),
    route("CreateDataSource", "POST /data-source", "key", {
      json: () => ({ name: `fz_new_${++seq}`, type: "MYSQL", scope: "PRIVATE", instanceId: "fz-db", username: "u", password: "cHc=", description: "fuzz" }),
      fields: fieldsOf({ name: "name", type: "enum", scope: "enum", instanceId: "string", username: "string", password: "string", description: "text?" }),
    }),
    route("DeleteDataSource", "DELETE /data-source/{source}", "key"),
  ],
};

describe(dataQuery.name, () => {
  test(malformedTitle(dataQuery), () => fuzz.run(dataQuery));
});
