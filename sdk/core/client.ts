/** What every service client is built from: settings -> an authenticated transport for its endpoint. */

import { authHeaders } from "./auth";
import type { Clock } from "./clock";
import { endpointOf, secretValues, type ServiceName, type Settings } from "./settings";
import { Transport } from "./transport";

export interface ClientOptions {
  settings: Settings;
  clock?: Clock;
  debug?: (line: string) => void;
}

export function transportFor(service: ServiceName, o: ClientOptions): Transport {
  const s = o.settings;
  return new Transport({
    service,
    endpoint: endpointOf(s, service),
    authHeaders: () => authHeaders(service, s),
    secrets: secretValues(s),
    retry: s.retry,
    timeouts: s.timeouts,
    clock: o.clock,
    debug: o.debug,
  });
}
