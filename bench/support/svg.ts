/**
 * Small line charts as SVG text, for the figures the bench writes to docs/: one or more panels side by side
 * sharing an x axis, each with its own y axis, series and legend. No chart library: axes, ticks, lines and
 * markers are drawn here, and the output is stable for the same figures (so the files diff cleanly).
 */

export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
  /** Drawn dashed: a baseline rather than a measurement of the tool. */
  dashed?: boolean;
}

export interface Panel {
  title: string;
  yLabel: string;
  series: readonly Series[];
}

export interface Chart {
  title: string;
  /** One line under the title: what was measured, how. */
  subtitle: string;
  xLabel: string;
  /** A logarithmic x axis (for 1 … 1,000). */
  xLog?: boolean;
  panels: readonly Panel[];
}

const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const panelWidth = 330;
const panelHeight = 210;
const margin = { top: 58, left: 56, right: 16, bottom: 74 };

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fixed = (n: number) => Number(n.toFixed(1)).toString();

/** Round tick values covering 0 … max. */
function linearTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

function label(n: number): string {
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(3)));
}

export function chartSvg(chart: Chart): string {
  const width = margin.left + chart.panels.length * (panelWidth + margin.left + margin.right) - margin.left;
  const height = margin.top + panelHeight + margin.bottom;
  const xs = chart.panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x)));
  const xMin = chart.xLog ? Math.min(...xs) : 0;
  const xMax = Math.max(...xs);
  const xTicks = chart.xLog
    ? Array.from(
        { length: Math.floor(Math.log10(xMax)) - Math.floor(Math.log10(xMin)) + 1 },
        (_, i) => 10 ** (Math.floor(Math.log10(xMin)) + i),
      )
    : linearTicks(xMax, 5).filter((t) => t <= xMax * 1.0001);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left}" y="20" font-size="14" font-weight="bold">${escapeXml(chart.title)}</text>`,
    `<text x="${margin.left}" y="37" fill="#555555">${escapeXml(chart.subtitle)}</text>`,
  ];
  chart.panels.forEach((panel, index) => {
    const left = margin.left + index * (panelWidth + margin.left + margin.right);
    const top = margin.top;
    const yMax = Math.max(...panel.series.flatMap((s) => s.points.map(([, y]) => y)));
    const yTicks = linearTicks(yMax * 1.05, 5);
    const yTop = yTicks.at(-1) as number;
    const x = (v: number) =>
      left + (chart.xLog ? (Math.log10(v) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin) || 1) : v / (xMax || 1)) * panelWidth;
    const y = (v: number) => top + panelHeight - (v / (yTop || 1)) * panelHeight;
    out.push(`<g>`, `<text x="${left}" y="${top - 8}" font-weight="bold">${escapeXml(panel.title)}</text>`);
    for (const t of yTicks) {
      out.push(`<line x1="${left}" x2="${left + panelWidth}" y1="${fixed(y(t))}" y2="${fixed(y(t))}" stroke="#e5e5e5"/>`);
      out.push(`<text x="${left - 6}" y="${fixed(y(t) + 4)}" text-anchor="end" fill="#444444">${label(t)}</text>`);
    }
    for (const t of xTicks) {
      out.push(`<line x1="${fixed(x(t))}" x2="${fixed(x(t))}" y1="${top + panelHeight}" y2="${top + panelHeight + 4}" stroke="#444444"/>`);
      out.push(`<text x="${fixed(x(t))}" y="${top + panelHeight + 16}" text-anchor="middle" fill="#444444">${label(t)}</text>`);
    }
    out.push(`<line x1="${left}" x2="${left + panelWidth}" y1="${top + panelHeight}" y2="${top + panelHeight}" stroke="#444444"/>`);
    out.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${top + panelHeight}" stroke="#444444"/>`);
    out.push(`<text x="${left + panelWidth / 2}" y="${top + panelHeight + 32}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`);
    out.push(
      `<text transform="translate(${left - 42} ${top + panelHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(panel.yLabel)}</text>`,
    );
    panel.series.forEach((series, i) => {
      const colour = colours[i % colours.length] as string;
      const path = series.points.map(([px, py], j) => `${j === 0 ? "M" : "L"}${fixed(x(px))},${fixed(y(py))}`).join(" ");
      out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="5 4"' : ""}/>`);
      for (const [px, py] of series.points) out.push(`<circle cx="${fixed(x(px))}" cy="${fixed(y(py))}" r="2.5" fill="${colour}"/>`);
      const legendY = top + panelHeight + 48 + Math.floor(i / 2) * 14;
      const legendX = left + (i % 2) * (panelWidth / 2);
      out.push(
        `<line x1="${legendX}" x2="${legendX + 18}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="5 4"' : ""}/>`,
      );
      out.push(`<text x="${legendX + 24}" y="${legendY}">${escapeXml(series.name)}</text>`);
    });
    out.push(`</g>`);
  });
  out.push(`</svg>`, "");
  return out.join("\n");
}
