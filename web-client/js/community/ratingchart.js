// The rating chart of a player's page (docs/community.md, "The pages"): where each game's
// rating goes in the SVG. Pure: no DOM, so node can test it.

/** A tidy step for ticks spanning `span` (1, 2 or 5 times a power of ten). */
function niceStep(span, count) {
  const raw = Math.max(span, 1e-9) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

/**
 * `history`: [{at, rating}] oldest first. Answers {w, h, plot, d (the line's path), dots:
 * [{x, y, rating, at}], yTicks: [{y, v}], min, max, first, last} for a `w` x `h` chart.
 */
export function ratingChart(history, { w = 600, h = 200 } = {}) {
  const pts = (history ?? []).filter((p) => Number.isFinite(p?.rating));
  const plot = { x: 40, y: 10, w: Math.max(10, w - 52), h: Math.max(10, h - 30) };
  if (!pts.length) return { w, h, plot, d: '', dots: [], yTicks: [], min: null, max: null, first: null, last: null };
  const values = pts.map((p) => p.rating);
  const min = Math.min(...values, 0);
  const max = Math.max(...values, 0);
  const step = niceStep(max - min || 1, 4);
  const lo = Math.floor(min / step) * step;
  const hi = Math.max(lo + step, Math.ceil(max / step) * step);
  const y = (v) => plot.y + plot.h - ((v - lo) / (hi - lo)) * plot.h;
  const x = (i) => plot.x + (pts.length === 1 ? plot.w / 2 : (i / (pts.length - 1)) * plot.w);
  const dots = pts.map((p, i) => ({ x: x(i), y: y(p.rating), rating: p.rating, at: p.at }));
  const d = dots.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  const yTicks = [];
  for (let v = lo; v <= hi + step / 2; v += step) yTicks.push({ y: y(v), v: Math.round(v * 100) / 100 });
  return { w, h, plot, d, dots, yTicks, min: Math.min(...values), max: Math.max(...values), first: values[0], last: values.at(-1) };
}
