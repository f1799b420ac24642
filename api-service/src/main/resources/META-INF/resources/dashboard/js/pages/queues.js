// Queues: each queue's waiting and running jobs, its oldest waiting job's age and the live workers that serve it; a
// queue whose jobs wait with no worker to serve it is marked, since they wait until one starts.
import { api, query } from '../api.js';
import { h, table, tenantForm, time } from '../dom.js';

/** A wait in words: "45 s", "12 min 5 s", "3 h 20 min", "2 d 4 h"; a dash when nothing waits. */
function age(ms) {
  if (!ms || ms < 1000) {
    return ms > 0 ? '< 1 s' : '—';
  }
  const s = Math.floor(ms / 1000);
  const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]];
  const parts = [];
  let rest = s;
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || parts.length > 0) {
      parts.push(`${n} ${unit}`);
    }
    if (parts.length === 2) {
      break;
    }
  }
  return parts.filter((p) => !p.startsWith('0 ')).join(' ');
}

/** The live workers of a queue, one a line; "no worker" marked when jobs wait for one. */
function workers(q) {
  if (q.workers.length === 0) {
    return q.pending > 0
      ? h('span', { className: 'status NO-WORKER', dataset: { testid: 'queue-no-worker' },
        title: 'its jobs wait until a worker serving this queue starts' }, 'no worker')
      : h('span', { className: 'notice' }, 'none');
  }
  return h('ul', { className: 'workers' }, q.workers.map((w) => h('li', { dataset: { testid: 'queue-worker',
    workerId: w.id } },
  h('span', { className: 'mono' }, w.id), ' ',
  h('span', { dataset: { testid: 'queue-worker-types' } }, w.types.join(', ')),
  h('span', { className: 'notice' }, ` · ${w.capacity} at once · seen `, time(w.lastSeenAt)))));
}

export default {
  async mount(main, { params }, ctx) {
    const form = tenantForm(params, 'queues-tenant', (tenant) => ctx.navigate(`#/queues${query({ tenant })}`));
    const results = h('div', { dataset: { testid: 'queues-results' } });
    main.append(h('h1', {}, 'Queues'), form, results);

    return {
      async refresh() {
        const list = await api(`/api/queues${query({ tenant: params.get('tenant') })}`);
        if (!ctx.isCurrent()) {
          return;
        }
        const queues = list.queues || [];
        results.replaceChildren(table([
          { label: 'Queue', className: 'id', cell: (q) => h('span', { dataset: { testid: 'queue-name' } }, q.name) },
          { label: 'Pending', cell: (q) => h('span', { dataset: { testid: 'queue-pending' } }, q.pending) },
          { label: 'Running', cell: (q) => h('span', { dataset: { testid: 'queue-running' } }, q.running) },
          { label: 'Oldest pending', cell: (q) => h('span', { dataset: { testid: 'queue-age' },
            title: `${q.oldestPendingAgeMs} ms` }, age(q.oldestPendingAgeMs)) },
          { label: 'Live workers', cell: workers },
        ], queues, { testid: 'queues-table', rowTestid: (q) => (q.pending > 0 && q.workers.length === 0
          ? { testid: 'queue-row', queue: q.name, noWorker: 'true' } : { testid: 'queue-row', queue: q.name }) }));
      },
    };
  },
};
