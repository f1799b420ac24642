// Dead letters: jobs that spent their retries, with requeue (optionally a new payload and retry count) and discard.
import { api, query } from '../api.js';
import { field, h, status, table, time } from '../dom.js';

const STATES = ['OPEN', 'REQUEUED', 'DISCARDED'];

export default {
  async mount(main, { params }, ctx) {
    const tenant = h('input', { name: 'tenant', value: params.get('tenant') || '', dataset: { testid: 'dl-tenant' } });
    const jobType = h('input', { name: 'jobType', value: params.get('jobType') || '', placeholder: 'SIMULATION, HTTP, ...',
      dataset: { testid: 'dl-job-type' } });
    const state = h('select', { name: 'state', dataset: { testid: 'dl-state' } },
      STATES.map((s) => h('option', { value: s, selected: s === (params.get('state') || 'OPEN') }, s)));
    const form = h('form', { className: 'filters', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      ctx.navigate(`#/dead-letters${query({ tenant: tenant.value, jobType: jobType.value, state: state.value })}`);
    } }, field('Tenant', tenant), field('Job type', jobType), field('State', state),
    h('button', { type: 'submit', dataset: { testid: 'dl-search' } }, 'Show'));
    const panel = h('section', { className: 'panel', hidden: true, dataset: { testid: 'dl-panel' } });
    const notice = h('p', { className: 'notice', role: 'status', dataset: { testid: 'dl-notice' } });
    const results = h('div', { dataset: { testid: 'dl-results' } });
    main.append(h('h1', {}, 'Dead letters'), form, notice, panel, results);
    const filter = { tenant: params.get('tenant'), jobType: params.get('jobType'), state: params.get('state') || 'OPEN' };
    let view;

    const close = () => {
      panel.hidden = true;
      panel.replaceChildren();
    };

    const act = async (path, body, done) => {
      ctx.clearError();
      try {
        await api(path, { method: 'POST', body });
        close();
        notice.textContent = done;
        await view.refresh();
      } catch (e) {
        ctx.error(e);
      }
    };

    const openRequeue = async (letter) => {
      let original = '';
      try {
        const job = await api(`/api/jobs/${letter.jobId}`);
        original = JSON.stringify(job.payload, null, 2);
      } catch {
        original = '';
      }
      const payload = h('textarea', { name: 'payload', rows: 8, dataset: { testid: 'dl-requeue-payload' } });
      payload.value = original;
      const retries = h('input', { name: 'maxRetryCount', type: 'number', min: 0, max: 10, placeholder: 'as before',
        dataset: { testid: 'dl-requeue-retries' } });
      const submit = h('form', { onsubmit: (event) => {
        event.preventDefault();
        const body = {};
        if (payload.value.trim() && payload.value !== original) {
          try {
            body.payload = JSON.parse(payload.value);
          } catch (e) {
            ctx.error(`the payload is not JSON: ${e.message}`);
            return;
          }
        }
        if (retries.value !== '') {
          body.maxRetryCount = Number(retries.value);
        }
        act(`/api/dead-letters/${letter.jobId}/requeue`, Object.keys(body).length ? body : undefined,
          `Job ${letter.jobId} requeued.`);
      } }, h('h2', {}, 'Requeue ', h('span', { className: 'mono' }, letter.jobId)),
      field('Payload (JSON; sent only when edited)', payload), field('Retries after the next attempt (0 to 10)', retries),
      h('div', { className: 'row-actions' }, h('button', { type: 'submit', dataset: { testid: 'dl-requeue-confirm' } },
        'Requeue'), h('button', { type: 'button', className: 'secondary', onclick: close }, 'Cancel')));
      panel.replaceChildren(submit);
      panel.hidden = false;
      payload.focus();
    };

    const openDiscard = (letter) => {
      const reason = h('input', { name: 'reason', required: true, maxlength: 1000,
        dataset: { testid: 'dl-discard-reason' } });
      panel.replaceChildren(h('form', { onsubmit: (event) => {
        event.preventDefault();
        act(`/api/dead-letters/${letter.jobId}/discard`, { reason: reason.value.trim() },
          `Job ${letter.jobId} discarded.`);
      } }, h('h2', {}, 'Discard ', h('span', { className: 'mono' }, letter.jobId)),
      field('Reason (kept for audit)', reason),
      h('div', { className: 'row-actions' }, h('button', { type: 'submit', className: 'danger',
        dataset: { testid: 'dl-discard-confirm' } }, 'Discard'),
      h('button', { type: 'button', className: 'secondary', onclick: close }, 'Cancel'))));
      panel.hidden = false;
      reason.focus();
    };

    view = {
      async refresh() {
        const list = await api(`/api/dead-letters${query(filter)}`);
        if (!ctx.isCurrent()) {
          return;
        }
        const letters = list.deadLetters || [];
        results.replaceChildren(letters.length === 0 ? h('p', { className: 'notice' }, 'No dead letter matches.')
          : table([
            { label: 'Job', className: 'id', cell: (d) => h('a', { href: `#/jobs/${d.jobId}` }, d.jobId) },
            { label: 'State', cell: (d) => status(d.state, 'dl-state-value') },
            { label: 'Type', cell: (d) => d.jobType },
            { label: 'Tenant', cell: (d) => d.tenant },
            { label: 'Reason', cell: (d) => d.reason || '—' },
            { label: 'Attempts', cell: (d) => d.attempts },
            { label: 'Last error', cell: (d) => d.lastError || '—' },
            { label: 'Failed', cell: (d) => time(d.failedAt) },
            { label: 'Actions', cell: (d) => d.state !== 'OPEN' ? '' : h('div', { className: 'row-actions' },
              h('button', { type: 'button', onclick: () => openRequeue(d), dataset: { testid: 'dl-requeue' } },
                'Requeue'),
              h('button', { type: 'button', className: 'secondary', onclick: () => openDiscard(d),
                dataset: { testid: 'dl-discard' } }, 'Discard')) },
          ], letters, { testid: 'dl-table', rowTestid: (d) => ({ testid: 'dl-row', jobId: d.jobId }) }),
        h('p', { className: 'notice' }, `${list.totalElements} ${list.totalElements === 1 ? 'dead letter' : 'dead letters'}`));
      },
    };
    return view;
  },
};
