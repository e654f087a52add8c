/**
 * What a study of `make bench` is (undici keeps one file per benchmark; so does bench/): a name and
 * a `run` that measures at the size it is given and returns its rows of the table, its notes and,
 * for a study with a report of its own, its section of docs/benchmarks.md. `full` is `make bench`;
 * `smoke` is `make bench-smoke` (part of `make test`): every study at a tiny size, so a study that
 * no longer runs is found by the tests, not by the next person who runs the benchmarks.
 */
import { parseArgs } from "node:util";

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

/** The sizes a study measures at: `full` for `make bench` and a run on its own, `smoke` for `make bench-smoke`. */
export interface Sizes<O> {
  full: O;
  smoke: O;
}

/** A study that measures its figures at the run's size, then turns them into its rows. */
export interface FiguresStudy<O extends Record<string, number>, F> extends Study {
  sizes: Sizes<O>;
  measure: (o: O, log: (line: string) => void) => Promise<F>;
}

export function figuresStudy<O extends Record<string, number>, F>(
  name: string,
  sizes: Sizes<O>,
  measure: (o: O, log: (line: string) => void) => Promise<F>,
  result: (f: F) => StudyResult,
): FiguresStudy<O, F> {
  return { name, sizes, measure, run: async (ctx) => result(await measure(sized(ctx, sizes.full, sizes.smoke), ctx.log)) };
}

/** The sum of a record's numbers (requests by kind, milliseconds by handler). */
export function sumOf(r: Record<string, number>): number {
  return Object.values(r).reduce((a, b) => a + b, 0);
}

/**
 * A study's module run on its own (`node dist/bench/folder.js --files 100`): each of its full sizes
 * may be given on the command line as a number; progress lines go to stdout, the figures too when
 * `print` (as JSON), and a failure to stderr under `label`, with exit code 1.
 */
export function runAlone<O extends Record<string, number>>(label: string, study: FiguresStudy<O, unknown>, { print }: { print: boolean }): void {
  const defaults = study.sizes.full;
  const { values } = parseArgs({ options: Object.fromEntries(Object.keys(defaults).map((k) => [k, { type: "string" as const }])) });
  const o = Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, Number(values[k] ?? d)])) as O;
  study
    .measure(o, (l) => process.stdout.write(`${l}\n`))
    .then(
      (f) => {
        if (print) process.stdout.write(`${JSON.stringify(f, null, 2)}\n`);
      },
      (e: unknown) => {
        process.stderr.write(`${label}: ${(e as Error)?.stack ?? String(e)}\n`);
        process.exitCode = 1;
      },
    );
}
