// The bench's table: rows collected as they are measured, printed once at the end as Markdown.
export interface Row {
  measure: string;
  figure: string;
  anchor: string;
  notes: string;
}

export function createTable() {
  const rows: Row[] = [];
  const row = (measure: string, figure: string, anchor = '', notes = '') => {
    rows.push({ measure, figure, anchor, notes });
    console.error(`  ${measure}: ${figure}${anchor ? ` | ${anchor}` : ''}${notes ? `  (${notes})` : ''}`);
  };
  return { rows, row };
}

export function formatTable(rows: Row[]): string {
  const widths = [7, 6, 6].map((minimum, index) =>
    Math.max(minimum, ...rows.map((entry) => [entry.measure, entry.figure, entry.anchor][index]!.length)),
  );
  const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  return [
    line(['Measure', 'Figure', 'Anchor, same run', 'Notes']),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|-------|`,
    ...rows.map((entry) => line([entry.measure, entry.figure, entry.anchor, entry.notes])),
  ].join('\n');
}
