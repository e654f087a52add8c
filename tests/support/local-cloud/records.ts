/**
 * Records put straight into the local cloud through its control API, for what a test needs to find
 * there and no resource of the package makes (KMS keys, data query instances).
 */
import type { TestCloud } from "./index";

/** Each of `records` (id -> fields) set at `/resources/<kindPath>/<id>` in the test's project; the control API must take each. */
export async function putRecords(tc: TestCloud, kindPath: string, records: Record<string, Record<string, unknown>>): Promise<void> {
  for (const [id, fields] of Object.entries(records)) {
    expect((await tc.controlApi("PATCH", `/resources/${kindPath}/${id}`, { projectId: tc.projectId, ...fields })).status).toBe(200);
  }
}
