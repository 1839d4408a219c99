import type { boardEndpoints } from '@fbox/contracts';
import type { HandlersFor } from '../handler.js';

/** HTTP handlers of the boards (`fbox.board`). */
export const boardHandlers: HandlersFor<keyof typeof boardEndpoints> = {
  boardList: ({ app, user, input }) => app.boards.list(user, input.area_id),
  boardSave: ({ app, user, input }) => app.boards.save(user, input),
  boardDelete: async ({ app, user, input }) => {
    await app.boards.delete(user, input.area_id, input.id);
    return null;
  },
  dataBoard: ({ app, user, input }) => app.boards.dataBoard(user, input.area_id, input.id),
  minerBoard: ({ app, user, input }) => app.boards.minerBoard(user, input.area_id, input.id),
  boardKioskCreate: ({ app, user, input }) => app.boards.createKiosk(user, input.area_id, input.id),
  boardKioskRevoke: ({ app, user, input }) => app.boards.revokeKiosk(user, input.area_id, input.id),
  kioskDataBoard: ({ app, input }) => app.boards.kioskDataBoard(input.token),
  kioskCameraImage: ({ app, input }) => app.boards.kioskCameraImage(input.token, input.id),
  kioskMinerBoard: ({ app, input }) => app.boards.kioskMinerBoard(input.token),
  tankBoard: ({ app, user, input }) => app.boards.tankBoard(user, input.area_id, input.id),
  kioskTankBoard: ({ app, input }) => app.boards.kioskTankBoard(input.token),
  testBoard: ({ app, user, input }) => app.boards.testBoard(user, input.area_id, input.id),
  kioskTestBoard: ({ app, input }) => app.boards.kioskTestBoard(input.token),
};
