import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Whether a user sees a mine, for a query over `users` and `areas`: the mine's master, or an
 * sub-account of that master managing it (callers add `users.status` for active ones only). The one
 * definition the inbox and the notification outbox use to pick an alert's recipients.
 */
export const seesMine = (eb: ExpressionBuilder<DB, 'users' | 'areas'>) =>
  eb.or([
    eb('users.id', '=', eb.ref('areas.owner_id')),
    eb.and([
      eb('users.parent_id', '=', eb.ref('areas.owner_id')),
      eb.exists(
        eb
          .selectFrom('user_areas')
          .select('user_areas.user_id')
          .whereRef('user_areas.user_id', '=', 'users.id')
          .whereRef('user_areas.area_id', '=', 'areas.id'),
      ),
    ]),
  ]);
