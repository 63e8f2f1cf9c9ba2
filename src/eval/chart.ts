import { perResolved, type WayTotals } from './results';

/**
 * Resolve rate against cost, one point per way, as a small SVG of our own: the axes from zero to
 * a round number above the largest cost, each point labelled with its figures.
 */
const W = 560;
const H = 360;
const M = { left: 64, right: 24, top: 24, bottom: 56 };
const COLOURS: Record<string, string> = { crew: '#1f6feb', single: '#d1242f' };
/** crew-best-of-N: purple, whatever N. */
const colourOf = (way: string) => COLOURS[way] ?? (way.startsWith('crew-best-of-') ? '#8250df' : '#555');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round upper bound for the cost axis: 1, 2 or 5 times a power of ten. */
export function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function chartSvg(ways: WayTotals[]): string {
  const maxCost = niceMax(Math.max(0, ...ways.map((w) => w.cost_usd)));
  const x = (c: number) => M.left + (c / maxCost) * (W - M.left - M.right);
  const y = (r: number) => H - M.bottom - r * (H - M.top - M.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>Resolve rate against cost, per way</title>`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<line x1="${M.left}" y1="${y(0)}" x2="${W - M.right}" y2="${y(0)}" stroke="#333"/>`,
    `<line x1="${M.left}" y1="${y(0)}" x2="${M.left}" y2="${y(1)}" stroke="#333"/>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<text x="${M.left - 8}" y="${y(t) + 4}" text-anchor="end">${t * 100}%</text>`,
      `<line x1="${M.left}" y1="${y(t)}" x2="${W - M.right}" y2="${y(t)}" stroke="#eee"/>`,
    );
  for (const t of [0, 0.5, 1])
    parts.push(`<text x="${x(t * maxCost)}" y="${y(0) + 18}" text-anchor="middle">$${(t * maxCost).toFixed(maxCost < 1 ? 4 : 2)}</text>`);
  parts.push(
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">cost (USD, all instances)</text>`,
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">resolve rate</text>`,
  );
  for (const w of ways) {
    const cx = x(w.cost_usd);
    const cy = y(w.resolve_rate);
    const colour = colourOf(w.way);
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="6" fill="${colour}" data-way="${esc(w.way)}" data-cost-usd="${w.cost_usd}" data-resolve-rate="${w.resolve_rate}" data-tokens="${w.tokens}" data-cost-per-resolved-usd="${w.cost_per_resolved_usd ?? ''}"/>`,
      `<text x="${(cx + 10).toFixed(1)}" y="${(cy - 8).toFixed(1)}" fill="${colour}">${esc(w.way)}: ${w.resolved}/${w.resolved + w.unresolved} resolved, $${w.cost_usd.toFixed(4)}, ${w.cost_per_resolved_usd === null ? 'none resolved' : `$${perResolved(w)} per resolved`}, ${w.tokens} tokens</text>`,
    );
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
