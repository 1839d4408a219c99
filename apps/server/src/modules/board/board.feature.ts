import { defineFeature } from '../feature.js';
import { boardsMigration } from './board.migration.js';
import { boardHandlers } from './board.routes.js';
import { BoardService } from './board.service.js';
import { boardCameraMigration } from './board-camera.migration.js';
import { boardCommissioningMigration } from './board-commissioning.migration.js';

declare module 'fastify' {
  interface FastifyInstance {
    boards: BoardService;
  }
}

/** Boards of a mine: the control room's full-screen pages and what each shows (issue 15). */
export const boardFeature = defineFeature({
  name: 'board',
  migrations: (dialect) => ({
    '0027_boards': boardsMigration(dialect),
    '0030_board_commissioning': boardCommissioningMigration,
    // After 0029_cameras (the camera feature's), which it refers to.
    '0031_board_camera': boardCameraMigration,
  }),
  register(app) {
    app.decorate('boards', new BoardService(app));
  },
  handlers: boardHandlers,
});
