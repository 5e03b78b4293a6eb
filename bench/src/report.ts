/**
 * One line of the printed table. `floor` is what the figure is held against, measured in the same
 * run (issue 22: no figure may depend on how busy the machine was), with the ratio to it.
 */
export type Row = { figure: string; measured: string; floor?: string; goal: string; note: string };

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
  const header: Required<Row> = {
    figure: 'figure',
    measured: 'measured',
    floor: 'floor, same run (ratio)',
    goal: 'goal',
    note: 'note',
  };
  const cells = [header, ...rows.map((row) => ({ ...row, floor: row.floor ?? '—' }))];
  const columns = ['figure', 'measured', 'floor', 'goal', 'note'] as const;
  const widths = columns.map((column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row: Required<Row>) =>
    columns
      .map((column, i) => row[column].padEnd(widths[i] as number))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  const [head, ...body] = cells.map(line);
  return [head, rule, ...body].join('\n');
}
