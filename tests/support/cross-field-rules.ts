/**
 * The rules of each resource's inputs that tie several properties together, written by hand from
 * the definitions (their refinements and descriptions) and the service's contract: the generated
 * bad inputs (input-rules.ts) read everything else from the schemas, but a refinement is a function
 * whose rule no walk can read. Per resource type:
 * - `values`: how to make valid values for schema paths whose rules live in a refinement of their
 *   container (a backup cron, a subnet that must be one of `subnetIds`, a file that must exist);
 * - `keep`: turns an input that keeps every single-property rule into one that keeps the
 *   cross-field rules too (the generated valid inputs go through it);
 * - `rules`: each cross-field rule, with inputs that break it, the property path `check` must name
 *   and the text its reason must carry. `at` is the schema path of the refined container (`""` for
 *   the whole input); every refined container of a schema needs at least one rule here. Two more
 *   kinds sit beside them: `derive`, facts check computes (a source file must exist), and
 *   `service`, rules of the service a schema did not state until generated inputs that check
 *   accepted were refused by the local cloud or the SDK at create.
 */
import type { Arbitrary } from "fast-check";
import { cacheRules } from "./cross-field-cache";
import { dataQueryRules } from "./cross-field-dataquery";
import { hadoopRules } from "./cross-field-hadoop";
import { objectStorageRules } from "./cross-field-objectstorage";
import type { Input } from "./inputs/rules";

export interface BrokenInput {
  input: Input;
  /** The property path check must name. */
  path: string;
  /** Texts the reason must carry. */
  texts: string[];
}

export interface CrossFieldRule {
  /** The rule, for test names and reports. */
  rule: string;
  /** The schema path of the container whose refinement checks it; `""` for the whole input; `derive` or `service` (see above). */
  at: string;
  /** Inputs breaking it, made from a valid one (a clone: change it freely). */
  break: Arbitrary<(valid: Input) => BrokenInput>;
}

export interface TypeRules {
  values?: Record<string, Arbitrary<unknown>>;
  keep?(input: Input): void;
  rules: CrossFieldRule[];
}

/** Local facts some checks read: a file that exists (BucketObject sources). */
export interface RulesContext {
  file: string;
}

// ---------------------------------------------------------------------------------------------
// Per resource type: the rules of each service are in cross-field-<service>.ts, with what they
// share in cross-field-shared.ts.

export function crossFieldRules(ctx: RulesContext): Record<string, TypeRules> {
  return {
    ...objectStorageRules(ctx),
    ...cacheRules(),
    ...dataQueryRules(),
    ...hadoopRules(),

    "krcloud:kms:Ciphertext": { rules: [] },
    "krcloud:kms:DataKey": { rules: [] },
  };
}
