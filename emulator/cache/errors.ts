import { ApiError } from "../core/errors";

/** 422: syntactically valid, but the service cannot do it (an unknown version or flavor, a mismatched group or backup). */
export class Unprocessable extends ApiError {
  constructor(message: string) {
    super(422, "Unprocessable", message);
  }
}
