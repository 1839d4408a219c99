import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateIps, parseIpRange } from './model/ip.js';
import { fetchServerFboxes } from './server-source.js';

const readBody = async (req: IncomingMessage) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
};

const ok = (data: unknown) => ({ code: 1, msg: 'ok', data });

/** A stand-in for the server's API, shaped by the contracts' endpoint paths. */
const fakeServer = () => {
  const detail = (area: number, id: number, withSecret = true) => ({
    id,
    area_id: area,
    name: `Box ${id}`,
    kind: id === 12 ? 'air' : 'immersion',
    ip_range: `10.0.${id}.1-10.0.${id}.254`,
    device_id: `dev${id}`,
    ...(withSecret ? { mqtt_username: `u${id}`, mqtt_password: `p${id}` } : {}),
    reporting_interval_s: 15,
    tank_count: 3,
    extra_field_the_simulator_ignores: true,
  });
  const boxes: Record<number, number[]> = { 1: [11, 12], 2: [21] };
  let hideSecrets = false;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (url.pathname === endpoints.login.path && req.method === 'POST') {
      const body = await readBody(req);
      if (body.get('username') === 'admin' && body.get('password') === 'secret')
        return send(ok({ logintoken: 'tok' }));
      return send({ code: -1, msg: 'Wrong username or password', data: null });
    }
    if (req.headers.logintoken !== 'tok') return send({ code: 401, msg: 'Login expired', data: null });
    const area = Number(url.searchParams.get('area_id'));
    if (url.pathname === endpoints.areaList.path)
      return send(ok([1, 2].map((id) => ({ id, area_name: `Mine ${id}`, electricity_hz: 50 }))));
    if (url.pathname === endpoints.fboxList.path) {
      const page = Number(url.searchParams.get('page'));
      const items = (boxes[area] ?? []).map((id) => ({ ...detail(area, id), status: 'online' }));
      return send(ok({ items: page === 1 ? items : [], total: items.length, page, limit: 500 }));
    }
    if (url.pathname === endpoints.fboxDetail.path)
      return send(ok(detail(area, Number(url.searchParams.get('id')), !hideSecrets)));
    res.statusCode = 404;
    res.end();
  });
  return { server, hide: (v: boolean) => (hideSecrets = v) };
};

describe('fetchServerFboxes', () => {
  const fake = fakeServer();
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => fake.server.close(resolve));
  });

  it('signs in and lists every FBOX with its MQTT account', async () => {
    const boxes = await fetchServerFboxes({ serverUrl: url, username: 'admin', password: 'secret' });
    expect(boxes.map((b) => b.deviceId)).toEqual(['dev11', 'dev12', 'dev21']);
    expect(boxes[0]).toEqual({
      areaId: 1,
      id: 11,
      name: 'Box 11',
      deviceId: 'dev11',
      kind: 'immersion',
      tankCount: 3,
      ipRange: '10.0.11.1-10.0.11.254',
      reportingIntervalS: 15,
      username: 'u11',
      password: 'p11',
    });
    const one = await fetchServerFboxes({
      serverUrl: `${url}/`,
      username: 'admin',
      password: 'secret',
      areaId: 2,
    });
    expect(one.map((b) => b.deviceId)).toEqual(['dev21']);
  });

  it('reports a refused sign-in and hidden credentials clearly', async () => {
    await expect(fetchServerFboxes({ serverUrl: url, username: 'admin', password: 'nope' })).rejects.toThrow(
      /Wrong username or password/,
    );
    fake.hide(true);
    await expect(
      fetchServerFboxes({ serverUrl: url, username: 'admin', password: 'secret' }),
    ).rejects.toThrow(/master account/);
    fake.hide(false);
  });
});

describe('IP ranges', () => {
  it('parses the usual forms', () => {
    const a = parseIpRange('10.0.1.1-10.0.1.254')!;
    expect(allocateIps(a.first, 2)).toEqual(['10.0.1.1', '10.0.1.2']);
    expect(parseIpRange('10.0.1.1-254')).toEqual(a);
    expect(parseIpRange('10.0.1.0/24')).toEqual(a);
    expect(parseIpRange('not an ip')).toBeNull();
    expect(parseIpRange('10.0.1.9-10.0.1.2')).toBeNull();
  });

  it('skips .0 and .255 and never repeats', () => {
    const ips = allocateIps(parseIpRange('10.0.1.250')!.first, 10);
    expect(ips).toEqual([
      '10.0.1.250',
      '10.0.1.251',
      '10.0.1.252',
      '10.0.1.253',
      '10.0.1.254',
      '10.0.2.1',
      '10.0.2.2',
      '10.0.2.3',
      '10.0.2.4',
      '10.0.2.5',
    ]);
  });
});
