/** One line of the printed table. */
export type Row = { figure: string; measured: string; goal: string; note: string };

/** Resident memory of one server, idle and under the load a benchmark put on it. */
export type Memory = { service: string; idle: number; loaded: number; load: string };

/** What each benchmark hands back: its table lines and its raw figures for the JSON file. */
export type Section = { rows: Row[]; data: Record<string, unknown>; memory?: Memory };

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ms = (value: number) => `${Math.round(value)} ms`;
export const pct = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

/** The table as plain text, columns padded to their widest cell. */
export function formatTable(rows: readonly Row[]): string {
  const header: Row = { figure: 'figure', measured: 'measured', goal: 'goal', note: 'note' };
  const columns = ['figure', 'measured', 'goal', 'note'] as const;
  const widths = columns.map((column) =>
    Math.max(...[header, ...rows].map((row) => row[column].length)),
  );
  const line = (row: Row) =>
    columns
      .map((column, i) => row[column].padEnd(widths[i] as number))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  return [line(header), rule, ...rows.map(line)].join('\n');
}
