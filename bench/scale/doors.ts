/** The doors and steps of the scale benchmarks (index.ts), in run order. */
import type { DoorId, DoorSpec, Step } from "./types";

export const STEPS: readonly Step[] = ["create", "preview", "up", "refresh", "drift", "destroy"];
export const PLAN_STEPS: readonly Step[] = ["preview", "up", "refresh", "drift"];

export const DOORS: Record<DoorId, DoorSpec> = {
  K: { id: "K", label: "dynamic TS", home: "real", program: "dynamic" },
  F: { id: "F", label: "dynamic TS floor", home: "floor", program: "floor-dynamic" },
  T: { id: "T", label: "native TS", home: "real", program: "native-ts" },
  TF: { id: "TF", label: "native TS floor", home: "floor", program: "native-ts" },
  Y: { id: "Y", label: "native YAML", home: "real", program: "yaml" },
  YF: { id: "YF", label: "native YAML floor", home: "floor", program: "yaml" },
  P: { id: "P", label: "native Python", home: "real", program: "python" },
};
/** (door, its floor), in run order; native Python has no floor of its own (its plugin is T's and Y's). */
export const PAIRS: readonly (readonly DoorId[])[] = [["K", "F"], ["T", "TF"], ["Y", "YF"], ["P"]];
