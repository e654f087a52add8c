export * from "./client";
export * from "./types";
export { parseEnvelope } from "./envelope";
