/**
 * What one measured command's processes used, for the scale benchmarks (scale/index.ts): CPU time
 * and peak RSS of every process under a root pid, grouped by what the process is (engine, program,
 * provider, ...).
 *
 * Two sources: /proc samples every 250 ms (cumulative CPU ticks and VmHWM, the kernel's own peak
 * RSS, so a late sample loses only the CPU of a process's last interval), and, for Node processes,
 * the exact line bench/preload.ts writes when the process ends (preferred where present).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export type Role = "engine" | "program" | "host" | "provider" | "drift" | "other";
export const ROLES: readonly Role[] = ["engine", "program", "host", "provider", "drift", "other"];

export interface Usage {
  /** CPU ms (user + system) per role. */
  cpuMs: Record<Role, number>;
  /** Largest peak RSS (KB) of one process of the role. */
  peakRssKb: Record<Role, number>;
}

interface ProcRecord {
  pid: number;
  role: Role;
  cpuMs: number;
  peakRssKb: number;
}

const TICK_MS = 10; // CLK_TCK is 100 on Linux

/**
 * What a process is, from its command line: the engine (`pulumi`), the program (the Node or Python
 * process running it, or the YAML language host, which evaluates the program itself), the language
 * host that starts a Node.js, Python or Go program (`pulumi-language-nodejs`, `-python`, `-go`), a
 * provider (the dynamic provider host, the krcloud plugin, the bench's no-op plugin),
 * krcloud-drift, or other (shell launchers).
 */
export function roleOf(argv: readonly string[], isRoot: boolean, rootRole: Role): Role {
  const joined = argv.join(" ");
  const exe = path.basename(argv[0] ?? "");
  if (isRoot) return rootRole;
  if (exe === "pulumi") return "engine";
  if (/dynamic-provider|pulumi-resource-krcloud\.js|bench\/floors\/plugin\.js/.test(joined)) return "provider";
  if (exe === "pulumi-language-yaml" || /@pulumi\/pulumi\/cmd\/run|cmd[/\\]run[/\\]?(index\.js)?(\s|$)/.test(joined)) return "program";
  if (/pulumi-language-python-exec/.test(joined)) return "program";
  if (/^pulumi-language-(nodejs|python|go)$/.test(exe)) return "host";
  if (/krcloud-drift\.js/.test(joined)) return "drift";
  return "other";
}

/** Samples the process tree under `root` until stop(); then merges the preload's exact lines from `usageFile`. */
export class TreeSampler {
  private readonly procs = new Map<number, ProcRecord & { argv: string[] }>();
  private readonly checked = new Set<number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    private readonly rootRole: Role,
    private readonly usageFile: string,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 250);
  }

  private sample(): void {
    let pids: number[];
    try {
      pids = fs
        .readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .map(Number);
    } catch {
      return;
    }
    // New pids since the last sample, then those of them under the tree (a child may be listed
    // before its parent joins the tree, hence the passes until nothing joins).
    const parents = new Map<number, number>();
    for (const pid of pids) {
      if (this.procs.has(pid) || this.checked.has(pid)) continue;
      this.checked.add(pid);
      const stat = readStat(pid);
      if (stat) parents.set(pid, stat.ppid);
    }
    for (let joined = true; joined;) {
      joined = false;
      for (const [pid, ppid] of parents) {
        if (pid !== this.root && !this.procs.has(ppid)) continue;
        const argv = readCmdline(pid);
        this.procs.set(pid, { pid, argv, role: roleOf(argv, pid === this.root, this.rootRole), cpuMs: 0, peakRssKb: 0 });
        parents.delete(pid);
        joined = true;
      }
    }
    for (const rec of this.procs.values()) {
      const stat = readStat(rec.pid);
      if (!stat) continue;
      // A pid reused by an unrelated process would restart its counters: keep the largest seen.
      rec.cpuMs = Math.max(rec.cpuMs, (stat.utime + stat.stime) * TICK_MS);
      rec.peakRssKb = Math.max(rec.peakRssKb, readHwm(rec.pid));
      if (rec.argv.length === 0 || rec.argv[0] === "sh" || rec.argv[0] === "/bin/sh") {
        // A shell launcher that exec'd: its command line is now the real one.
        const argv = readCmdline(rec.pid);
        if (argv.length > 0) {
          rec.argv = argv;
          rec.role = roleOf(argv, rec.pid === this.root, this.rootRole);
        }
      }
    }
  }

  stop(): Usage {
    clearInterval(this.timer);
    const exact = new Map<number, { cpuMs: number; peakRssKb: number; argv: string[] }>();
    if (fs.existsSync(this.usageFile)) {
      for (const line of fs.readFileSync(this.usageFile, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const u = JSON.parse(line) as { pid: number; argv: string[]; userMs: number; systemMs: number; maxRssKb: number };
        exact.set(u.pid, { cpuMs: u.userMs + u.systemMs, peakRssKb: u.maxRssKb, argv: u.argv });
      }
    }
    const usage: Usage = { cpuMs: zero(), peakRssKb: zero() };
    const counted = new Set<number>();
    for (const rec of this.procs.values()) {
      const e = exact.get(rec.pid);
      const role = e ? roleOf(["node", ...e.argv], rec.pid === this.root, this.rootRole) : rec.role;
      usage.cpuMs[role] += Math.max(rec.cpuMs, e?.cpuMs ?? 0);
      usage.peakRssKb[role] = Math.max(usage.peakRssKb[role], e?.peakRssKb ?? rec.peakRssKb);
      counted.add(rec.pid);
    }
    // Node processes of this run that lived between two samples.
    for (const [pid, e] of exact) {
      if (counted.has(pid)) continue;
      const role = roleOf(["node", ...e.argv], false, this.rootRole);
      usage.cpuMs[role] += e.cpuMs;
      usage.peakRssKb[role] = Math.max(usage.peakRssKb[role], e.peakRssKb);
    }
    return usage;
  }
}

function zero(): Record<Role, number> {
  return { engine: 0, program: 0, host: 0, provider: 0, drift: 0, other: 0 };
}

function readStat(pid: number): { ppid: number; utime: number; stime: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), utime: Number(f[11]), stime: Number(f[12]) };
  } catch {
    return undefined;
  }
}

function readHwm(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function readCmdline(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}
