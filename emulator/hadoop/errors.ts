/**
 * Hadoop service errors, one class per code (seed 03 C.7; the body is the local cloud's JSON
 * `{code, message, requestId}`). 400 messages start with the field they are about.
 */
import { ApiError } from "../core/errors";

export class InvalidParameter extends ApiError {
  /** `field: problem`; with one argument, an already formatted message naming the field(s). */
  constructor(field: string, problem?: string) {
    super(400, "InvalidParameter", problem === undefined ? field : `${field}: ${problem}`);
  }
}

export class CredentialAuthFailed extends ApiError {
  constructor(message = "Credential authentication failed: Credential-ID and Credential-Secret of a valid access key are required.") {
    super(401, "CredentialAuthenticationFailed", message);
  }
}

export class ApiKeyRequired extends ApiError {
  constructor() {
    super(401, "ApiKeyRequired", "The Hadoop-Service-Api-Key header is required for this operation.");
  }
}

export class InvalidApiKey extends ApiError {
  constructor(clusterName: string) {
    super(403, "InvalidApiKey", `The Hadoop-Service-Api-Key is not the API key issued for cluster "${clusterName}".`);
  }
}

export class PermissionDenied extends ApiError {
  constructor(permission: string, operation: string) {
    super(403, "Forbidden", `The credential lacks permission ${permission} needed for ${operation}.`);
  }
}

export class ClusterNotFound extends ApiError {
  constructor(id: string) {
    super(404, "ClusterNotFound", `Cluster "${id.slice(0, 100)}" does not exist.`);
  }
}

export class RequestNotFound extends ApiError {
  constructor(id: string) {
    super(404, "RequestNotFound", `Re-run request "${id.slice(0, 100)}" does not exist for this cluster.`);
  }
}

export class ClusterNameExists extends ApiError {
  constructor(name: string) {
    super(409, "ClusterNameExists", `A cluster named "${name}" already exists in this project.`);
  }
}

export class ClusterNotRunning extends ApiError {
  constructor(name: string, status: string) {
    super(409, "ClusterNotRunning", `Cluster "${name}" is ${status}; it can be scaled only while Running.`);
  }
}

export class ClusterNotScalable extends ApiError {
  constructor(name: string) {
    super(409, "ClusterNotScalable", `Cluster "${name}" is not scalable (isScalable is false).`);
  }
}

/** Re-run of a cluster that is not Terminated: 400, the seed lists no 409 for re-runs. */
export class ClusterNotTerminated extends ApiError {
  constructor(name: string, status: string) {
    super(400, "ClusterNotTerminated", `Cluster "${name}" is ${status}; only a Terminated cluster can be re-run.`);
  }
}

/** Control API: an API key for a cluster whose apiKeyStatus is impossible. */
export class ApiKeyImpossible extends ApiError {
  constructor(name: string) {
    super(409, "ApiKeyImpossible", `Cluster "${name}" has no userTask: an API key cannot be issued for it (apiKeyStatus impossible).`);
  }
}

export class NoSuchResource extends ApiError {
  constructor(kind: string, id: string) {
    super(404, "NoSuchResource", `No hadoop ${kind} "${id.slice(0, 100)}".`);
  }
}

export class NoSuchKind extends ApiError {
  constructor(kind: string) {
    super(404, "NoSuchKind", `Unknown hadoop resource kind "${kind.slice(0, 100)}" (cluster, api-key, create-failure, request).`);
  }
}
