import { type CameraStatus, operatorRules, type RuleList } from '@fbox/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { startSession } from '../../lib/session';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { CamerasSection } from './CamerasSection';

// 2026-11-25 02:00 UTC = 10:00 in UTC+8.
const at = Date.UTC(2026, 10, 25, 2);
const camera = (id: number, name: string, extra: Partial<CameraStatus['cameras'][number]> = {}) => ({
  id,
  fbox_id: 3,
  name,
  stream: `live/${name.toLowerCase()}`,
  created_at: at,
  updated_at: at,
  online: true,
  readers: 2,
  last_snapshot_at: at,
  last_error: null,
  last_error_at: null,
  ...extra,
});

const ZLM = '/ff-plat-api/api/zlm';
const sent: { path: string; body: unknown; headers: Record<string, string> }[] = [];
let status: CameraStatus;
let access: RuleList;
const images = [
  { id: 12, camera_id: 1, camera_name: 'Aisle', taken_at: at + 600_000, bytes: 100 },
  { id: 11, camera_id: 2, camera_name: 'Door', taken_at: at, bytes: 100 },
];
const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  sent.length = 0;
  created.length = 0;
  revoked.length = 0;
  timeZoneStore.set('UTC+8');
  startSession('token-1');
  access = { role: 'master', rules: [...operatorRules], all: [...operatorRules] };
  status = {
    configured: true,
    error: null,
    interval_minutes: 10,
    retention_days: 7,
    checked_at: at,
    cameras: [
      camera(1, 'Aisle'),
      camera(2, 'Door', { online: false, readers: 0, last_error: 'Media server unreachable: refused' }),
    ],
  };
  let n = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: () => {
        n += 1;
        created.push(`blob:${n}`);
        return `blob:${n}`;
      },
      revokeObjectURL: (url: string) => revoked.push(url),
    }),
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0]!;
      const body =
        typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) : init?.body;
      sent.push({ path, body, headers: (init?.headers ?? {}) as Record<string, string> });
      if (path === `${ZLM}/getCameraStatus`) return Response.json({ code: 1, msg: 'ok', data: status });
      if (path === `${ZLM}/listCapturedImages`) {
        const { camera_id: cameraId, limit } = body as { camera_id?: number; limit: number };
        const items = images
          .filter((i) => cameraId === undefined || i.camera_id === cameraId)
          .slice(0, limit);
        return Response.json({ code: 1, msg: 'ok', data: { items, total: items.length, page: 1, limit } });
      }
      if (path === `${ZLM}/capturedImage`)
        return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), {
          headers: { 'Content-Type': 'image/jpeg' },
        });
      if (path === '/index/fbox.user/getrule') return Response.json({ code: 1, msg: 'ok', data: access });
      return Response.json({ code: 1, msg: 'Modified', data: null });
    }),
  );
});

afterEach(resetPageTest);

const calls = (path: string) => sent.filter((r) => r.path === path);

