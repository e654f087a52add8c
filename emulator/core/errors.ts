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

export class BadRequest extends ApiError {
  constructor(message: string, code = "BadRequest") {
    super(400, code, message);
  }
}

export class MalformedJson extends ApiError {
  constructor(message = "The request body is not valid JSON.") {
    super(400, "MalformedJSON", message);
  }
}

export class Unauthorized extends ApiError {
  constructor(message = "Authentication failed: a valid credential is required.") {
    super(401, "Unauthorized", message);
  }
}

export class AccessDenied extends ApiError {
  constructor(message = "Access denied.") {
    super(403, "AccessDenied", message);
  }
}

export class NotFound extends ApiError {
  constructor(message = "The resource could not be found.", code = "NotFound") {
    super(404, code, message);
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, allowed: string[]) {
    super(405, "MethodNotAllowed", `Method ${method} is not allowed on this path.`, { Allow: allowed.join(", ") });
  }
}

export class Conflict extends ApiError {
  constructor(message: string, code = "Conflict") {
    super(409, code, message);
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(limit: number) {
    super(413, "EntityTooLarge", `The request body exceeds the local cloud limit of ${limit} bytes.`);
  }
}

export class UnsupportedMediaType extends ApiError {
  constructor(expected: string) {
    super(415, "UnsupportedMediaType", `Content-Type must be ${expected}.`);
  }
}

export class InternalError extends ApiError {
  constructor(message = "Internal error in the local cloud.") {
    super(500, "InternalError", message);
  }
}
