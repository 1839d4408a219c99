// What the browser benches share: min/median/max of a series, and a bare HTTP server answering one
// static page (the baseline a real page is compared to).
import { createServer } from 'node:http';
import { round } from './http-latency.mjs';

export const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: round(sorted[0]),
    median: round(sorted[Math.floor((sorted.length - 1) / 2)]),
    max: round(sorted.at(-1)),
  };
};

/** Serves `html` at `/` from 127.0.0.1 on a free port. */
export const startStaticServer = async (html) => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};
