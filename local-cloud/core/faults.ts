import { randomHex } from "./ids";
import type { Fault, FaultSpec } from "./wire";

export type { Fault, FaultAction, FaultSpec } from "./wire";

export interface FaultTarget {
  service: string;
  operation: string;
  method: string;
  path: string;
}

export class FaultInjector {
  private readonly faults: Array<Fault & { regex?: RegExp }> = [];
  private readonly random: () => number;

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  add(spec: FaultSpec): Fault {
    const regex = spec.pathRegex === undefined ? undefined : new RegExp(spec.pathRegex);
    const fault = { ...spec, id: `flt-${randomHex(12)}`, fired: 0, remaining: spec.times ?? null, regex };
    this.faults.push(fault);
    return this.view(fault);
  }

  list(): Fault[] {
    return this.faults.map((f) => this.view(f));
  }

  remove(id: string): boolean {
    const index = this.faults.findIndex((f) => f.id === id);
    if (index < 0) return false;
    this.faults.splice(index, 1);
    return true;
  }

  clear(): void {
    this.faults.length = 0;
  }

  /** The first live fault matching the request, consuming one of its hits. */
  match(target: FaultTarget): Fault | undefined {
    for (const fault of this.faults) {
      if (fault.remaining === 0) continue;
      if (fault.service !== undefined && fault.service !== target.service) continue;
      if (fault.operation !== undefined && fault.operation !== target.operation) continue;
      if (fault.method !== undefined && fault.method.toUpperCase() !== target.method.toUpperCase()) continue;
      if (fault.regex && !fault.regex.test(target.path)) continue;
      if ((fault.probability ?? 1) < 1 && this.random() >= (fault.probability ?? 1)) continue;
      fault.fired += 1;
      if (fault.remaining !== null) fault.remaining -= 1;
      return this.view(fault);
    }
    return undefined;
  }

  private view(fault: Fault & { regex?: RegExp }): Fault {
    const { regex: _regex, ...rest } = fault;
    return structuredClone(rest);
  }
}
