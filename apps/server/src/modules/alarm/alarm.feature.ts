import { defineFeature } from '../feature.js';
import { AlarmEngine } from './alarm.engine.js';
import { alarmMigration } from './alarm.migration.js';
import { alarmHandlers } from './alarm.routes.js';
import { AlertRuleService } from './alarm.service.js';
import { alarmMetricsMigration } from './alarm-metrics.migration.js';
import { alarmSilenceMigration } from './alarm-silence.migration.js';
import { AlertService } from './alert.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    alertRules: AlertRuleService;
    alarms: AlarmEngine;
    alertList: AlertService;
  }
}

/**
 * The alarm center (issue 13): alert rules per mine and their evaluation on telemetry and offline
 * detection, and the lists of a mine's open and closed alerts.
 */
export const alarmFeature = defineFeature({
  name: 'alarm',
  migrations: (dialect) => ({
    '0015_alarm': alarmMigration(dialect),
    '0018_alarm_silences': alarmSilenceMigration,
    '0019_alarm_metrics': alarmMetricsMigration,
  }),
  register(app) {
    const engine = new AlarmEngine({ db: app.db, clock: app.clock, live: app.live, log: app.log });
    app.decorate('alarms', engine);
    const rules = new AlertRuleService(app);
    app.decorate('alertRules', rules);
    app.areas.onCreate((trx, mine) => rules.addDefaults(trx, mine.id));
    app.ingest.onApplied((applied) => engine.onTelemetry(applied));
    app.deviceStatus.onChange((change) => engine.onStatus(change));
    app.devices.onRemoved(async (removed) => {
      await engine.closeRemoved(removed);
    });
    app.jobs.add({ name: 'alarm-offline', periodMs: 10_000, run: () => engine.openDueOffline() });
    app.addHook('onClose', async () => engine.stop());
    app.decorate('alertList', new AlertService(app));
  },
  handlers: alarmHandlers,
});
