// The dashboard's only way to the platform: the public REST API, with the key the user entered (if any).
const KEY = 'jobweaver.apiKey';

/** An answer of the API that is not 2xx: its ErrorResponse message when it has one. */
export class ApiError extends Error {
  constructor(status, body, fallback) {
    super((body && body.message) || fallback);
    this.status = status;
    this.errorCode = body && body.errorCode;
  }
}

let onUnauthorized = () => {};

/** What to do when the API answers 401 (ask for a key). */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) {
    sessionStorage.setItem(KEY, key);
  } else {
    sessionStorage.removeItem(KEY);
  }
}

/** fetch against the API, JSON in and out; throws ApiError for any answer but 2xx. */
export async function api(path, { method = 'GET', body, allow404 = false } = {}) {
  const headers = { Accept: 'application/json' };
  const key = apiKey();
  if (key) {
    headers.Authorization = `Bearer ${key}`;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, null, `the API did not answer (${e.message})`);
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (response.ok) {
    return json;
  }
  if (response.status === 404 && allow404) {
    return null;
  }
  if (response.status === 401) {
    onUnauthorized(json && json.message);
  }
  throw new ApiError(response.status, json, `${method} ${path} answered ${response.status}`);
}

/** A query string of the non-empty entries; repeated keys from arrays. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && String(v).trim() !== '') {
        search.append(name, String(v).trim());
      }
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
