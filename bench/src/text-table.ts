/** A plain-text table for the reports: first column left-aligned, the figures right-aligned, two spaces between. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** A ratio as `1.48×`; `-` when either side was missing. */
export const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '-');
