/**
 * What a study of `make bench` is (undici keeps one file per benchmark; so does bench/): a name and
 * a `run` that measures at the size it is given and returns its rows of the table, its notes and,
 * for a study with a report of its own, its section of docs/benchmarks.md. `full` is `make bench`;
 * `smoke` is `make bench-smoke` (part of `make test`): every study at a tiny size, so a study that
 * no longer runs is found by the tests, not by the next person who runs the benchmarks.
 */

/** One row of the table: a figure, ours beside its baseline, their ratio and the goal. */
export interface Row {
  figure: string;
  ours: string;
  baseline: string;
  ratio: string;
  goal: string;
}

export type Size = "full" | "smoke";

export interface StudyContext {
  size: Size;
  /** A progress line (stderr). */
  log: (line: string) => void;
}

export interface StudyResult {
  rows: Row[];
  /** Lines under the table. */
  notes?: string[];
  /** A section of its own after the notes (the scale study's tables). */
  section?: string;
}

export interface Study {
  name: string;
  run(ctx: StudyContext): Promise<StudyResult>;
}

/** The value for the run's size: `full` for `make bench`, `smoke` for `make bench-smoke`. */
export function sized<T>(ctx: StudyContext, full: T, smoke: T): T {
  return ctx.size === "smoke" ? smoke : full;
}
