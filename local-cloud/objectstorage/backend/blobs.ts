import { createHash } from "node:crypto";
import { closeSync, copyFileSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { randomHex } from "../../core/ids";

/** A stored body: one file in the blob directory. */
export interface BlobRef {
  blob: string;
  size: number;
}

export interface WrittenBlob extends BlobRef {
  /** MD5 hex of the bytes written. */
  md5: string;
}

const COPY_CHUNK = 1024 * 1024;

/**
 * Object and part bodies as files, one per body, named by a random id (never by the object name, so
 * any key is safe and an overwrite never races a reader of the old body). State keeps only the id
 * and size; the JSON snapshot never holds content.
 */
export class BlobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  private path(blob: string): string {
    if (!/^[0-9a-f]{32}$/.test(blob)) throw new Error(`invalid blob id ${blob.slice(0, 40)}`);
    return join(this.dir, blob);
  }

  write(data: Buffer): WrittenBlob {
    const blob = randomHex(32);
    writeFileSync(this.path(blob), data);
    return { blob, size: data.length, md5: createHash("md5").update(data).digest("hex") };
  }

  /** A new blob holding the pieces back to back, copied in 1 MiB chunks (never the whole body in memory). */
  concat(pieces: readonly BlobRef[]): WrittenBlob {
    if (pieces.length === 1) {
      const blob = randomHex(32);
      copyFileSync(this.path(pieces[0]!.blob), this.path(blob));
      return { blob, size: pieces[0]!.size, md5: this.md5(blob) };
    }
    const blob = randomHex(32);
    const hash = createHash("md5");
    const chunk = Buffer.allocUnsafe(COPY_CHUNK);
    const out = openSync(this.path(blob), "w");
    let size = 0;
    try {
      for (const piece of pieces) {
        const fd = openSync(this.path(piece.blob), "r");
        try {
          for (let n = readSync(fd, chunk, 0, COPY_CHUNK, null); n > 0; n = readSync(fd, chunk, 0, COPY_CHUNK, null)) {
            hash.update(chunk.subarray(0, n));
            writeSync(out, chunk, 0, n);
            size += n;
          }
        } finally {
          closeSync(fd);
        }
      }
    } finally {
      closeSync(out);
    }
    return { blob, size, md5: hash.digest("hex") };
  }

  private md5(blob: string): string {
    const hash = createHash("md5");
    const chunk = Buffer.allocUnsafe(COPY_CHUNK);
    const fd = openSync(this.path(blob), "r");
    try {
      for (let n = readSync(fd, chunk, 0, COPY_CHUNK, null); n > 0; n = readSync(fd, chunk, 0, COPY_CHUNK, null)) hash.update(chunk.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    return hash.digest("hex");
  }

  /**
   * Bytes `start..end` (inclusive) of the pieces laid end to end, streamed from disk. Files are
   * opened only when the stream is read, so an unread stream holds no descriptor.
   */
  stream(pieces: readonly BlobRef[], start: number, end: number): Readable {
    const pathOf = (blob: string): string => this.path(blob);
    async function* read(): AsyncGenerator<Buffer> {
      let offset = 0;
      for (const piece of pieces) {
        const pieceStart = offset;
        offset += piece.size;
        if (offset <= start || pieceStart > end || piece.size === 0) continue;
        const from = Math.max(0, start - pieceStart);
        const to = Math.min(piece.size - 1, end - pieceStart);
        for await (const chunk of createReadStream(pathOf(piece.blob), { start: from, end: to, highWaterMark: 256 * 1024 })) yield chunk as Buffer;
      }
    }
    return Readable.from(read(), { objectMode: false });
  }

  has(blob: string): boolean {
    return /^[0-9a-f]{32}$/.test(blob) && existsSync(this.path(blob));
  }

  remove(blob: string): void {
    rmSync(this.path(blob), { force: true });
  }

  /** Removes every file not in `keep` (bodies orphaned by a crash between a write and the snapshot). */
  retainOnly(keep: ReadonlySet<string>): void {
    for (const name of readdirSync(this.dir)) if (!keep.has(name)) rmSync(join(this.dir, name), { force: true, recursive: true });
  }
}
