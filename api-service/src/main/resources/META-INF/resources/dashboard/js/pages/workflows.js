// Workflows: pick one, list its runs, and draw a run as its graph, live.
import { api, query } from '../api.js';
import { drawGraph } from '../graph.js';
import { h, status, table, tenantForm, time } from '../dom.js';

const definitions = new Map();

/** The workflow's definition at a version, fetched once (a version never changes). */
async function definition(workflowId, version) {
  const key = `${workflowId}@${version}`;
  if (!definitions.has(key)) {
    definitions.set(key, await api(`/api/workflows/${workflowId}${query({ version })}`));
  }
  return definitions.get(key);
}

function list(main, params, ctx) {
  const form = tenantForm(params, 'workflows-tenant', (tenant) => ctx.navigate(`#/workflows${query({ tenant })}`));
  const results = h('div', { dataset: { testid: 'workflows-results' } });
  main.append(h('h1', {}, 'Workflows'), form, results);
  return {
    async refresh() {
      const page = await api(`/api/workflows${query({ tenant: params.get('tenant'), size: 100 })}`);
      if (!ctx.isCurrent()) {
        return;
      }
      results.replaceChildren(page.workflows.length === 0 ? h('p', { className: 'notice' }, 'No workflow.')
        : table([
          { label: 'Name', cell: (w) => h('a', { href: `#/workflows/${w.id}`, dataset: { testid: 'workflow-link' } },
            w.name) },
          { label: 'Version', cell: (w) => w.version },
          { label: 'Nodes', cell: (w) => (w.nodes || []).length },
          { label: 'Tenant', cell: (w) => w.tenant },
          { label: 'On failure', cell: (w) => w.onFailure },
          { label: 'Updated', cell: (w) => time(w.updatedAt) },
        ], page.workflows, { testid: 'workflows-table', rowTestid: (w) => ({ testid: 'workflow-row', workflowId: w.id }) }));
    },
  };
}

function runs(main, workflowId, params, ctx) {
  const heading = h('h1', {}, 'Workflow');
  const results = h('div', { dataset: { testid: 'runs-results' } });
  const page = Number(params.get('page') || 0);
  main.append(h('p', {}, h('a', { href: '#/workflows' }, '← all workflows')), heading, results);
  return {
    async refresh() {
      const [workflow, list] = await Promise.all([api(`/api/workflows/${workflowId}`),
        api(`/api/workflows/${workflowId}/runs${query({ page, size: 20 })}`)]);
      if (!ctx.isCurrent()) {
        return;
      }
      heading.textContent = `Workflow ${workflow.name} (version ${workflow.version})`;
      results.replaceChildren(h('h2', {}, 'Runs'), list.runs.length === 0 ? h('p', { className: 'notice' }, 'No run yet.')
        : table([
          { label: 'Run', className: 'id', cell: (r) => h('a', { href: `#/workflow-runs/${r.runId}`,
            dataset: { testid: 'run-link' } }, r.runId) },
          { label: 'Status', cell: (r) => status(r.status) },
          { label: 'Version', cell: (r) => r.version },
          { label: 'Started', cell: (r) => time(r.createdAt) },
          { label: 'Finished', cell: (r) => time(r.finishedAt) },
        ], list.runs, { testid: 'runs-table', rowTestid: (r) => ({ testid: 'run-row', runId: r.runId }) }),
      h('div', { className: 'pager' }, h('span', { className: 'notice' }, `${list.totalElements} ${list.totalElements === 1 ? 'run' : 'runs'}`),
        page > 0 && h('a', { href: `#/workflows/${workflowId}${query({ page: page - 1 })}` }, 'newer'),
        page + 1 < list.totalPages && h('a', { href: `#/workflows/${workflowId}${query({ page: page + 1 })}` },
          'older')));
    },
  };
}

function run(main, runId, ctx) {
  const back = h('p', {});
  const heading = h('h1', {}, 'Run ', h('span', { className: 'mono' }, runId));
  const summary = h('div', { dataset: { testid: 'run-summary' } });
  const graph = h('div', { className: 'panel graph', dataset: { testid: 'run-graph-panel' } });
  const nodes = h('div', { dataset: { testid: 'run-nodes' } });
  main.append(back, heading, summary, graph, h('h2', {}, 'Nodes'), nodes);
  return {
    async refresh() {
      const current = await api(`/api/workflow-runs/${runId}`);
      const workflow = await definition(current.workflowId, current.version);
      if (!ctx.isCurrent()) {
        return;
      }
      back.replaceChildren(h('a', { href: `#/workflows/${current.workflowId}` }, `← runs of ${workflow.name}`));
      summary.replaceChildren(h('dl', { className: 'detail' },
        h('dt', {}, 'Status'), h('dd', {}, status(current.status, 'run-status')),
        h('dt', {}, 'Workflow'), h('dd', {}, `${workflow.name}, version ${current.version}`),
        h('dt', {}, 'Started'), h('dd', {}, time(current.createdAt)),
        h('dt', {}, 'Finished'), h('dd', {}, time(current.finishedAt))));
      const statuses = new Map((current.nodes || []).map((n) => [n.id, n.status]));
      graph.replaceChildren(drawGraph(workflow.nodes || [], statuses, `graph of run ${runId}`));
      nodes.replaceChildren(table([
        { label: 'Node', cell: (n) => n.id },
        { label: 'Status', cell: (n) => status(n.status) },
        { label: 'Job', className: 'id', cell: (n) => n.jobId ? h('a', { href: `#/jobs/${n.jobId}` }, n.jobId) : '—' },
      ], current.nodes || [], { testid: 'run-nodes-table', rowTestid: (n) => ({ testid: 'run-node-row', nodeId: n.id,
        status: n.status }) }));
    },
  };
}

export default {
  async mount(main, { name, args, params }, ctx) {
    if (name === 'workflow-runs' && args.length > 0) {
      return run(main, args[0], ctx);
    }
    return args.length > 0 ? runs(main, args[0], params, ctx) : list(main, params, ctx);
  },
};
