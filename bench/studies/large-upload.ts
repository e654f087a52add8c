/**
 * A large sparse file uploaded by BucketObject (multipart, streamed; 3 GiB, 32 MiB at the smoke
 * size), in a provider process of its own as the engine runs it, so that its memory is the
 * provider's alone (the local cloud here keeps bodies on disk in its temporary data directory).
 */
import { execFile } from "node:child_process";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ObjectStorageClient } from "../../client/objectstorage";
import { entry } from "../../tests/harness/entries";
import { sized, type Study } from "../study";
import { withCloud } from "./cloud";

const MiB = 2 ** 20;

export const largeUploadStudy: Study = {
  name: "large-upload",
  run: (ctx) =>
    withCloud(async ({ cloud, settings, token, projectId }) => {
      const size = sized(ctx, 3 * 1024 * MiB, 32 * MiB);
      const dir = mkdtempSync(path.join(os.tmpdir(), "krcloud-bench-"));
      try {
        const file = path.join(dir, "large.bin");
        const fd = openSync(file, "w");
        ftruncateSync(fd, size);
        for (let off = 0; off < size; off += 64 * MiB) writeSync(fd, Buffer.from(`block at ${off}`), 0, undefined, off);
        closeSync(fd);
        await new ObjectStorageClient({ settings }).createBucket({ name: "bench-large" });
        const config = { "krcloud:localCloudUrl": cloud.url, "krcloud:authToken": token, "krcloud:projectId": projectId };
        const args = { bucket: "bench-large", key: "large.bin", source: file };
        const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", entry("providerProcess"), JSON.stringify({ config, args })], {
          maxBuffer: 64 * MiB,
        });
        const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
        if (!line) throw new Error(`the provider process printed no result:\n${stdout}`);
        const r = JSON.parse(line.slice(7)) as { ms: number; before: { rss: number }; peakRss: number; outs: { size?: number } };
        if (r.outs.size !== size) throw new Error(`uploaded ${String(r.outs.size)} bytes, expected ${size}`);
        const growth = r.peakRss - r.before.rss;
        const mb = (size / MiB).toLocaleString("en");
        return {
          rows: [
            {
              figure: `${size >= 1024 * MiB ? `${size / (1024 * MiB)} GiB` : `${mb} MiB`} sparse file up by BucketObject (s; provider peak rss growth)`,
              ours: `${(r.ms / 1000).toFixed(1)} s; +${(growth / MiB).toFixed(0)} MB (peak ${(r.peakRss / MiB).toFixed(0)} MB)`,
              baseline: `file ${mb} MB`,
              ratio: `memory ${(size / Math.max(growth, 1)).toFixed(0)}x smaller than the file; ${(size / MiB / (r.ms / 1000)).toFixed(0)} MB/s`,
              goal: "memory independent of file size",
            },
          ],
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
};
