import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

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
    const text = readFileSync(this.path, 'utf8');
    if (text.trim() === '') return undefined;
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
