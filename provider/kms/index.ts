// The key management service: one line per resource (its class and args), then the lookups.
export { Ciphertext, type CiphertextArgs } from "./ciphertext";
export { DataKey, type DataKeyArgs } from "./data-key";
export * from "./functions";
