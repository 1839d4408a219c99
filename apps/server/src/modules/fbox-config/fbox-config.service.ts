import {
  builtinFboxConfig,
  Code,
  type CommandKind,
  type CommandStatus,
  type FboxConfig,
  type FboxConfigField,
  type FboxConfigSaveBody,
  type FboxDefaults,
  type FboxDefaultsSaveBody,
  type FboxSettingBody,
  fboxConfigFields,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { commandView } from '../../devices/command.service.js';
import { parseJson, statusOf } from '../../devices/device-values.js';
import { ApiError } from '../../lib/api-error.js';
import { AreaRepository } from '../area/area.repository.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import {
  type ConfigNumbers,
  delayOf,
  FboxConfigRepository,
  type OwnNumbers,
} from './fbox-config.repository.js';
import { configCommandParams, noOwnValues, pickFields, resolveConfig } from './resolve.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'areas' | 'commands'>;

const voltageError = (field: 'voltage_min' | 'voltage_max') =>
  new ApiError(Code.VALIDATION, 'api.validation', undefined, {
    errors: [{ field, rule: 'rule.voltageMinBelowMax' }],
  });

/**
 * FBOX configuration: per-mine defaults (`admin/area/config`), one box's effective configuration
 * (own → mine default → account/built-in) and saving it, which stores it on the box and sends it to
 * the gateway as a `fbox.config` command. Also the Delay Switch lookups PDU batch actions pace with.
 */
export class FboxConfigService {
  constructor(private readonly deps: Deps) {}

  private repo(db = this.deps.db) {
    return new FboxConfigRepository(db);
  }

  private async defaultsOf(areaId: number): Promise<FboxDefaults> {
    const row = await this.repo().defaults(areaId);
    return row
      ? { area_id: areaId, custom: true, updated_at: row.updated_at, ...pickFields(row) }
      : { area_id: areaId, custom: false, updated_at: null, ...builtinFboxConfig };
  }

