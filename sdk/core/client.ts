/** What every service client is built from: settings -> an authenticated transport for its endpoint. */

import type { Clock } from "./clock";
import { credentialsFor } from "./credentials";
import { endpointOf, secretValues, type ServiceName, type Settings } from "./settings";
import { Transport } from "./transport";

export interface ClientOptions {
  /**
   * The settings; with a token command or an access key as the source of tokens, as `authenticated`
   * completed them (the project and the catalog's endpoints come from the token).
   */
  settings: Settings;
  clock?: Clock;
  debug?: (line: string) => void;
}

export function transportFor(service: ServiceName, o: ClientOptions): Transport {
  const s = o.settings;
  return new Transport({
    service,
    endpoint: endpointOf(s, service),
    credentials: credentialsFor(service, s, o.clock),
    secrets: secretValues(s),
    retry: s.retry,
    timeouts: s.timeouts,
    clock: o.clock,
    debug: o.debug,
  });
}
