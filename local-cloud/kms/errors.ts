/** One class per error code key management answers besides the core's (in the envelope's JSON `{code, message, requestId}`). */
import { apiErrorCode } from "../core/errors";

export const InvalidKeyUsage = apiErrorCode(400, "InvalidKeyUsage");
export const KeyNotActive = apiErrorCode(400, "KeyNotActive");
export const InputTooLarge = apiErrorCode(400, "InputTooLarge");
export const AadTooLarge = apiErrorCode(400, "AadTooLarge");
export const InvalidCiphertext = apiErrorCode(400, "InvalidCiphertext");
export const DecryptionFailed = apiErrorCode(400, "DecryptionFailed");
export const InvalidBase64 = apiErrorCode(400, "InvalidBase64");
export const KeyNotFound = apiErrorCode(404, "KeyNotFound");
