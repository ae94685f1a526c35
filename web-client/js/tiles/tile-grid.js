// Pure: regions of a tile on a grid, to place meeples where a field or a city really is
// (geometry.js's tileShapes): the distance to the nearest edge, flood fills, the point
// farthest from the edges. Coordinates in tile units, the tile 100 x 100 (geometry.js TILE).

const GRID = 2; // grid step in tile units
const N = 100 / GRID; // cells per row
export const GRID_CELLS = N;

export function gridPoint(i, j) {
  return [i * GRID + GRID / 2, j * GRID + GRID / 2];
}

function gridIndexOf([x, y]) {
  const i = Math.min(N - 1, Math.max(0, Math.floor(x / GRID)));
  const j = Math.min(N - 1, Math.max(0, Math.floor(y / GRID)));
  return j * N + i;
}

// Chamfer distance (in tile units) from every free cell to the nearest blocked cell or
// the tile border.
export function distanceTransform(free) {
  const d = new Float64Array(N * N);
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const k = j * N + i;
      d[k] = free[k] ? Math.min(i + 1, j + 1, N - i, N - j) * GRID : 0;
    }
  }
  const a = GRID;
  const b = GRID * Math.SQRT2;
  const at = (i, j) => (i < 0 || j < 0 || i >= N || j >= N ? 0 : d[j * N + i]);
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const k = j * N + i;
      if (!d[k]) continue;
      d[k] = Math.min(d[k], at(i - 1, j) + a, at(i, j - 1) + a, at(i - 1, j - 1) + b, at(i + 1, j - 1) + b);
    }
  }
  for (let j = N - 1; j >= 0; j--) {
    for (let i = N - 1; i >= 0; i--) {
      const k = j * N + i;
      if (!d[k]) continue;
      d[k] = Math.min(d[k], at(i + 1, j) + a, at(i, j + 1) + a, at(i + 1, j + 1) + b, at(i - 1, j + 1) + b);
    }
  }
  return d;
}

export function floodFill(free, seeds) {
  const region = new Uint8Array(N * N);
  const stack = [];
  for (const s of seeds) {
    const k = gridIndexOf(s);
    if (free[k] && !region[k]) {
      region[k] = 1;
      stack.push(k);
    }
  }
  while (stack.length) {
    const k = stack.pop();
    const i = k % N;
    const j = (k - i) / N;
    for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const ni = i + di;
      const nj = j + dj;
      if (ni < 0 || nj < 0 || ni >= N || nj >= N) continue;
      const nk = nj * N + ni;
      if (free[nk] && !region[nk]) {
        region[nk] = 1;
        stack.push(nk);
      }
    }
  }
  return region;
}

// The cell of `region` farthest from its edges; ties go to the one nearest `prefer`.
export function bestPoint(region, dist, prefer, avoid = []) {
  let best = null;
  let bestScore = -Infinity;
  for (let k = 0; k < N * N; k++) {
    if (!region[k]) continue;
    const i = k % N;
    const p = gridPoint(i, (k - i) / N);
    let clearance = Math.min(dist[k], 16); // beyond a meeple's size, more room does not matter
    for (const q of avoid) clearance = Math.min(clearance, Math.hypot(p[0] - q[0], p[1] - q[1]) / 1.5);
    const score = clearance * 10 - Math.hypot(p[0] - prefer[0], p[1] - prefer[1]) * 0.05;
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

export function nearestFree(free, p) {
  let best = null;
  for (let k = 0, d = Infinity; k < N * N; k++) {
    const q = gridPoint(k % N, Math.floor(k / N));
    const dk = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (free[k] && dk < d) [best, d] = [q, dk];
  }
  return best;
}

export function centroid(points) {
  const n = points.length || 1;
  return [points.reduce((a, p) => a + p[0], 0) / n, points.reduce((a, p) => a + p[1], 0) / n];
}
