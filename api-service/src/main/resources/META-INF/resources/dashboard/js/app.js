// The dashboard: hash routes, one page at a time, polled while the tab is visible.
import { api, apiKey, setApiKey, whenUnauthorized } from './api.js';
import overview from './pages/overview.js';
import jobs from './pages/jobs.js';
import queues from './pages/queues.js';
import deadLetters from './pages/dead-letters.js';
import quarantine from './pages/quarantine.js';
import schedules from './pages/schedules.js';
import workflows from './pages/workflows.js';

const pages = {
  overview, jobs, queues, 'dead-letters': deadLetters, quarantine, schedules, workflows, 'workflow-runs': workflows,
};
const settings = { traceUrl: 'http://localhost:9411/zipkin/traces/{traceId}', pollIntervalMs: 3000 };
const main = document.getElementById('page');
const errorBox = document.getElementById('error');
let current = null;
let errorFromPoll = false;
let timer = null;
let generation = 0;

/** Shows an error of the API (its ErrorResponse message) until the next success or the next page. */
function showError(error, fromPoll = false) {
  errorBox.textContent = error && error.message ? error.message : String(error);
  errorBox.hidden = false;
  errorFromPoll = fromPoll;
}

function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = '';
  errorFromPoll = false;
}

/** The route of the hash: #/name/arg?query. */
function route() {
  const hash = location.hash.replace(/^#\/?/, '') || 'overview';
  const [path, search = ''] = hash.split('?');
  const [name, ...rest] = path.split('/').filter(Boolean);
  return { name: name || 'overview', args: rest.map(decodeURIComponent), params: new URLSearchParams(search) };
}

async function refresh() {
  const mine = generation;
  if (!current || !current.refresh) {
    return;
  }
  try {
    await current.refresh();
    if (mine === generation && errorFromPoll) {
      clearError();
    }
  } catch (e) {
    if (mine === generation) {
      showError(e, true);
    }
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (document.visibilityState === 'visible') {
      await refresh();
    }
    schedule();
  }, settings.pollIntervalMs);
}

async function show() {
  generation += 1;
  const mine = generation;
  if (current && current.unmount) {
    current.unmount();
  }
  clearError();
  const { name, args, params } = route();
  const page = pages[name];
  document.querySelectorAll('.top nav a').forEach((a) => {
    const target = a.getAttribute('href').slice(2);
    if (target === name || (name === 'workflow-runs' && target === 'workflows')) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  });
  main.replaceChildren();
  if (!page) {
    showError(`no page ${name}`);
    return;
  }
  const ctx = {
    settings,
    error: (e) => showError(e),
    clearError,
    navigate: (hash) => { location.hash = hash; },
    isCurrent: () => mine === generation,
  };
  try {
    current = await page.mount(main, { name, args, params }, ctx);
    if (mine === generation) {
      await refresh();
    }
  } catch (e) {
    if (mine === generation) {
      showError(e);
    }
  }
}

function setUpKeyDialog() {
  const dialog = document.getElementById('key-dialog');
  const input = document.getElementById('key-input');
  const reason = document.getElementById('key-reason');
  const open = (message) => {
    if (!dialog.open) {
      reason.textContent = message ? `The API refused the request: ${message}. Enter an API key (jw_...) or a bearer`
        + ' token; it is kept in this tab only.' : 'Enter an API key (jw_...) or a bearer token; it is kept in this'
        + ' tab only.';
      input.value = apiKey() || '';
      dialog.showModal();
    }
  };
  whenUnauthorized(open);
  document.querySelector('.key-button').addEventListener('click', () => open());
  dialog.addEventListener('close', () => {
    // a fresh start with the new key: the settings too may have been refused without one
    if (dialog.returnValue === 'save') {
      setApiKey(input.value.trim());
      location.reload();
    } else if (dialog.returnValue === 'clear') {
      setApiKey(null);
      location.reload();
    }
  });
}

async function start() {
  setUpKeyDialog();
  try {
    Object.assign(settings, await api('/api/dashboard/config'));
  } catch (e) {
    showError(e);
  }
  window.addEventListener('hashchange', show);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      refresh();
    }
  });
  await show();
  schedule();
}

start();
