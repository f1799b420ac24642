// Inline SVG charts drawn by hand: a line chart and a bar chart over a series of minutes.
import { svg } from './dom.js';

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { left: 40, right: 10, top: 10, bottom: 24 };

/** The top of the axis: four steps of 1, 2 or 5 times a power of ten, whole numbers. */
function niceMax(value) {
  const rough = Math.max(value, 1) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rough);
  return Math.max(Math.ceil(step), 1) * 4;
}

function frame(points, max, title) {
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': title });
  root.append(svg('title', {}, title));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  for (let i = 0; i <= 4; i++) {
    const y = PAD.top + plotHeight - (plotHeight * i) / 4;
    root.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y, stroke: '#e3e6ec' }));
    const label = svg('text', { x: PAD.left - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#5b6578' });
    label.textContent = ((max * i) / 4).toLocaleString();
    root.append(label);
  }
  if (points.length > 0) {
    const ticks = [0, Math.floor((points.length - 1) / 2), points.length - 1];
    for (const i of new Set(ticks)) {
      const text = svg('text', { x: xOf(i, points.length), y: HEIGHT - 6, 'font-size': 11, fill: '#5b6578',
        'text-anchor': i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle' });
      text.textContent = new Date(points[i].minute).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      root.append(text);
    }
  }
  return root;
}

function xOf(i, n) {
  const plotWidth = WIDTH - PAD.left - PAD.right;
  return PAD.left + (n <= 1 ? plotWidth / 2 : (plotWidth * i) / (n - 1));
}

function yOf(value, max) {
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  return PAD.top + plotHeight - (plotHeight * value) / max;
}

/** Lines of series [{key, color, label}] over points (objects with minute and the keys). */
export function lineChart(points, series, title) {
  const max = niceMax(Math.max(0, ...points.flatMap((p) => series.map((s) => p[s.key]))));
  const root = frame(points, max, title);
  for (const s of series) {
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${xOf(i, points.length).toFixed(1)},${yOf(p[s.key], max)
      .toFixed(1)}`).join(' ');
    root.append(svg('path', { d, fill: 'none', stroke: s.color, 'stroke-width': 2, 'data-series': s.key }));
  }
  return root;
}

/** Stacked bars of series [{key, color, label}] over points. */
export function barChart(points, series, title) {
  const max = niceMax(Math.max(0, ...points.map((p) => series.reduce((sum, s) => sum + p[s.key], 0))));
  const root = frame(points, max, title);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const band = plotWidth / Math.max(points.length, 1);
  points.forEach((p, i) => {
    let base = 0;
    for (const s of series) {
      const value = p[s.key];
      if (value > 0) {
        const top = yOf(base + value, max);
        const bottom = yOf(base, max);
        root.append(svg('rect', { x: (PAD.left + band * i + band * 0.1).toFixed(1), y: top.toFixed(1),
          width: Math.max(band * 0.8, 1).toFixed(1), height: Math.max(bottom - top, 0.5).toFixed(1), fill: s.color,
          'data-series': s.key }, svg('title', {}, `${s.label}: ${value}`)));
        base += value;
      }
    }
  });
  return root;
}

/** A legend for series. */
export function legend(series) {
  const element = document.createElement('div');
  element.className = 'legend';
  for (const s of series) {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = s.color;
    item.append(swatch, s.label);
    element.append(item);
  }
  return element;
}
