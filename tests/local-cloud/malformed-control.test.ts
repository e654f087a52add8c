/**
 * Generated malformed requests for every route of the local cloud's control API, on a local cloud
 * of its own (a fault or transition it accepts must not disturb the services' runs): each gets a
 * 4xx with an error body, never a 5xx, and the local cloud keeps answering. What is generated and
 * what each request must get: tests/support/malformed/requests.ts; the run:
 * tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, route, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();

const control: Service = {
  name: "control API",
  key: "control",
  base: () => fuzz.controlCloud.url,
  async ensure(i) {
    fuzz.controlCloud.control.clearFaults();
    i.fault = fuzz.controlCloud.control.addFault({ service: "kms", operation: "Encrypt", action: "error", status: 503, times: 1 }).id;
    i.key = "fz-ctl-key";
    try {
      fuzz.controlCloud.control.getResource("kms", "key", "fz-ctl-key");
    } catch {
      fuzz.controlCloud.control.patchResource("kms", "key", "fz-ctl-key", { projectId: PROJECT, type: "symmetric" });
    }
    i.service = "kms";
    i.kind = "key";
  },
  routes: [
    route("Root", "GET /_control", "none"),
    route("Reset", "POST /_control/reset", "none", {
      json: () => ({ credentials: false }),
      fields: fieldsOf({ credentials: "bool?" }),
      strict: true,
    }),
    route("IssueCredentials", "POST /_control/credentials", "none", {
      json: () => ({ projectId: "fz-ctl", kind: "token", permissions: ["*"] }),
      fields: fieldsOf({ projectId: "name?", kind: "enum?", permissions: "array?" }),
      strict: true,
    }),
    route("ListTransitions", "GET /_control/transitions", "none"),
    route("SetTransition", "PUT /_control/transitions", "none", {
      json: () => ({ service: "cache", kind: "cluster", mode: "reads", reads: 1 }),
      fields: fieldsOf({ service: "string", kind: "string", mode: "enum", reads: "int?" }),
      strict: true,
      invalid: [404],
    }),
    route("AddFault", "POST /_control/faults", "none", {
      json: () => ({ service: "kms", action: "error", status: 503, times: 1, retryAfter: 1, headers: { "X-Fuzz": "1" } }),
      fields: fieldsOf({ service: "string?", action: "enum", status: "int?", times: "int?", retryAfter: "int?", headers: "object?" }),
      strict: true,
      invalid: [404],
    }),
    route("ListFaults", "GET /_control/faults", "none"),
    route("DeleteFault", "DELETE /_control/faults/{fault}", "none"),
    route("Inventory", "GET /_control/inventory", "none"),
    route("GetResource", "GET /_control/resources/{service}/{kind}/{key}", "none"),
    route("PatchResource", "PATCH /_control/resources/{service}/{kind}/{key}", "none", {
      json: () => ({ state: "Active" }),
      fields: fieldsOf({ state: "enum?", rotate: "bool?" }),
      strict: true,
    }),
    route("Requests", "GET /_control/requests", "none", { query: "since=0" }),
    route("Counters", "GET /_control/counters", "none"),
    route("Clock", "GET /_control/clock", "none"),
    route("AdvanceClock", "POST /_control/clock/advance", "none", {
      json: () => ({ ms: 1000 }),
      fields: fieldsOf({ ms: "int?", days: "number?" }),
      strict: true,
    }),
  ],
};

describe(control.name, () => {
  test(malformedTitle(control), () => fuzz.run(control));
});
