/**
 * Generated malformed requests for every route of the local cloud's control API, on a local cloud
 * of its own (a fault or transition it accepts must not disturb the services' runs): each gets a
 * 4xx with an error body, never a 5xx, and the local cloud keeps answering. What is generated and
 * what each request must get: tests/support/malformed/requests.ts; the run:
 * tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();
const { ids } = fuzz;

const control: Service = {
  name: "control API",
  key: "control",
  base: () => fuzz.controlCloud.url,
  json: () => true,
  async ensure() {
    fuzz.controlCloud.control.clearFaults();
    const i = ids.control!;
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
    { op: "Root", method: "GET", path: "/_control", auth: "none" },
    {
      op: "Reset",
      method: "POST",
      path: "/_control/reset",
      auth: "none",
      json: () => ({ credentials: false }),
      fields: fieldsOf({ credentials: "bool?" }),
      strict: true,
    },
    {
      op: "IssueCredentials",
      method: "POST",
      path: "/_control/credentials",
      auth: "none",
      json: () => ({ projectId: "fz-ctl", kind: "token", permissions: ["*"] }),
      fields: fieldsOf({ projectId: "name?", kind: "enum?", permissions: "array?" }),
      strict: true,
    },
    { op: "ListTransitions", method: "GET", path: "/_control/transitions", auth: "none" },
    {
      op: "SetTransition",
      method: "PUT",
      path: "/_control/transitions",
      auth: "none",
      json: () => ({ service: "cache", kind: "cluster", mode: "reads", reads: 1 }),
      fields: fieldsOf({ service: "string", kind: "string", mode: "enum", reads: "int?" }),
      strict: true,
      invalid: [404],
    },
    {
      op: "AddFault",
      method: "POST",
      path: "/_control/faults",
      auth: "none",
      json: () => ({ service: "kms", action: "error", status: 503, times: 1, retryAfter: 1, headers: { "X-Fuzz": "1" } }),
      fields: fieldsOf({ service: "string?", action: "enum", status: "int?", times: "int?", retryAfter: "int?", headers: "object?" }),
      strict: true,
      invalid: [404],
    },
    { op: "ListFaults", method: "GET", path: "/_control/faults", auth: "none" },
    { op: "DeleteFault", method: "DELETE", path: "/_control/faults/{fault}", auth: "none" },
    { op: "Inventory", method: "GET", path: "/_control/inventory", auth: "none" },
    { op: "GetResource", method: "GET", path: "/_control/resources/{service}/{kind}/{key}", auth: "none" },
    {
      op: "PatchResource",
      method: "PATCH",
      path: "/_control/resources/{service}/{kind}/{key}",
      auth: "none",
      json: () => ({ state: "Active" }),
      fields: fieldsOf({ state: "enum?", rotate: "bool?" }),
      strict: true,
    },
    { op: "Requests", method: "GET", path: "/_control/requests", auth: "none", query: "since=0" },
    { op: "Counters", method: "GET", path: "/_control/counters", auth: "none" },
    { op: "Clock", method: "GET", path: "/_control/clock", auth: "none" },
    {
      op: "AdvanceClock",
      method: "POST",
      path: "/_control/clock/advance",
      auth: "none",
      json: () => ({ ms: 1000 }),
      fields: fieldsOf({ ms: "int?", days: "number?" }),
      strict: true,
    },
  ],
};

describe(control.name, () => {
  test(malformedTitle(control), () => fuzz.run(control));
});
