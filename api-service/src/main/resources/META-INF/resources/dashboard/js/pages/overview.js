// Overview: jobs per status now, and the last minutes' throughput and queue depth.
import { api, query } from '../api.js';
import { barChart, legend, lineChart } from '../charts.js';
import { field, h } from '../dom.js';

const STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'];
const THROUGHPUT = [
  { key: 'completed', label: 'completed per minute', color: 'var(--completed)' },
  { key: 'failed', label: 'failed per minute', color: 'var(--failed)' },
];
const DEPTH = [
  { key: 'pending', label: 'pending', color: 'var(--pending)' },
  { key: 'running', label: 'running', color: 'var(--running)' },
];

export default {
  async mount(main, { params }, ctx) {
    const tenant = h('input', { name: 'tenant', value: params.get('tenant') || '', placeholder: 'every tenant',
      dataset: { testid: 'overview-tenant' } });
    const minutes = h('select', { name: 'minutes', dataset: { testid: 'overview-minutes' } },
      [15, 60, 180, 1440].map((m) => h('option', { value: m, selected: String(m) === (params.get('minutes') || '60') },
        m === 1440 ? 'last day' : m < 60 ? `last ${m} minutes` : m === 60 ? 'last hour' : `last ${m / 60} hours`)));
    const form = h('form', { className: 'filters', onsubmit: (event) => {
      event.preventDefault();
      ctx.navigate(`#/overview${query({ tenant: tenant.value, minutes: minutes.value })}`);
    } }, field('Tenant', tenant), field('Window', minutes),
    h('button', { type: 'submit', dataset: { testid: 'overview-apply' } }, 'Show'));
    const cards = h('div', { className: 'cards', dataset: { testid: 'overview-counts' } });
    const throughput = h('div', { className: 'card chart', dataset: { testid: 'chart-throughput' } });
    const depth = h('div', { className: 'card chart', dataset: { testid: 'chart-depth' } });
    const updated = h('p', { className: 'notice', dataset: { testid: 'overview-updated' } });
    main.append(h('h1', {}, 'Overview'), form, cards, h('div', { className: 'charts' }, throughput, depth), updated);

    // A long window costs the database more (the series read every job in it), so it is read again less often.
    const window = Number(params.get('minutes') || 60);
    const every = window > 60 ? Math.max(ctx.settings.pollIntervalMs, 60000) : ctx.settings.pollIntervalMs;
    let last = 0;
    return {
      async refresh() {
        if (Date.now() - last < every - 100) {
          return;
        }
        last = Date.now();
        const overview = await api(`/api/stats/overview${query({ minutes: params.get('minutes') || '60',
          tenant: params.get('tenant') })}`);
        if (!ctx.isCurrent()) {
          return;
        }
        cards.replaceChildren(...STATUSES.map((status) => {
          const estimated = (overview.estimated || []).includes(status);
          return h('div', { className: 'card', dataset: { testid: `count-${status}` } },
            h('div', { className: 'label' }, h('span', { className: `status ${status}` }, status)),
            h('a', { className: 'value', href: `#/jobs${query({ status, tenant: overview.tenant })}`,
              dataset: { testid: `count-${status}-value` }, title: estimated ? 'estimated from the table statistics'
                : 'exact' }, `${estimated ? '≈' : ''}${overview.counts[status].toLocaleString()}`));
        }));
        const series = overview.series;
        throughput.replaceChildren(h('h2', {}, 'Throughput'), barChart(series, THROUGHPUT,
          'jobs completed and failed per minute'), legend(THROUGHPUT));
        depth.replaceChildren(h('h2', {}, 'Queue depth'), lineChart(series, DEPTH,
          'jobs pending and running at the end of each minute'), legend(DEPTH));
        updated.textContent = `${overview.tenant ? `Tenant ${overview.tenant}. ` : ''}Updated `
          + `${new Date(overview.at).toLocaleTimeString()}.`;
      },
    };
  },
};
