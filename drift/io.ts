/**
 * What krcloud-drift's two modes (cli.ts, and unmanaged/cli.ts for --unmanaged) share: the process
 * they write to, and where each report format goes. A module of its own so that neither imports the
 * other for it.
 */

/** stdout, stderr, the clock and the environment: the process's, or a test's. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  now(): Date;
  env: NodeJS.ProcessEnv;
}

/** The formats written to stdout, and those written to files (`--out FORMAT=FILE`, `--report`). */
export interface Outputs {
  stdout: string[];
  files: { format: string; file: string }[];
}
