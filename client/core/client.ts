/** What every service client is built from: settings -> an authenticated transport for its endpoint. */

import type { Clock } from "./clock";
import { credentialsFor } from "./credentials";
import { endpointOf, secretValues, type ServiceName, type Settings } from "./settings";
import { InvalidArgumentError } from "./errors";
import { Transport, type HttpResponse, type RequestSpec } from "./transport";

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

/** What every flat service client (key management, data query, Hadoop) shares: its transport for the service. */
export abstract class ServiceClient {
  readonly transport: Transport;

  protected constructor(service: ServiceName, opts: ClientOptions) {
    this.transport = transportFor(service, opts);
  }

  protected send(spec: RequestSpec): Promise<HttpResponse> {
    return this.transport.request(spec);
  }
}

/** An id as one path segment; an empty one is refused, as it would address the collection instead. */
export function idSegment(id: string, action: string): string {
  if (!id) throw new InvalidArgumentError(`${action}: the id must not be empty`);
  return encodeURIComponent(id);
}
