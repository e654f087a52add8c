export * from "./class";
export * from "./config";
export * from "./naming";
export * from "./resource";
export * from "./sanitize";
export * from "./stub";
export * from "./unknown";
