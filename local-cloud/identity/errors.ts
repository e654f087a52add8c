/** One class per error code the identity service answers besides the core's, worded as Keystone words them. */
import { apiErrorClass } from "../core/errors";

/** Keystone's answer to credentials it does not accept, whatever the reason (never says which). */
export const Unauthorized = apiErrorClass(401, "Unauthorized", () => "The request you have made requires authentication.");
export const TokenNotFound = apiErrorClass(404, "TokenNotFound", () => "Could not find token.");
/** The control API: the service keeps no resources (tokens are the credential store's, under /_control/tokens). */
export const NoSuchKind = apiErrorClass(
  404,
  "NoSuchKind",
  (kind: string, hint: string = "") => `The identity service has no resources of kind "${kind}"${hint}.`,
);
