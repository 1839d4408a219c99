import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { analyzeIndex } from './analyze.js';
import type { StatisticsReply, StatisticsRequest, StatisticsThreadData } from './database.js';

/**
 * The planner statistics thread (see `updateStatistics`): ANALYZE of one index at a time, on a
 * connection of its own to the SQLite file, as the server's thread asks (each in its turn to write).
 */
const port = parentPort!;
const { file } = workerData as StatisticsThreadData;
const sqlite = new SQLite(file);
sqlite.pragma('busy_timeout = 5000');

port.on('message', (request: StatisticsRequest) => {
  if (request.type === 'close') {
    sqlite.close();
    port.close();
    return;
  }
  let reply: StatisticsReply;
  try {
    const [analyze, drop] = analyzeIndex(request.index);
    sqlite.transaction(() => {
      sqlite.exec(analyze);
      if (sqlite.prepare(`select 1 from sqlite_master where name = 'sqlite_stat4'`).get()) sqlite.exec(drop);
    })();
    reply = { type: 'analyzed' };
  } catch (error) {
    reply = { type: 'failed', message: (error as Error).message ?? String(error) };
  }
  port.postMessage(reply);
});
