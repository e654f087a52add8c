import type * as pulumi from "@pulumi/pulumi";

/** Resource args from a zod input type: every property may be a Pulumi Input; optionality kept. */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };
