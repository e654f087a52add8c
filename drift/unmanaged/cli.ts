import type { Io, Outputs } from "../cli";
import type { RunOptions } from "../run";

export interface UnmanagedOptions {
  patterns: string[];
  workDir: string;
  configFile?: string;
  importFile?: string;
  programDir?: string;
  formats: Outputs;
  io: Io;
  runOpts: RunOptions;
}

export async function runUnmanaged(_o: UnmanagedOptions): Promise<number> {
  return 1;
}
