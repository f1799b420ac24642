// Jobs: search by status, type, tenant, labels and id; a job's detail with its attempts and a link to its trace.
import { api, query } from '../api.js';
import { field, h, json, status, table, time } from '../dom.js';

const STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'REJECTED'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function select(name, values, chosen, testid) {
  return h('select', { name, dataset: { testid } }, h('option', { value: '' }, 'any'),
    values.map((v) => h('option', { value: v, selected: v === chosen }, v)));
}

function search(main, params, ctx) {
  const id = h('input', { name: 'id', value: params.get('id') || '', placeholder: 'job id',
    dataset: { testid: 'jobs-id' } });
  const statusFilter = select('status', STATUSES, params.get('status'), 'jobs-status');
  // any handler's name is a type: typed in, the built-in ones offered
  const type = h('input', { name: 'type', value: params.get('type') || '', placeholder: 'SIMULATION, HTTP, ...',
    dataset: { testid: 'jobs-type' } });
  const tenant = h('input', { name: 'tenant', value: params.get('tenant') || '', dataset: { testid: 'jobs-tenant' } });
  const label = h('input', { name: 'label', value: params.getAll('label').join(', '), placeholder: 'key:value',
    dataset: { testid: 'jobs-label' } });
  const page = Number(params.get('page') || 0);
  const filters = () => ({ status: statusFilter.value, type: type.value, tenant: tenant.value,
    label: label.value.split(',').map((l) => l.trim()).filter(Boolean) });
  const form = h('form', { className: 'filters', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    const wanted = id.value.trim();
    if (wanted) {
      if (!UUID.test(wanted)) {
        ctx.error(`a job id is a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6, got '${wanted}'`);
        return;
      }
      ctx.navigate(`#/jobs/${wanted}`);
    } else {
      ctx.navigate(`#/jobs${query(filters())}`);
    }
  } }, field('Job id', id), field('Status', statusFilter), field('Type', type), field('Tenant', tenant),
  field('Label (key:value)', label), h('button', { type: 'submit', dataset: { testid: 'jobs-search' } }, 'Search'));
  const results = h('div', { dataset: { testid: 'jobs-results' } });
  main.append(h('h1', {}, 'Jobs'), form, results);
  const current = { status: params.get('status'), type: params.get('type'), tenant: params.get('tenant'),
    label: params.getAll('label') };
  return {
    async refresh() {
      const list = await api(`/api/jobs${query({ ...current, page, size: 20 })}`);
      if (!ctx.isCurrent()) {
        return;
      }
      const pager = h('div', { className: 'pager' },
        h('span', { className: 'notice', dataset: { testid: 'jobs-total' } },
          `${list.totalElements} ${list.totalElements === 1 ? 'job' : 'jobs'}, page ${list.page + 1} of ${Math.max(list.totalPages, 1)}`),
        page > 0 && h('a', { href: `#/jobs${query({ ...current, page: page - 1 })}` }, 'newer'),
        page + 1 < list.totalPages && h('a', { href: `#/jobs${query({ ...current, page: page + 1 })}` }, 'older'));
      results.replaceChildren(list.jobs.length === 0 ? h('p', { className: 'notice' }, 'No job matches.')
        : table([
          { label: 'Job', className: 'id', cell: (j) => h('a', { href: `#/jobs/${j.id}`, dataset: { testid: 'job-link' } },
            j.id) },
          { label: 'Status', cell: (j) => status(j.status) },
          { label: 'Type', cell: (j) => j.type },
          { label: 'Tenant', cell: (j) => j.tenant },
          { label: 'Labels', cell: (j) => Object.entries(j.labels || {}).map(([k, v]) => `${k}:${v}`).join(', ') },
          { label: 'Attempts', cell: (j) => j.attempts },
          { label: 'Created', cell: (j) => time(j.createdAt) },
        ], list.jobs, { testid: 'jobs-table', rowTestid: (j) => ({ testid: 'job-row', jobId: j.id }) }), pager);
    },
  };
}

function traceLink(template, traceId) {
  if (!traceId) {
    return '—';
  }
  const href = template.replace('{traceId}', encodeURIComponent(traceId));
  return h('a', { href, target: '_blank', rel: 'noopener', dataset: { testid: 'job-trace' } }, traceId);
}

function detail(main, id, ctx) {
  const body = h('div', { dataset: { testid: 'job-detail' } });
  const attempts = h('section', { className: 'panel', hidden: true, dataset: { testid: 'job-attempts' } });
  main.append(h('p', {}, h('a', { href: '#/jobs' }, '← all jobs')), h('h1', {}, 'Job ', h('span', { className: 'mono' },
    id)), body, attempts);
  return {
    async refresh() {
      const [job, tries] = await Promise.all([api(`/api/jobs/${encodeURIComponent(id)}`),
        // another endpoint that may not exist on every version of the API: absent, the table stays hidden
        api(`/api/jobs/${encodeURIComponent(id)}/attempts`, { allow404: true }).catch(() => null)]);
      if (!ctx.isCurrent()) {
        return;
      }
      const rows = [
        ['Status', status(job.status, 'job-status')],
        ['Type', job.type],
        ['Tenant', job.tenant],
        ['Priority', job.priority],
        ['Labels', Object.entries(job.labels || {}).map(([k, v]) => `${k}:${v}`).join(', ') || '—'],
        ['Attempts', h('span', { dataset: { testid: 'job-attempt-count' } }, `${job.attempts} (retries ${job.retryCount}`
          + ` of ${job.maxRetries})`)],
        ['Created', time(job.createdAt)],
        ['Started', time(job.startedAt)],
        ['Finished', time(job.finishedAt)],
        ['Next run', time(job.nextRunAt)],
        ['Trace', traceLink(ctx.settings.traceUrl, job.traceId)],
        job.scheduleId && ['Schedule', h('a', { href: '#/schedules' }, job.scheduleId)],
        job.workflowRunId && ['Workflow run', h('a', { href: `#/workflow-runs/${job.workflowRunId}` },
          `${job.workflowRunId} (node ${job.nodeId})`)],
        ['Last error', h('span', { dataset: { testid: 'job-last-error' } }, job.lastError || '—')],
      ].filter(Boolean);
      body.replaceChildren(h('dl', { className: 'detail' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
        h('h2', {}, 'Result'), h('div', { dataset: { testid: 'job-result' } }, json(job.result)),
        h('h2', {}, 'Payload'), h('div', { dataset: { testid: 'job-payload' } }, json(job.payload)));
      const list = Array.isArray(tries) ? tries : tries && Array.isArray(tries.attempts) ? tries.attempts : null;
      attempts.hidden = !list;
      if (list) {
        attempts.replaceChildren(h('h2', {}, 'Attempts'), table([
          { label: 'Attempt', cell: (a) => a.attempt },
          { label: 'Started', cell: (a) => time(a.startedAt) },
          { label: 'Finished', cell: (a) => time(a.finishedAt) },
          { label: 'Outcome', cell: (a) => a.outcome || '—' },
          { label: 'Error', cell: (a) => a.error || '—' },
        ], list));
      }
    },
  };
}

export default {
  async mount(main, { args, params }, ctx) {
    return args.length > 0 ? detail(main, args[0], ctx) : search(main, params, ctx);
  },
};
