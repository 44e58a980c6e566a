/** The few statistics every bench section prints, one definition each. */

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export const p50 = (values: readonly number[]) => percentile(values, 50);
export const p95 = (values: readonly number[]) => percentile(values, 95);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** `1.23×`, or `–` when the ratio means nothing (a zero or missing denominator). */
export function times(numerator: number, denominator: number): string {
  return denominator > 0 && Number.isFinite(numerator) ? `${(numerator / denominator).toFixed(2)}×` : "–";
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "–");

/**
 * Prints rows as aligned columns: text columns (those named in `left`, by default the first) padded right,
 * figures padded left, two spaces between.
 */
export function table(
  log: (line: string) => void,
  header: readonly string[],
  rows: readonly (readonly string[])[],
  left: readonly number[] = [0],
): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (left.includes(i) ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  log(line(header));
  for (const row of rows) log(line(row));
}
