import { defineFeature } from '../feature.js';
import { camerasMigration } from './camera.migration.js';
import { cameraHandlers } from './camera.routes.js';
import { CameraService } from './camera.service.js';
import { CameraSnapshots } from './camera.snapshots.js';
import { ZlmClient } from './zlm.client.js';

declare module 'fastify' {
  interface FastifyInstance {
    cameras: CameraService;
    /** The media server's API client (ZLM_URL); the demo points it at the simulator's. */
    zlm: ZlmClient;
    cameraSnapshots: CameraSnapshots;
  }
}

/** Cameras of the FBOXes: status and snapshots from a ZLMediaKit media server (issue 15). */
export const cameraFeature = defineFeature({
  name: 'camera',
  migrations: (dialect) => ({ '0029_cameras': camerasMigration(dialect) }),
  register(app) {
    const zlm = new ZlmClient(app.config.zlm);
    app.decorate('zlm', zlm);
    app.decorate('cameras', new CameraService({ db: app.db, clock: app.clock, areas: app.areas, zlm }));
    const snapshots = new CameraSnapshots({ db: app.db, clock: app.clock, zlm, log: app.log });
    app.decorate('cameraSnapshots', snapshots);
    app.jobs.add({ name: 'camera-snapshots', periodMs: 60_000, run: () => snapshots.run() });
  },
  handlers: cameraHandlers,
});
