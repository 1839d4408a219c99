import { routes } from 'virtual:endpoint-routes';
import {
  Code,
  type EndpointBody,
  type EndpointData,
  type EndpointName,
  type EndpointQuery,
  type EndpointRoute,
  type Envelope,
  type FieldError,
  limits,
} from '@fbox/contracts';
import { toast } from './feedback';
import { i18n, languageStore } from './i18n';
import { langHeader } from './language';
import { beginLoading, endLoading } from './loading';
import { currentPath, loginPath, navigate } from './navigation';
import { clearSession, getSelectedAreaId, getToken, sessionGeneration } from './session';

type Or<A, B> = [A] extends [never] ? B : A;

/** What an endpoint takes: its body for POST, its query for GET (both typed by the contracts). */
export type CallParams<N extends EndpointName> = Or<EndpointBody<N>, Or<EndpointQuery<N>, object>>;

export interface CallOptions {
  /** No global loading overlay (background refreshes). */
  silent?: boolean;
  /** A -2 answer with field errors is shown on the form only, not as a toast too. */
  quietValidation?: boolean;
  /** Show 'Modified successfully' (or the given text) on success. */
  successToast?: boolean | string;
  timeoutMs?: number;
}

export type ApiErrorKind = 'business' | 'session' | 'network' | 'timeout' | 'http';

/** A failed call: business code and field errors for answers, kind for transport failures. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly code?: number,
    readonly fieldErrors: FieldError[] = [],
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const seconds = (ms: number) => ms / 1000;

/** Whether a path belongs to the platform family (JSON bodies). */
export const isPlatformPath = (path: string): boolean => path.startsWith('/ff-plat-api/');

/** Legacy form encoding: nested values (pushContent) travel as JSON text. */
export const encodeFields = (fields: Record<string, unknown>): URLSearchParams => {
  const encoded = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    encoded.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return encoded;
};

/** A call's fields (spec §7): `output=json` and the chosen mine's `area_id`, then its own. */
const callFields = (params?: unknown): URLSearchParams =>
  encodeFields({ output: 'json', area_id: getSelectedAreaId(), ...((params ?? {}) as object) });

/** The headers of every call: the interface language and, signed in, the login token. */
const callHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = { lang: langHeader(languageStore.get()) };
  const token = getToken();
  if (token) headers.logintoken = token;
  return headers;
};

const readFieldErrors = (data: unknown): FieldError[] => {
  const errors = (data as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
};

const fail = (text: string, kind: ApiErrorKind): never => {
  void toast('error', text, seconds(limits.errorToastMs));
  throw new ApiError(text, kind);
};

/**
 * Calls an endpoint of the contracts (spec §7–§8): adds `output=json`, `area_id`, the `logintoken` and
 * `lang` headers, times out after 120 s, shows the loading overlay unless `silent`, and turns the
 * envelope into data or an `ApiError` after showing what the user needs to see.
 */
export async function call<N extends EndpointName>(
  name: N,
  params?: CallParams<N>,
  options: CallOptions = {},
): Promise<EndpointData<N>> {
  const endpoint = routes[name];
  const fields = callFields(params);
  const isGet = endpoint.method === 'GET';
  // Platform calls (spec §7: POST under /ff-plat-api/api/) carry a JSON body; legacy ones a form.
  const isJson = !isGet && isPlatformPath(endpoint.path);
  const url = isGet ? `${endpoint.path}?${fields}` : endpoint.path;
  const headers = callHeaders();
  // The session this request was sent in (another request may end it meanwhile).
  const sentIn = sessionGeneration();
  if (!isGet)
    headers['Content-Type'] = isJson ? 'application/json' : 'application/x-www-form-urlencoded;charset=UTF-8';

  const timeoutMs = options.timeoutMs ?? limits.requestTimeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  if (!options.silent) beginLoading();
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: endpoint.method,
        headers,
        body: isGet
          ? undefined
          : isJson
            ? JSON.stringify({ area_id: getSelectedAreaId(), ...(params ?? {}) })
            : fields.toString(),
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) return fail(i18n.t('common.request.timeout', { seconds: seconds(timeoutMs) }), 'timeout');
      return fail((error as Error).message || i18n.t('common.request.network'), 'network');
    }
    if (!response.ok) return fail(i18n.t('common.request.http', { status: response.status }), 'http');
    let envelope: Envelope<unknown>;
    try {
      envelope = (await response.json()) as Envelope<unknown>;
    } catch {
      if (timedOut) return fail(i18n.t('common.request.timeout', { seconds: seconds(timeoutMs) }), 'timeout');
      return fail(i18n.t('common.request.unreadable'), 'http');
    }
    return handleEnvelope(name, endpoint, envelope, options, sentIn) as EndpointData<N>;
  } finally {
    clearTimeout(timer);
    if (!options.silent) endLoading();
  }
}

