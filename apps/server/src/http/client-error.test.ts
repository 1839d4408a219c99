import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { Code } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';

/**
 * Requests Node refuses before Fastify routes them (issue 10 item 8): a URL or headers beyond
 * Node's 16 KiB limit, or bytes that are not HTTP. They keep their status and answer the JSON
 * envelope like every other error. Sent over a real socket: `inject` never meets Node's parser.
 */
describeDb('client errors on a listening server', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** Sends raw bytes and reads the answer until the server closes the connection. */
  const raw = (request: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n');
        resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
      });
      socket.write(request);
    });

  it('answers a 100 KB URL with 431 and the envelope', async () => {
    const url = `/index/fbox.user/getuserinfo?q=${'a'.repeat(100_000)}`;
    const res = await raw(`GET ${url} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toContain('content-type: application/json');
    expect(JSON.parse(res.body)).toEqual({
      code: Code.VALIDATION,
      msg: 'The request address or headers are too long',
      data: null,
    });
  });

  it('answers oversized headers in the language the request asked for', async () => {
    const res = await raw(
      `GET /index/fbox.user/getuserinfo HTTP/1.1\r\nHost: localhost\r\nlang: zh-cn\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ code: Code.VALIDATION, msg: '请求地址或请求头过长', data: null });
  });

  it('answers bytes that are not HTTP with 400 and the envelope', async () => {
    const res = await raw('HELLO\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      code: Code.VALIDATION,
      msg: 'The request could not be read',
      data: null,
    });
  });
});
