/**
 * API errors raised by routes and backends. The server renders them in the style of the service
 * that raised them (JSON `{code, message, requestId}` or Swift-style plain text); a thrown value that
 * is not an ApiError becomes a 500 `InternalError`, so no input can crash the server.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** Brand check: errors may cross module copies (tests load dist/ twice under jest). */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof ApiError ||
    (typeof value === "object" &&
      value !== null &&
      (value as { name?: unknown }).name === "ApiError" &&
      typeof (value as { status?: unknown }).status === "number" &&
      typeof (value as { code?: unknown }).code === "string")
  );
}

/** A class of errors with one code, its status and how its message reads. */
export type ApiErrorClass<A extends unknown[]> = new (...args: A) => ApiError;

/**
 * One class per error code (moto's exceptions.py): a service's errors.ts declares each code it
 * answers with its status and its message, and throws `new NoSuchKey(name)`.
 */
export function apiErrorClass<A extends unknown[]>(
  status: number,
  code: string,
  message: (...args: A) => string,
  headers?: (...args: A) => Record<string, string>,
): ApiErrorClass<A> {
  return class extends ApiError {
    constructor(...args: A) {
      super(status, code, message(...args), headers?.(...args));
    }
  };
}

/** A code whose message the code that throws it writes. */
export function apiErrorCode(status: number, code: string): ApiErrorClass<[message: string]> {
  return apiErrorClass(status, code, (message: string) => message);
}

// The codes of the core, answered for every service: requests the HTTP layer refuses, and the control API's.

export const BadRequest = apiErrorCode(400, "BadRequest");
export const InvalidArgument = apiErrorCode(400, "InvalidArgument");
export const MalformedJson = apiErrorClass(400, "MalformedJSON", (message: string = "The request body is not valid JSON.") => message);
export const MalformedXml = apiErrorCode(400, "MalformedXML");
export const Unauthorized = apiErrorClass(401, "Unauthorized", (message: string = "Authentication failed: a valid credential is required.") => message);
export const AccessDenied = apiErrorClass(403, "AccessDenied", (message: string = "Access denied.") => message);
export const NotFound = apiErrorClass(404, "NotFound", (message: string = "The resource could not be found.") => message);
export const MethodNotAllowed = apiErrorClass(
  405,
  "MethodNotAllowed",
  (method: string, _allowed: string[]) => `Method ${method} is not allowed on this path.`,
  (_method, allowed) => ({ Allow: allowed.join(", ") }),
);
export const Conflict = apiErrorCode(409, "Conflict");
export const EntityTooLarge = apiErrorCode(413, "EntityTooLarge");
export const UnsupportedMediaType = apiErrorClass(415, "UnsupportedMediaType", (expected: string) => `Content-Type must be ${expected}.`);
export const InternalError = apiErrorClass(500, "InternalError", (message: string = "Internal error in the local cloud.") => message);

export const NoSuchService = apiErrorClass(404, "NoSuchService", (name: string) => `Unknown service "${name}".`);
export const NoSuchKind = apiErrorClass(404, "NoSuchKind", (kind: string, kinds: string) => `Unknown kind "${kind}" (${kinds}).`);
export const NoSuchResource = apiErrorCode(404, "NoSuchResource");
export const NoSuchFault = apiErrorClass(404, "NoSuchFault", (id: string) => `No fault "${id}".`);
export const NoSuchCredential = apiErrorClass(404, "NoSuchCredential", (id: string) => `No access key "${id.slice(0, 200)}".`);
export const AmbiguousId = apiErrorCode(409, "AmbiguousId");
