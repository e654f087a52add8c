/**
 * Hadoop service errors, one class per code (spec 03 C.7; the body is the local cloud's JSON
 * `{code, message, requestId}`). 400 messages start with the field they are about.
 */
import { apiErrorClass } from "../core/errors";

/** `field: problem`; with one argument, an already formatted message naming the field(s). */
export const InvalidParameter = apiErrorClass(400, "InvalidParameter", (field: string, problem?: string) =>
  problem === undefined ? field : `${field}: ${problem}`,
);
export const CredentialAuthFailed = apiErrorClass(
  401,
  "CredentialAuthenticationFailed",
  (message: string = "Credential authentication failed: Credential-ID and Credential-Secret of a valid access key are required.") => message,
);
export const ApiKeyRequired = apiErrorClass(401, "ApiKeyRequired", () => "The Hadoop-Service-Api-Key header is required for this operation.");
export const InvalidApiKey = apiErrorClass(
  403,
  "InvalidApiKey",
  (clusterName: string) => `The Hadoop-Service-Api-Key is not the API key issued for cluster "${clusterName}".`,
);
export const PermissionDenied = apiErrorClass(
  403,
  "Forbidden",
  (permission: string, operation: string) => `The credential lacks permission ${permission} needed for ${operation}.`,
);
export const ClusterNotFound = apiErrorClass(404, "ClusterNotFound", (id: string) => `Cluster "${id.slice(0, 100)}" does not exist.`);
export const RequestNotFound = apiErrorClass(404, "RequestNotFound", (id: string) => `Re-run request "${id.slice(0, 100)}" does not exist for this cluster.`);
export const ClusterNameExists = apiErrorClass(409, "ClusterNameExists", (name: string) => `A cluster named "${name}" already exists in this project.`);
export const ClusterNotRunning = apiErrorClass(
  409,
  "ClusterNotRunning",
  (name: string, status: string) => `Cluster "${name}" is ${status}; it can be scaled only while Running.`,
);
export const ClusterNotScalable = apiErrorClass(409, "ClusterNotScalable", (name: string) => `Cluster "${name}" is not scalable (isScalable is false).`);
/** Re-run of a cluster that is not Terminated: 400, the spec lists no 409 for re-runs. */
export const ClusterNotTerminated = apiErrorClass(
  400,
  "ClusterNotTerminated",
  (name: string, status: string) => `Cluster "${name}" is ${status}; only a Terminated cluster can be re-run.`,
);

// The control API's codes, in the Hadoop service's words.

/** An API key for a cluster whose apiKeyStatus is impossible. */
export const ApiKeyImpossible = apiErrorClass(
  409,
  "ApiKeyImpossible",
  (name: string) => `Cluster "${name}" has no userTask: an API key cannot be issued for it (apiKeyStatus impossible).`,
);
export const NoSuchResource = apiErrorClass(404, "NoSuchResource", (kind: string, id: string) => `No hadoop ${kind} "${id.slice(0, 100)}".`);
export const NoSuchKind = apiErrorClass(
  404,
  "NoSuchKind",
  (kind: string) => `Unknown hadoop resource kind "${kind.slice(0, 100)}" (cluster, api-key, create-failure, request).`,
);
