/**
 * What Linux says about a process in /proc: CPU time spent so far and peak resident memory. The
 * benchmark reads these for processes it did not start itself (Elasticsearch, the MongoDB-wire
 * server), which no in-process counter could see.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** `utime` and `stime` in /proc/<pid>/stat count in clock ticks; almost always 100 per second. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) the process has used since it started, in milliseconds. */
export function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  // What follows is field 3 (state) onwards, so utime and stime, fields 14 and 15, sit at 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The most resident memory the process has held (VmHWM), in MiB. */
export function peakResidentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (kib === undefined) throw new Error(`/proc/${pid}/status has no VmHWM`);
  return Number(kib) / 1024;
}
