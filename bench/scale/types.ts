/**
 * The records of the scale benchmarks (index.ts): doors, steps, runs, options and profiles. Every
 * module of bench/scale/ takes its types from here, so none imports the entry file.
 */
import type { Usage } from "../procs";

export type DoorId = "K" | "F" | "T" | "TF" | "Y" | "YF" | "P";
export type Step = "create" | "preview" | "up" | "refresh" | "drift" | "destroy";

export interface DoorSpec {
  id: DoorId;
  label: string;
  /** Which PULUMI_HOME: the real plugin's or the no-op one's. */
  home: "real" | "floor";
  program: "dynamic" | "floor-dynamic" | "native-ts" | "yaml" | "python";
}

export interface RunResult {
  door: DoorId;
  n: number;
  step: Step;
  rep: number;
  /** Position in the whole run: pairs are adjacent runs. */
  seq: number;
  wallMs: number;
  usage: Usage;
  /** Arrival of the first resource event and of the last, ms after spawn (engine steps). */
  firstResourceMs?: number;
  lastResourceMs?: number;
  requests: number;
  byOperation: Record<string, number>;
  /** After create: the checkpoint file's bytes per resource. */
  stateBytesPerResource?: number;
  skipCheckpoints: boolean;
  env?: string;
}

export interface ScaleOptions {
  sizes: number[];
  /** Repetitions of the plan steps (preview, up, refresh, drift) per cycle. */
  planReps: number;
  /** Cycles of create, plans, destroy. */
  cycles: number;
  doors: DoorId[];
  /** Create and destroy at sizes above this run with PULUMI_SKIP_CHECKPOINTS=true (stated in the tables). */
  skipCheckpointsAbove: number;
  /** The plan steps run (all of PLAN_STEPS when not given). */
  planSteps?: readonly Step[];
  log: (line: string) => void;
}

export interface ProcessProfile {
  role: "program" | "provider" | "drift" | "other";
  totalMs: number;
  categories: Record<string, number>;
  functions: Record<string, number>;
  top: { name: string; ms: number }[];
}

export interface ProfileSummary {
  processes: ProcessProfile[];
  /** Engine: total CPU seconds sampled and the cumulative seconds of named parts. */
  engine?: { totalS: number; parts: Record<string, number> };
}

export interface ProfileRun {
  door: DoorId;
  n: number;
  step: Step;
  wallMs: number;
  summary: ProfileSummary;
}

export interface ProviderCalls {
  n: number;
  msPerCall: Record<string, number>;
  msPerSchemaBuild: Record<string, number>;
  requestsPerResource: Record<string, number>;
  profile: ProfileSummary;
}
