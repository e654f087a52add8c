/** The identity service's operations, over the core's credential store (every service authenticates through it). */
import type { TokenRecord } from "../core/credentials";
import type { CoreContext } from "../core/server";
import { TokenNotFound, Unauthorized } from "./errors";
import { tokenBody } from "./model";

export class IdentityBackend {
  constructor(private readonly core: CoreContext) {}

  /** IssueToken: a token for an application credential (an access key), living the token TTL. */
  issueToken(credentialId: string, secret: string): TokenRecord {
    const token = this.core.credentials.issueToken(credentialId, secret, this.core.credentials.tokenTtlMs);
    if (!token) throw new Unauthorized();
    this.core.changed();
    return token;
  }

  /** ValidateToken: the subject token, while it is active. */
  validateToken(subject: string): TokenRecord {
    const t = this.core.credentials.token(subject);
    if (!t || this.core.credentials.stateOf(t) !== "active") throw new TokenNotFound();
    return t;
  }

  /** The answer's body for `t`, with the catalog of the services mounted now. */
  body(t: TokenRecord): Record<string, unknown> {
    return tokenBody(t, this.core.clock.now(), this.core.catalog(), this.core.region);
  }
}
