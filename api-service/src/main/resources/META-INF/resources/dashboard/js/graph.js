// A workflow run drawn as its graph: nodes in layers by dependency depth, SVG boxes coloured by status.
import { svg } from './dom.js';

const BOX = { width: 150, height: 44 };
const GAP = { x: 24, y: 48 };
const MARGIN = 16;

/** Each node's layer: 0 without dependencies, else one more than its deepest dependency's. */
export function layers(nodes) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const depth = new Map();
  const visit = (id, seen) => {
    if (depth.has(id)) {
      return depth.get(id);
    }
    if (seen.has(id)) {
      return 0; // a cycle cannot be stored; guard anyway
    }
    seen.add(id);
    const deps = (byId.get(id) && byId.get(id).dependsOn) || [];
    const d = deps.length === 0 ? 0 : 1 + Math.max(...deps.map((dep) => visit(dep, seen)));
    depth.set(id, d);
    return d;
  };
  nodes.forEach((n) => visit(n.id, new Set()));
  const result = [];
  nodes.forEach((n) => {
    const d = depth.get(n.id);
    (result[d] = result[d] || []).push(n);
  });
  return result;
}

function colour(status) {
  return `var(--${String(status || 'waiting').toLowerCase()}, var(--pending))`;
}

/** The SVG of a graph: definition nodes [{id, dependsOn}] and the run's statuses by node id. */
export function drawGraph(definition, statuses, title) {
  const rows = layers(definition);
  const widest = Math.max(1, ...rows.map((row) => row.length));
  const width = MARGIN * 2 + widest * BOX.width + (widest - 1) * GAP.x;
  const height = MARGIN * 2 + rows.length * BOX.height + Math.max(rows.length - 1, 0) * GAP.y;
  // never drawn larger than its natural size: a small graph stays small, a wide one shrinks to the page
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': title,
    'data-testid': 'run-graph', style: `max-width: ${width}px` });
  root.append(svg('title', {}, title));
  root.append(svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#8a94a6' }))));
  const position = new Map();
  rows.forEach((row, r) => {
    const rowWidth = row.length * BOX.width + (row.length - 1) * GAP.x;
    const left = (width - rowWidth) / 2;
    row.forEach((node, i) => position.set(node.id, { x: left + i * (BOX.width + GAP.x), y: MARGIN + r * (BOX.height
      + GAP.y) }));
  });
  const edges = svg('g', { class: 'edges' });
  for (const node of definition) {
    const to = position.get(node.id);
    for (const dep of node.dependsOn || []) {
      const from = position.get(dep);
      if (!from) {
        continue;
      }
      const x1 = from.x + BOX.width / 2;
      const y1 = from.y + BOX.height;
      const x2 = to.x + BOX.width / 2;
      const y2 = to.y;
      const mid = (y1 + y2) / 2;
      edges.append(svg('path', { d: `M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2 - 2}`,
        'marker-end': 'url(#arrow)', 'data-from': dep, 'data-to': node.id }));
    }
  }
  root.append(edges);
  for (const node of definition) {
    const at = position.get(node.id);
    const state = statuses.get(node.id) || 'WAITING';
    const label = node.id.length > 18 ? `${node.id.slice(0, 17)}…` : node.id;
    const text = svg('text', { x: at.x + BOX.width / 2, y: at.y + 18, 'text-anchor': 'middle' });
    text.textContent = label;
    const sub = svg('text', { x: at.x + BOX.width / 2, y: at.y + 35, 'text-anchor': 'middle', 'font-size': 10 });
    sub.textContent = state;
    root.append(svg('g', { class: `node ${state}`, 'data-testid': 'graph-node', 'data-node-id': node.id,
      'data-status': state }, svg('title', {}, `${node.id}: ${state}`),
    svg('rect', { x: at.x, y: at.y, width: BOX.width, height: BOX.height, rx: 6, fill: colour(state) }), text, sub));
  }
  return root;
}
