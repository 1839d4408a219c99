import type { AlertRule } from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { AlertRuleRepository } from './alert-rule.repository.js';

/**
 * The alert rules of mines. A mine starts with `defaultAlertRules`: written in the transaction
 * that creates it (`AreaService.onCreate`); mines older than the alarm center got them from the
 * migration. Editing rules comes with the rule screens.
 */
export class AlertRuleService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Gives a new mine the default rules, in the transaction creating it. */
  addDefaults(trx: Transaction<DB>, areaId: number): Promise<void> {
    return new AlertRuleRepository(trx).insertDefaults(areaId, this.clock());
  }

  /** Every rule of a mine, oldest first. */
  list(areaId: number): Promise<AlertRule[]> {
    return new AlertRuleRepository(this.db).listOf(areaId);
  }
}
