import type * as pulumi from "@pulumi/pulumi";

/** Resource args from a zod input type: every property may be a Pulumi Input; optionality kept. */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** What a resource class exposes: every output property an Output (undefined inside when unset). */
export type ResourceOutputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

/** Args whose `name` may be omitted: the logical name plus a random suffix is used then. */
export type AutoNamed<T> = Omit<T, "name"> & { name?: string };
