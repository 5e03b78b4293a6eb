import { CONSOLE_LOG_BUFFER_ENTRIES } from '@frontdesk/protocol';

type LogEntry = { at: string; level: 'log' | 'info' | 'warn' | 'error'; text: string };

const entries: LogEntry[] = [];

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * Keeps the last 110 console lines (spec §9) for call-bug reports. Unlike the spec's shell, it
 * does not mute the console (issue 6): it listens beside it.
 */
export function captureConsole(target: Console = console): void {
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    const original = target[level].bind(target);
    target[level] = (...args: unknown[]) => {
      entries.push({
        at: new Date().toISOString(),
        level,
        text: args.map(describe).join(' ').slice(0, 2000),
      });
      if (entries.length > CONSOLE_LOG_BUFFER_ENTRIES) entries.shift();
      original(...args);
    };
  }
}

/** The buffered lines, oldest first. */
export const consoleLog = (): readonly LogEntry[] => [...entries];
