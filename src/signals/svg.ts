/**
 * A hiring series as a standalone SVG chart, drawn on the server: bars for jobs opened (up) and closed (down) per
 * period, a line for active jobs at the end of each period. Self-contained (no scripts, fonts or external
 * references), so a README, a slide or a web page can embed it with <img src=…>. Accessible: role="img" with a
 * <title> and a <desc> that states the figures.
 */

export interface ChartPoint {
  period: string;
  opened: number;
  closed: number;
  active: number;
}

export interface ChartInput {
  title: string;
  /** One sentence on what is drawn; the figures are appended to it. */
  description: string;
  points: readonly ChartPoint[];
}

const W = 720;
const H = 320;
/** The chart's size in CSS pixels, for an <img>'s width and height (no layout shift while it loads). */
export const CHART_SIZE = { width: W, height: H } as const;
const PAD = { top: 48, right: 56, bottom: 44, left: 48 };
const COLORS = { opened: '#2f7d32', closed: '#b0b7bf', active: '#1f5fa8', axis: '#5b6470', text: '#1d2329' };

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

/** A round upper bound for an axis: 1, 2 or 5 times a power of ten, at least 1. */
function niceMax(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The figures in words: the chart's <desc>, and an <img>'s alt text. */
export function chartSummary(points: readonly ChartPoint[]): string {
  if (points.length === 0) return 'No data: nothing on record in this range.';
  const opened = points.reduce((a, p) => a + p.opened, 0);
  const closed = points.reduce((a, p) => a + p.closed, 0);
  const first = points[0] as ChartPoint;
  const last = points[points.length - 1] as ChartPoint;
  return (
    `${points.length} periods from ${first.period} to ${last.period}: ${opened} opened, ${closed} closed; ` +
    `active went from ${first.active} to ${last.active}.`
  );
}

/** Axis labels at about six evenly spaced periods. */
function xLabels(points: readonly ChartPoint[], x: (i: number) => number, baseY: number): string {
  const step = Math.max(1, Math.ceil(points.length / 6));
  return points
    .map((p, i) =>
      i % step === 0
        ? `<text x="${fmt(x(i))}" y="${baseY}" text-anchor="middle">${escapeXml(p.period)}</text>`
        : '',
    )
    .join('');
}

export function renderSeriesSvg(input: ChartInput): string {
  const { points } = input;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const flowMax = niceMax(Math.max(0, ...points.flatMap((p) => [p.opened, p.closed])));
  const activeMax = niceMax(Math.max(0, ...points.map((p) => p.active)));
  // Opened above the midline, closed below; active on its own scale over the whole height.
  const mid = PAD.top + plotH / 2;
  const slot = plotW / Math.max(1, points.length);
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const barW = Math.max(1, slot * 0.7);
  const flowY = (v: number) => (v / flowMax) * (plotH / 2);
  const activeY = (v: number) => PAD.top + plotH - (v / activeMax) * plotH;
  const bars = points
    .map((p, i) => {
      const left = fmt(x(i) - barW / 2);
      const up = flowY(p.opened);
      const down = flowY(p.closed);
      return (
        `<rect x="${left}" y="${fmt(mid - up)}" width="${fmt(barW)}" height="${fmt(up)}" fill="${COLORS.opened}"/>` +
        `<rect x="${left}" y="${fmt(mid)}" width="${fmt(barW)}" height="${fmt(down)}" fill="${COLORS.closed}"/>`
      );
    })
    .join('');
  const line = points.map((p, i) => `${fmt(x(i))},${fmt(activeY(p.active))}`).join(' ');
  const desc = `${input.description} ${chartSummary(points)}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="t d">`,
    `<title id="t">${escapeXml(input.title)}</title>`,
    `<desc id="d">${escapeXml(desc)}</desc>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<g font-family="system-ui, sans-serif" font-size="11" fill="${COLORS.text}">`,
    `<text x="${PAD.left}" y="20" font-size="14" font-weight="600">${escapeXml(input.title)}</text>`,
    `<text x="${PAD.left}" y="36" fill="${COLORS.axis}">` +
      `<tspan fill="${COLORS.opened}">■</tspan> opened  <tspan fill="${COLORS.closed}">■</tspan> closed (per period, ` +
      `max ${flowMax})  <tspan fill="${COLORS.active}">━</tspan> active (right axis, max ${activeMax})</text>`,
    `<line x1="${PAD.left}" y1="${fmt(mid)}" x2="${W - PAD.right}" y2="${fmt(mid)}" stroke="${COLORS.axis}"/>`,
    `<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${flowMax}</text>`,
    `<text x="${PAD.left - 6}" y="${PAD.top + plotH}" text-anchor="end">${flowMax}</text>`,
    `<text x="${W - PAD.right + 6}" y="${PAD.top + 4}">${activeMax}</text>`,
    `<text x="${W - PAD.right + 6}" y="${PAD.top + plotH}">0</text>`,
    bars,
    points.length > 0
      ? `<polyline points="${line}" fill="none" stroke="${COLORS.active}" stroke-width="2"/>`
      : `<text x="${W / 2}" y="${fmt(mid - 8)}" text-anchor="middle" fill="${COLORS.axis}">No data in this range</text>`,
    xLabels(points, x, H - PAD.bottom + 18),
    '</g>',
    '</svg>',
  ].join('\n');
}