  async listDefaults(user: AreaCaller, areaId: number): Promise<FboxDefaults> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.defaultsOf(areaId);
  }

  /** One default set per mine: saving replaces it. Applies to FBOXes created from now on. */
  async saveDefaults(user: SessionUser, body: FboxDefaultsSaveBody): Promise<FboxDefaults> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const { area_id: areaId, ...values } = body;
    await this.repo().upsertDefaults(areaId, pickFields(values), user.id, this.deps.clock());
    return this.defaultsOf(areaId);
  }

  /** Back to the built-in defaults. */
  async removeDefaults(user: SessionUser, areaId: number): Promise<FboxDefaults> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    await this.repo().removeDefaults(areaId);
    return this.defaultsOf(areaId);
  }

  /**
   * The configuration a new FBOX of `areaId` starts with: the mine's defaults (else built-ins), with
   * the voltages the create form gave as the box's own values.
   * @throws ApiError VALIDATION when a given voltage does not fit the inherited other end.
   */
  async initialFor(
    areaId: number,
    given: { voltage_min?: number | undefined; voltage_max?: number | undefined },
  ): Promise<{ own: OwnNumbers; values: ConfigNumbers; settings: Record<string, number> }> {
    const repo = this.repo();
    const mine = await repo.defaults(areaId);
    const own = {
      ...noOwnValues(),
      ...(given.voltage_min !== undefined && { voltage_min: given.voltage_min }),
      ...(given.voltage_max !== undefined && { voltage_max: given.voltage_max }),
    };
    const owner = await new AreaRepository(this.deps.db).ownerOf(areaId);
    const { values } = resolveConfig(own, mine && pickFields(mine), await repo.accountDelay(owner ?? 0));
    if (values.voltage_min >= values.voltage_max)
      throw voltageError(given.voltage_min !== undefined ? 'voltage_min' : 'voltage_max');
    return { own, values, settings: settingsOf(values) };
  }

  /** Records the own values a new FBOX was created with (only when the form gave some). */
  async recordOwn(fboxId: number, own: OwnNumbers): Promise<void> {
    if (fboxConfigFields.every((f) => own[f] === null)) return;
    await this.repo().upsertOwn(fboxId, own, this.deps.clock());
  }

  /** Keeps own voltages in step when the FBOX edit form changes them. */
  async recordEditedVoltages(
    fboxId: number,
    edited: { voltage_min?: number | undefined; voltage_max?: number | undefined },
  ): Promise<void> {
    if (edited.voltage_min === undefined && edited.voltage_max === undefined) return;
    const repo = this.repo();
    const own = (await repo.own(fboxId)) ?? noOwnValues();
    await repo.upsertOwn(
      fboxId,
      {
        ...pickFields(own),
        ...(edited.voltage_min !== undefined && { voltage_min: edited.voltage_min }),
        ...(edited.voltage_max !== undefined && { voltage_max: edited.voltage_max }),
      },
      this.deps.clock(),
    );
  }

  async detail(user: AreaCaller, areaId: number, id: number): Promise<FboxConfig> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.read(areaId, id);
  }

  private async read(areaId: number, id: number): Promise<FboxConfig> {
    const repo = this.repo();
    const box = (await repo.box(areaId, id)) ?? notFound();
    const [ownRow, mine, command] = await Promise.all([
      repo.own(id),
      repo.defaults(areaId),
      repo.lastConfigCommand(id),
    ]);
    const own = ownRow ? pickFields(ownRow) : noOwnValues();
    const { values, sources } = resolveConfig(
      own,
      mine && pickFields(mine),
      delayOf(box.owner_global_config),
    );
    const settings = parseJson<Partial<Record<FboxConfigField, number>>>(box.settings, {});
    return {
      fbox_id: box.id,
      area_id: box.area_id,
      fbox_name: box.name,
      status: statusOf(box.online),
      values,
      sources,
      own,
      applied: {
        voltage_min: box.voltage_min,
        voltage_max: box.voltage_max,
        temperature_max: settings.temperature_max ?? builtinFboxConfig.temperature_max,
        humidity_max: settings.humidity_max ?? builtinFboxConfig.humidity_max,
        delay_switch_value: settings.delay_switch_value ?? values.delay_switch_value,
        reporting_interval: box.reporting_interval_s,
      },
      last_command: command
        ? commandView({
            ...command,
            kind: command.kind as CommandKind,
            status: command.status as CommandStatus,
            params: parseJson<Record<string, unknown>>(command.params, {}),
          })
        : null,
    };
  }

  /**
   * Stores the box's own values (a number sets, null inherits, absent keeps), applies the effective
   * configuration to the box and sends it to the gateway. Nothing is stored when the result is invalid.
   */
  async save(
    user: SessionUser,
    body: FboxConfigSaveBody,
  ): Promise<{ command_id: string; status: CommandStatus; config: FboxConfig }> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const now = this.deps.clock();
    const values = await this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const box = (await repo.box(body.area_id, body.id)) ?? notFound();
      const stored = await repo.own(body.id);
      const own = stored ? pickFields(stored) : noOwnValues();
      for (const field of fboxConfigFields) {
        const value = body[field];
        if (value !== undefined) own[field] = value;
      }
      const mine = await repo.defaults(body.area_id);
      const { values } = resolveConfig(own, mine && pickFields(mine), delayOf(box.owner_global_config));
      if (values.voltage_min >= values.voltage_max)
        throw voltageError(
          body.voltage_max !== undefined && body.voltage_min === undefined ? 'voltage_max' : 'voltage_min',
        );
      await repo.upsertOwn(body.id, own, now);
      const settings = { ...parseJson<Record<string, unknown>>(box.settings, {}), ...settingsOf(values) };
      await repo.apply(body.id, values, JSON.stringify(settings), now);
      return values;
    });
    const command = await this.deps.commands.issue({
      areaId: body.area_id,
      fboxId: body.id,
      kind: 'fbox.config' satisfies CommandKind,
      target: {},
      params: configCommandParams(values),
      userId: user.id,
    });
    return {
      command_id: command.id,
      status: command.status,
      config: await this.read(body.area_id, body.id),
    };
  }

  /** The legacy box setting (`fbox.boxlist/setting`): the same as saving those fields as own values. */
  async saveSetting(
    user: SessionUser,
    body: FboxSettingBody,
  ): Promise<{ command_id: string; status: CommandStatus }> {
    const { command_id, status } = await this.save(user, {
      area_id: body.area_id,
      id: body.id,
      voltage_min: body.voltage_min,
      voltage_max: body.voltage_max,
      temperature_max: body.temperature_max,
      humidity_max: body.humidity_max,
      reporting_interval: body.reporting_interval,
    });
    return { command_id, status };
  }

  /**
   * The account Delay Switch of a master, ms (spec §5: the pause between power-unit batch switches).
   * PDU batch actions (the task engine's PDU reboots) wait this long between batches.
   */
  delaySwitchMs(masterId: number): Promise<number> {
    return this.repo().accountDelay(masterId);
  }

  /**
   * The pause between PDU batch switches on one FBOX, ms: the box's own Delay Switch, else its mine's
   * default, else the account's. 0 for an unknown box.
   */
  async delaySwitchMsForFbox(fboxId: number): Promise<number> {
    const row = await this.repo().delaysOfBox(fboxId);
    if (!row) return 0;
    return row.own ?? row.mine ?? delayOf(row.global_config);
  }
}

/** The box `settings` keys holding the thresholds and delay (read by the FBOX detail). */
const settingsOf = (values: ConfigNumbers) => ({
  temperature_max: values.temperature_max,
  humidity_max: values.humidity_max,
  delay_switch_value: values.delay_switch_value,
});