const handleEnvelope = (
  name: EndpointName,
  endpoint: EndpointRoute,
  envelope: Envelope<unknown>,
  options: CallOptions,
  sentIn: number,
): unknown => {
  const { code } = envelope;
  if (code === undefined || code === Code.OK) {
    if (options.successToast) {
      const text = typeof options.successToast === 'string' ? options.successToast : i18n.t('api.modified');
      void toast('success', text, seconds(limits.toastMs));
    }
    return envelope.data;
  }
  const text = envelope.msg || envelope.info || i18n.t('api.serverError');

  if (code === Code.NOT_LOGGED_IN) {
    const again = i18n.t('api.notLoggedIn');
    // Requests sent together fail together: the first ends the session, says so and redirects once.
    if (sessionGeneration() !== sentIn) throw new ApiError(again, 'session', code);
    const wanted = currentPath();
    clearSession();
    void toast('error', again, seconds(limits.toastMs), { outlivesLayout: true });
    if (!wanted.startsWith('/login')) navigate(loginPath(wanted), { replace: true });
    throw new ApiError(again, 'session', code);
  }

  if (code === Code.LOGIN_FAILED && name === 'login') {
    // Local logout once the 5 s error has been read — unless a new login happened meanwhile.
    const generation = sessionGeneration();
    void toast('error', text, seconds(limits.errorToastMs)).then(() => {
      if (sessionGeneration() === generation) clearSession();
    });
    throw new ApiError(text, 'business', code, [], envelope.data);
  }

  // A refusal may name the fields that caused it: a -2 for their rules, a conflict for a name taken.
  const fieldErrors = readFieldErrors(envelope.data);
  if (!(options.quietValidation && fieldErrors.length > 0)) {
    const shown = endpoint.info ? envelope.info || text : text;
    void toast('error', shown, seconds(limits.toastMs));
  }
  throw new ApiError(text, 'business', code, fieldErrors, envelope.data);
};

/**
 * Downloads a file endpoint (`download: true`, e.g. the miner CSV export) with the same headers as
 * `call`. A JSON answer is the envelope of a failure and is handled like any other.
 */
export async function download<N extends EndpointName>(name: N, params: CallParams<N>, fallbackName: string) {
  const endpoint: EndpointRoute = routes[name];
  const fields = callFields(params);
  const headers = callHeaders();
  // The session this request was sent in (another request may end it meanwhile).
  const sentIn = sessionGeneration();
  beginLoading();
  try {
    let response: Response;
    try {
      // Platform exports are POSTs with a JSON body (spec §7: blob downloads).
      response =
        endpoint.method === 'GET'
          ? await fetch(`${endpoint.path}?${fields}`, { headers })
          : await fetch(endpoint.path, {
              method: 'POST',
              headers: { ...headers, 'Content-Type': 'application/json' },
              body: JSON.stringify({ area_id: getSelectedAreaId(), ...(params ?? {}) }),
            });
    } catch (error) {
      return fail((error as Error).message || i18n.t('common.request.network'), 'network');
    }
    if (!response.ok) return fail(i18n.t('common.request.http', { status: response.status }), 'http');
    if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
      handleEnvelope(name, endpoint, (await response.json()) as Envelope<unknown>, {}, sentIn);
      return;
    }
    const disposition = response.headers.get('Content-Disposition') ?? '';
    const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } finally {
    endLoading();
  }
}
