import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of the CPU times in /proc/<pid>/stat. */
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Resident memory of a process in bytes (VmRSS), 0 when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Resident memory of a process in bytes, split as /proc/<pid>/smaps_rollup counts it: `anon`
 * is the process's own (JS heap, malloc), `file` the pages of files it maps (the node binary,
 * shared libraries), which any Node process of the machine has too.
 */
export function residentMemory(pid: number): { rss: number; anon: number; file: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
  const rss = kib('Rss');
  const anon = kib('Anonymous');
  return { rss, anon, file: rss - anon };
}

/** A process's command line: the program, then its arguments (/proc/<pid>/cmdline). */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

/** CPU seconds a process has used so far, user plus system, all its threads. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name in parentheses may hold spaces; utime and stime are the
  // 12th and 13th fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** Busy and total CPU time of the whole machine, all cores, in ticks (/proc/stat). */
function machineCpu(): { busy: number; total: number } {
  const [, ...times] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/);
  const values = times.filter(Boolean).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Samples a process's CPU use over a window: call `stop()` to get the share of one core. */
export function cpuWindow(pid: number): { stop: () => number } {
  const startedAt = performance.now();
  const startCpu = cpuSeconds(pid);
  return {
    stop: () => (cpuSeconds(pid) - startCpu) / ((performance.now() - startedAt) / 1000),
  };
}

/** The whole machine's busy share over a window (1 = every core busy): what else was running. */
export function machineWindow(): { stop: () => number } {
  const start = machineCpu();
  return {
    stop: () => {
      const end = machineCpu();
      return (end.busy - start.busy) / Math.max(1, end.total - start.total);
    },
  };
}
