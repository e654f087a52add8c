/**
 * The shorter ownership tag (issue 38 item 8; provider/core/ownership.ts), against the local cloud:
 * a cache parameter group created now carries ` [k:<13 base-36 digits>]`; one an earlier version
 * made carries ` [krcloud:<16 hex>]` and is still recognised as this stack's: a create whose answer
 * was lost takes it over (same id, one group), its description reads back without the tag, and
 * the next change of it writes the short tag. A group whose old tag holds another marker is
 * another stack's: the create is refused, naming `adopt`, and the group is left as it was.
 */
import { markerOf } from "../../provider/core";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import type { CacheTestBed } from "../support/cache";

let bed: CacheTestBed;
cacheBedForFile({ reset: true }, (b) => (bed = b));

const args = (over: Record<string, unknown> = {}) => ({
  name: "sessions-params",
  baseParameterGroupId: "default.redis7.0.cluster",
  description: "web sessions",
  ...over,
});

test("a group created now carries the short tag, which reads back as nothing", async () => {
  const made = await bed.pg.up(args());
  const shown = (await bed.sdk.parameterGroups.get(made.id)).description;
  expect(shown).toMatch(/^web sessions \[k:[0-9a-z]{13}\]$/);
  expect(made.outputs.description).toBe("web sessions");
});

test("a group an earlier version made, with the old tag and this create's marker: taken over (same id, one group), then rewritten with the short tag", async () => {
  const { inputs } = await bed.pg.check({}, args(), "params");
  const marker = markerOf(inputs.__krcloudCreateKey as string)!;
  // What an earlier version's create request made before its answer was lost.
  const earlier = await bed.sdk.parameterGroups.create({
    parameterGroupId: "default.redis7.0.cluster",
    name: "sessions-params",
    description: `web sessions [krcloud:${marker}]`,
  });

  const taken = await bed.pg.create(inputs);
  expect(taken.id).toBe(earlier.id);
  expect(taken.outputs.description).toBe("web sessions");
  const groups = (await bed.sdk.parameterGroups.list({ parameterGroupType: "custom" })).filter((g) => g.name === "sessions-params");
  expect(groups.map((g) => g.id)).toEqual([earlier.id]);

  const changed = await bed.pg.apply(taken, args({ description: "web sessions, v2" }), "params");
  expect(changed.outputs.description).toBe("web sessions, v2");
  expect((await bed.sdk.parameterGroups.get(earlier.id)).description).toMatch(/^web sessions, v2 \[k:[0-9a-z]{13}\]$/);
});

test("a group whose old tag holds another marker is another stack's: the create is refused naming adopt, the group untouched", async () => {
  const { inputs } = await bed.pg.check({}, args(), "params");
  const other = await bed.sdk.parameterGroups.create({
    parameterGroupId: "default.redis7.0.cluster",
    name: "sessions-params",
    description: "web sessions [krcloud:0123456789abcdef]",
  });
  await expect(bed.pg.create(inputs)).rejects.toThrow(/adopt/);
  expect((await bed.sdk.parameterGroups.get(other.id)).description).toBe("web sessions [krcloud:0123456789abcdef]");
});
