/**
 * `KRCLOUD_BENCH_ONLY` (bench/index.ts) picks the studies a run measures: in their order, and a name
 * that is no study fails the run rather than measuring nothing.
 */
import { selected, STUDIES } from "../../bench/index";

test("unset or empty runs every study; names pick those studies in their run order", () => {
  expect(selected(undefined)).toBeUndefined();
  expect(selected(" , ")).toBeUndefined();
  expect(selected("reads")?.map((s) => s.name)).toEqual(["reads"]);
  const order = STUDIES.map((s) => s.name);
  expect(selected("fleet, reads")?.map((s) => s.name)).toEqual(["reads", "fleet"].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
});

test("a name of no study is refused, with the names there are", () => {
  expect(() => selected("reads,nope")).toThrow(/no study nope \(there are: .*reads/);
});
