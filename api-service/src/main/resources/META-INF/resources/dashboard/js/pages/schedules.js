// Schedules: each with its timing and next run, paused or resumed with a button.
import { api, query } from '../api.js';
import { h, status, table, tenantForm, time } from '../dom.js';

export default {
  async mount(main, { params }, ctx) {
    const page = Number(params.get('page') || 0);
    const form = tenantForm(params, 'schedules-tenant', (tenant) => ctx.navigate(`#/schedules${query({ tenant })}`));
    const results = h('div', { dataset: { testid: 'schedules-results' } });
    main.append(h('h1', {}, 'Schedules'), form, results);
    let view;

    const toggle = async (schedule, button) => {
      ctx.clearError();
      button.disabled = true;
      try {
        await api(`/api/schedules/${schedule.id}/${schedule.paused ? 'resume' : 'pause'}`, { method: 'POST' });
        await view.refresh();
      } catch (e) {
        ctx.error(e);
        button.disabled = false;
      }
    };

    view = {
      async refresh() {
        const list = await api(`/api/schedules${query({ tenant: params.get('tenant'), page, size: 50 })}`);
        if (!ctx.isCurrent()) {
          return;
        }
        results.replaceChildren(list.schedules.length === 0 ? h('p', { className: 'notice' }, 'No schedule.')
          : table([
            { label: 'Name', cell: (s) => s.name },
            { label: 'When', cell: (s) => s.cron ? `${s.cron}${s.timezone ? ` (${s.timezone})` : ''}`
              : `every ${s.interval}` },
            { label: 'Runs', cell: (s) => s.workflowId
              ? h('a', { href: `#/workflows/${s.workflowId}` }, 'workflow') : (s.job && s.job.jobType) || '—' },
            { label: 'Tenant', cell: (s) => s.tenant },
            { label: 'State', cell: (s) => status(s.paused ? 'PAUSED' : 'ACTIVE', 'schedule-state') },
            { label: 'Next run', cell: (s) => h('span', { dataset: { testid: 'schedule-next' } }, time(s.nextRunAt)) },
            { label: 'Actions', cell: (s) => {
              const button = h('button', { type: 'button', className: s.paused ? '' : 'secondary',
                dataset: { testid: s.paused ? 'schedule-resume' : 'schedule-pause' },
                'aria-label': `${s.paused ? 'Resume' : 'Pause'} ${s.name}` }, s.paused ? 'Resume' : 'Pause');
              button.addEventListener('click', () => toggle(s, button));
              return button;
            } },
          ], list.schedules, { testid: 'schedules-table',
            rowTestid: (s) => ({ testid: 'schedule-row', scheduleId: s.id }) }),
        h('div', { className: 'pager' }, h('span', { className: 'notice' }, `${list.totalElements} ${list.totalElements === 1 ? 'schedule' : 'schedules'}`),
          page > 0 && h('a', { href: `#/schedules${query({ tenant: params.get('tenant'), page: page - 1 })}` }, 'newer'),
          page + 1 < list.totalPages
            && h('a', { href: `#/schedules${query({ tenant: params.get('tenant'), page: page + 1 })}` }, 'older')));
      },
    };
    return view;
  },
};
