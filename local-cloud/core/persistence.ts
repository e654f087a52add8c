import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Where services keep bulk data (object bodies) outside the JSON snapshot: `{persistPath}.data/`
 * when persisting, so a restart finds it next to the snapshot; otherwise a temporary directory that
 * `dispose()` removes.
 */
export class DataDirectory {
  readonly path: string;
  private readonly temporary: boolean;

  constructor(persistPath: string | undefined) {
    this.temporary = persistPath === undefined;
    this.path = persistPath === undefined ? mkdtempSync(join(tmpdir(), "krcloud-local-cloud-")) : `${persistPath}.data`;
    mkdirSync(this.path, { recursive: true });
  }

  dispose(): void {
    if (this.temporary) rmSync(this.path, { recursive: true, force: true });
  }
}

/**
 * Debounced JSON snapshot file. Writes go to a temporary file renamed over the target, so a
 * crash mid-write leaves the previous snapshot intact.
 */
export class Persister {
  private readonly path: string;
  private readonly snapshot: () => unknown;
  private readonly delayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(path: string, snapshot: () => unknown, delayMs = 25) {
    this.path = path;
    this.snapshot = snapshot;
    this.delayMs = delayMs;
  }

  load(): unknown {
    if (!existsSync(this.path)) return undefined;
    const text = readFileSync(this.path, "utf8");
    if (text.trim() === "") return undefined;
    return JSON.parse(text) as unknown;
  }

  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return;
    this.dirty = false;
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.snapshot()));
    renameSync(temp, this.path);
  }
}
