import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ZlmClient } from './zlm.client.js';

/**
 * The failures of a media server that the simulator does not play: each must become a reason with
 * its kind, never an empty media list or a snapshot.
 */
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').searchParams.get('secret') ?? '';
    if (path === 'http500') {
      res.writeHead(500);
      return res.end('oops');
    }
    if (path === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html></html>');
    }
    if (path === 'failed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ code: -1, msg: 'can not find the stream, secret=failed' }));
    }
    if (path === 'nodata') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ code: 0 }));
    }
    // 'slow': never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const client = (secret: string) => new ZlmClient({ url, secret }, { requestMs: 300, snapSeconds: 1 });

describe('the media server client', () => {
  it('reads an answer without data as no streams', async () => {
    expect(await client('nodata').mediaList()).toEqual([]);
  });

  it('names each failure, never echoing the secret', async () => {
    await expect(client('http500').mediaList()).rejects.toMatchObject({ kind: 'http', detail: '500' });
    await expect(client('html').mediaList()).rejects.toMatchObject({ kind: 'badAnswer' });
    const failed = client('failed').mediaList();
    await expect(failed).rejects.toMatchObject({ kind: 'api' });
    await expect(failed).rejects.toSatisfy((e: Error) => !e.message.includes('secret=failed'));
    await expect(client('slow').mediaList()).rejects.toMatchObject({ kind: 'timeout' });
    await expect(new ZlmClient(null).mediaList()).rejects.toMatchObject({ kind: 'notConfigured' });
  });

  it('refuses a snapshot that is not a JPEG', async () => {
    await expect(client('html').snap('rtsp://127.0.0.1/live/a')).rejects.toMatchObject({
      kind: 'noSnapshot',
    });
    await expect(client('failed').snap('rtsp://127.0.0.1/live/a')).rejects.toMatchObject({ kind: 'api' });
  });

  it('is configured by ZLM_URL and ZLM_SECRET, a wrong value named without echoing the secret', () => {
    expect(loadConfig({}).zlm).toBeNull();
    expect(loadConfig({ ZLM_URL: 'http://10.0.0.2:8080/', ZLM_SECRET: 's' }).zlm).toEqual({
      url: 'http://10.0.0.2:8080',
      secret: 's',
    });
    expect(loadConfig({ ZLM_URL: 'https://proxy.example/zlm' }).zlm).toEqual({
      url: 'https://proxy.example/zlm',
      secret: '',
    });
    expect(() => loadConfig({ ZLM_URL: 'ftp://x' })).toThrow(/ZLM_URL/);
    expect(() => loadConfig({ ZLM_URL: 'http://x', ZLM_SECRET: `top${'s'.repeat(300)}` })).toThrow(
      /ZLM_SECRET .*"\*\*\*"/,
    );
  });
});
