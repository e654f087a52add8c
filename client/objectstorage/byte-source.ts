/**
 * Content to upload without holding it in memory: a size and a way to open any byte range as a
 * fresh stream (each attempt of a request and each multipart part opens its own).
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";

export interface ByteSource {
  readonly size: number;
  /** A new stream of bytes `[start, end)`; the whole content by default. */
  open(start?: number, end?: number): Readable;
}

/** A local file of `size` bytes (the caller stat-ed it), read in 256 KiB chunks. */
export function fileSource(path: string, size: number): ByteSource {
  return {
    size,
    open: (start = 0, end = size) =>
      // createReadStream's `end` is inclusive; an empty range must not read byte `start`.
      end <= start ? Readable.from([]) : createReadStream(path, { start, end: end - 1, highWaterMark: 256 * 1024 }),
  };
}

/** Bytes already in memory (inline content). */
export function bufferSource(data: Buffer): ByteSource {
  return { size: data.length, open: (start = 0, end = data.length) => Readable.from([data.subarray(start, end)]) };
}

export function isByteSource(v: unknown): v is ByteSource {
  return (
    typeof v === "object" && v !== null && !Buffer.isBuffer(v) && typeof (v as ByteSource).open === "function" && typeof (v as ByteSource).size === "number"
  );
}