// antd's first render in jsdom takes seconds.
describe('CamerasSection', () => {
  it('shows each camera online or offline with its viewers, last snapshot and why it failed', async () => {
    renderPage(<CamerasSection fboxId={3} />);
    const table = await screen.findByTestId('camera-table');
    const aisle = within(table).getByText('Aisle').closest('tr') as HTMLElement;
    expect(within(aisle).getByText('Online')).toBeTruthy();
    expect(within(aisle).getByText('2')).toBeTruthy();
    expect(within(aisle).getByText('2026-11-25 10:00:00')).toBeTruthy();
    const door = within(table).getByText('Door').closest('tr') as HTMLElement;
    expect(within(door).getByText('Offline')).toBeTruthy();
    expect(within(door).getByTestId('camera-error-2').textContent).toBe('Media server unreachable: refused');
    expect(screen.getByText('A snapshot of each online camera every 10 min, kept 7 days')).toBeTruthy();
  });

  it('says "not configured" without a media server, and shows a media server failure', async () => {
    status = {
      ...status,
      configured: false,
      cameras: status.cameras.map((c) => ({ ...c, online: null, readers: null })),
    };
    const view = renderPage(<CamerasSection fboxId={3} />);
    expect(await screen.findByTestId('camera-not-configured')).toBeTruthy();
    expect(screen.getAllByText('Unknown')).toHaveLength(2);
    view.unmount();
    status = { ...status, configured: true, error: 'The media server refused the secret (ZLM_SECRET): -100' };
    renderPage(<CamerasSection fboxId={3} />);
    expect((await screen.findByTestId('camera-media-error')).textContent).toContain('ZLM_SECRET');
  });

  it('shows the snapshots newest first, fetched with the session and revoked when gone, large on a click', async () => {
    const view = renderPage(<CamerasSection fboxId={3} />);
    const thumbs = await screen.findAllByTestId(/^camera-thumb-/);
    expect(thumbs.map((t) => t.getAttribute('data-testid'))).toEqual(['camera-thumb-12', 'camera-thumb-11']);
    expect(within(thumbs[0]!).getByText('2026-11-25 10:10:00')).toBeTruthy();
    await waitFor(() => expect(calls(`${ZLM}/capturedImage`)).toHaveLength(2));
    expect(calls(`${ZLM}/capturedImage`)[0]!.headers.logintoken).toBe('token-1');
    await waitFor(() => expect(within(thumbs[0]!).getByRole('img').getAttribute('src')).toMatch(/^blob:/));
    fireEvent.click(thumbs[1]!);
    const large = await screen.findByTestId('camera-large');
    expect(large.getAttribute('src')).toMatch(/^blob:/);
    expect(screen.getByText('Door · 2026-11-25 10:00:00')).toBeTruthy();
    view.unmount();
    expect(revoked.sort()).toEqual([...created].sort());
  });

  it('shows an empty state without cameras', async () => {
    status = { ...status, cameras: [] };
    renderPage(<CamerasSection fboxId={3} />);
    expect(await screen.findByTestId('camera-empty')).toBeTruthy();
  });

  it('lets a master add a camera, refusing a bad stream on its field first, and delete one after asking', async () => {
    renderPage(<CamerasSection fboxId={3} />);
    fireEvent.click(await screen.findByTestId('camera-add', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('camera-form');
    fireEvent.change(within(form).getByTestId('camera-name'), { target: { value: 'Gate' } });
    fireEvent.change(within(form).getByTestId('camera-stream'), {
      target: { value: 'rtsp://admin:pw@10.0.0.5/1' },
    });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await within(form).findByText(/without a user or password/)).toBeTruthy();
    expect(calls(`${ZLM}/camera/save`)).toEqual([]);
    fireEvent.change(within(form).getByTestId('camera-stream'), { target: { value: 'live/gate' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(calls(`${ZLM}/camera/save`)).toHaveLength(1));
    expect(calls(`${ZLM}/camera/save`)[0]!.body).toMatchObject({
      fbox_id: 3,
      name: 'Gate',
      stream: 'live/gate',
    });

    fireEvent.click(screen.getByTestId('camera-delete-1'));
    expect(calls(`${ZLM}/camera/delete`)).toEqual([]);
    await waitFor(() => expect(document.querySelector('.ant-popconfirm')).not.toBeNull());
    const confirm = document.querySelector('.ant-popconfirm') as HTMLElement;
    expect(within(confirm).getByText('Delete camera Aisle and its snapshots?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls(`${ZLM}/camera/delete`)).toHaveLength(1));
    expect(calls(`${ZLM}/camera/delete`)[0]!.body).toMatchObject({ id: 1 });
  });

  it('shows an operator the cameras without the buttons that change them, in Chinese', async () => {
    access = { role: 'operator', rules: [...operatorRules], all: [...operatorRules] };
    await changeLanguage('zh');
    renderPage(<CamerasSection fboxId={3} />);
    expect(await screen.findByText('摄像头')).toBeTruthy();
    await screen.findByTestId('camera-table');
    expect(screen.getByText('在线')).toBeTruthy();
    expect(screen.queryByTestId('camera-add')).toBeNull();
    expect(screen.queryByTestId('camera-delete-1')).toBeNull();
  });
});
