// Small helpers to build the pages' DOM without a framework; text always goes in as text, never as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element: svg('rect', {x: 0, width: 10}, child...); each attribute set as given. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, value);
  }
  children.forEach((child) => element.append(child));
  return element;
}

/** An element: h('button', {type: 'button', onclick: f, dataset: {testid: 'x'}}, 'text', child...). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else if (name.startsWith('on')) {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'className') {
      element.className = value;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, value);
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(element, child);
    } else {
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
}

/** A status pill. */
export function status(value, testid) {
  return h('span', { className: `status ${value}`, dataset: testid ? { testid } : undefined }, value);
}

/** An instant as the reader's local time, with the ISO text as its title. */
export function time(iso) {
  if (!iso) {
    return '—';
  }
  const date = new Date(iso);
  return h('time', { datetime: iso, title: iso }, date.toLocaleString());
}

/** A labelled input inside a .field. */
export function field(label, input) {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return h('div', { className: 'field' }, h('label', { for: id }, label), input);
}

/** A search form whose only filter is the tenant (test id testid): submitting it calls go with the tenant entered. */
export function tenantForm(params, testid, go) {
  const tenant = h('input', { name: 'tenant', value: params.get('tenant') || '', dataset: { testid } });
  return h('form', { className: 'filters', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    go(tenant.value);
  } }, field('Tenant', tenant), h('button', { type: 'submit' }, 'Show'));
}

/** A table that turns into stacked rows on a phone: columns [{label, cell(row)}]. */
export function table(columns, rows, { testid, rowTestid } = {}) {
  return h('div', { className: 'table-wrap' },
    h('table', { className: 'stack', dataset: testid ? { testid } : undefined },
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)))),
      h('tbody', {}, rows.map((row) => h('tr', { dataset: rowTestid ? rowTestid(row) : undefined },
        columns.map((c) => h('td', { 'data-label': c.label, className: c.className }, c.cell(row))))))));
}

/** Pretty JSON, or a dash. */
export function json(value) {
  return value === undefined || value === null ? h('span', { className: 'notice' }, '—')
    : h('pre', {}, JSON.stringify(value, null, 2));
}
