import { randomBytes } from "node:crypto";

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}

/** Swift/RGW-style transaction id: `tx` + 21 hex + `-` + 10 hex of the Unix time. */
export function newRequestId(nowMs: number): string {
  const seconds = Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(10, "0");
  return `tx${randomHex(21)}-${seconds}`;
}

export function randomToken(): string {
  return `krc${randomBytes(30).toString("base64url")}`;
}
