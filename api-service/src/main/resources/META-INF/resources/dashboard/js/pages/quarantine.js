// Quarantine: the records the services set aside in jobweaver-quarantine, with replay (publish the original again)
// and discard. Admins only: the API answers 403 to any other role, shown as the page's error.
import { api, query } from '../api.js';
import { field, h, status, table, time } from '../dom.js';

const STATES = ['KEPT', 'REPLAYED', 'DISCARDED'];
const REASONS = ['', 'UNREADABLE', 'INVALID', 'REJECTED_BY_DATABASE', 'UNPROCESSABLE', 'UNKNOWN'];

export default {
  async mount(main, { params }, ctx) {
    const topic = h('input', { name: 'topic', value: params.get('topic') || '', placeholder: 'job-status, ...',
      dataset: { testid: 'q-topic' } });
    const reason = h('select', { name: 'reason', dataset: { testid: 'q-reason' } },
      REASONS.map((r) => h('option', { value: r, selected: r === (params.get('reason') || '') }, r || 'any')));
    const state = h('select', { name: 'state', dataset: { testid: 'q-state' } },
      STATES.map((s) => h('option', { value: s, selected: s === (params.get('state') || 'KEPT') }, s)));
    const form = h('form', { className: 'filters', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      ctx.navigate(`#/quarantine${query({ topic: topic.value, reason: reason.value, state: state.value })}`);
    } }, field('Topic', topic), field('Reason', reason), field('State', state),
    h('button', { type: 'submit', dataset: { testid: 'q-search' } }, 'Show'));
    const notice = h('p', { className: 'notice', role: 'status', dataset: { testid: 'q-notice' } });
    const results = h('div', { dataset: { testid: 'q-results' } });
    main.append(h('h1', {}, 'Quarantine'), form, notice, results);
    const filter = { topic: params.get('topic'), reason: params.get('reason'), state: params.get('state') || 'KEPT' };
    let view;

    const act = async (record, action, done) => {
      ctx.clearError();
      try {
        await api(`/api/quarantine/${record.id}/${action}`, { method: 'POST' });
        notice.textContent = done;
        await view.refresh();
      } catch (e) {
        ctx.error(e);
      }
    };

    const where = (r) => `${r.topic}-${r.partition}@${r.offset}`;

    // A discard is final: the first click asks, the second discards.
    const discardButton = (r) => {
      const button = h('button', { type: 'button', className: 'secondary', dataset: { testid: 'q-discard' } },
        'Discard');
      button.addEventListener('click', () => {
        if (button.dataset.armed) {
          act(r, 'discard', `Record ${where(r)} discarded.`);
        } else {
          button.dataset.armed = 'true';
          button.className = 'danger';
          button.textContent = 'Discard for good';
        }
      });
      return button;
    };

    view = {
      async refresh() {
        const list = await api(`/api/quarantine${query(filter)}`);
        if (!ctx.isCurrent()) {
          return;
        }
        const records = list.records || [];
        results.replaceChildren(records.length === 0 ? h('p', { className: 'notice' }, 'No quarantined record matches.')
          : table([
            { label: 'Origin', className: 'mono', cell: (r) => where(r) },
            { label: 'Key', className: 'id', cell: (r) => r.key || '—' },
            { label: 'State', cell: (r) => status(r.state, 'q-state-value') },
            { label: 'Reason', cell: (r) => r.reason },
            { label: 'Detail', cell: (r) => r.detail || '—' },
            { label: 'Service', cell: (r) => r.service },
            { label: 'Size', cell: (r) => `${r.size} B` },
            { label: 'Quarantined', cell: (r) => time(r.quarantinedAt) },
            { label: 'Actions', cell: (r) => r.state !== 'KEPT'
              ? h('span', {}, r.stateChangedBy || '', ' ', time(r.stateChangedAt))
              : h('div', { className: 'row-actions' },
                h('button', { type: 'button', dataset: { testid: 'q-replay' },
                  onclick: () => act(r, 'replay', `Record ${where(r)} replayed to ${r.topic}.`) }, 'Replay'),
                discardButton(r)) },
          ], records, { testid: 'q-table', rowTestid: (r) => ({ testid: 'q-row', id: r.id, key: r.key || '' }) }),
        h('p', { className: 'notice' }, `${list.totalElements} ${list.totalElements === 1 ? 'record' : 'records'}`));
      },
    };
    return view;
  },
};
