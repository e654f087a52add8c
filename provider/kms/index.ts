export { Ciphertext, DataKey, type CiphertextArgs, type DataKeyArgs } from "./resources";
export * from "./functions";
