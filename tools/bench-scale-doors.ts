/** The doors, steps and run records of the scale benchmarks (bench-scale.ts). */
import type { Usage } from "./bench-procs";

export type DoorId = "K" | "F" | "T" | "TF" | "Y" | "YF";
export type Step = "create" | "preview" | "up" | "refresh" | "drift" | "destroy";
export const STEPS: readonly Step[] = ["create", "preview", "up", "refresh", "drift", "destroy"];
export const PLAN_STEPS: readonly Step[] = ["preview", "up", "refresh", "drift"];

export interface DoorSpec {
  id: DoorId;
  label: string;
  /** Which PULUMI_HOME: the real plugin's or the no-op one's. */
  home: "real" | "floor";
  program: "dynamic" | "floor-dynamic" | "native-ts" | "yaml";
}

export const DOORS: Record<DoorId, DoorSpec> = {
  K: { id: "K", label: "dynamic TS", home: "real", program: "dynamic" },
  F: { id: "F", label: "dynamic TS floor", home: "floor", program: "floor-dynamic" },
  T: { id: "T", label: "native TS", home: "real", program: "native-ts" },
  TF: { id: "TF", label: "native TS floor", home: "floor", program: "native-ts" },
  Y: { id: "Y", label: "native YAML", home: "real", program: "yaml" },
  YF: { id: "YF", label: "native YAML floor", home: "floor", program: "yaml" },
};
/** (door, its floor), in run order. */
export const PAIRS: readonly [DoorId, DoorId][] = [
  ["K", "F"],
  ["T", "TF"],
  ["Y", "YF"],
];

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
  log: (line: string) => void;
}
