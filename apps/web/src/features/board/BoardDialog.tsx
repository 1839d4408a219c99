import {
  type Board,
  type BoardMetric,
  BoardSaveBodySchema,
  type BoardTheme,
  type BuiltBoardType,
  boardMetrics,
  boardPageSeconds,
  boardTestLimits,
  boardThemes,
  builtBoardTypes,
} from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../components/FormModal';
import { NumberInput } from '../../components/NumberInput';
import { schemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { useMineCameras } from '../camera';
import { useFboxOptions } from '../device';
import { useSaveBoard } from './api';
import {
  boardThemeKeys,
  boardTypeKeys,
  isDataBoard,
  isMinerBoard,
  isPagedBoard,
  metricKeys,
} from './board-types';

interface BoardValues {
  type: BuiltBoardType;
  title: string;
  fbox_ids: number[];
  theme: BoardTheme;
  metric: BoardMetric;
  page_seconds: number | null;
  test_hours: number | null;
  pass_ratio: number | null;
  max_chip_temp: number | null;
  camera_id: number | null;
}

const shape = BoardSaveBodySchema.shape;

/**
 * A new board: the first type that can be opened, the whole mine, dark (a control room's wall);
 * a miner board coloured by status, turning pages at the contract's default pace.
 */
const blank: Partial<BoardValues> = {
  type: builtBoardTypes[0],
  fbox_ids: [],
  theme: 'dark',
  metric: 'status',
  page_seconds: boardPageSeconds.default,
  test_hours: boardTestLimits.hours.default,
  pass_ratio: boardTestLimits.passRatio.default,
  max_chip_temp: boardTestLimits.maxChipTemp.default,
  camera_id: null,
};

/** `fbox_ids.2` → `fbox_ids`: an error about one chosen FBOX shows on the select. */
const formField = (field: string) => field.replace(/^fbox_ids\.\d+$/, 'fbox_ids');

/**
 * Creates a board of the selected mine, or edits `board` (its type stays): the type (only those
 * whose page is built), a title, the FBOXes it covers (none chosen: the whole mine, FBOXes added
 * later included) and its colours; for a miner board, what colours its cells and how long each
 * page of FBOXes shows.
 */
export const BoardDialog = ({ board, onClose }: { board: Board | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<BoardValues>();
  const save = useSaveBoard();
  const fboxes = useFboxOptions();
  const type = Form.useWatch('type', form) ?? board?.type ?? blank.type;
  const minerBoard = type !== undefined && isMinerBoard(type);
  const paged = type !== undefined && isPagedBoard(type);
  const commissioning = type === 'minerBoardTest';
  const dataBoard = type !== undefined && isDataBoard(type);
  const cameras = useMineCameras(dataBoard);
  const fboxNames = new Map((fboxes.data ?? []).map((fbox) => [fbox.id, fbox.name]));
  const onFinish = async (values: BoardValues) => {
    try {
      await save.mutateAsync({
        ...(board && { id: board.id }),
        type: values.type,
        title: values.title,
        // As "1,2" (empty: the whole mine): the form encoding would send an array as JSON text,
        // which the contract does not read in a form field.
        fbox_ids: (values.fbox_ids ?? []).join(','),
        theme: values.theme,
        // Fields the type does not have: what the board had (or the defaults) is kept.
        metric: values.metric ?? board?.metric ?? 'status',
        page_seconds: values.page_seconds ?? board?.page_seconds ?? boardPageSeconds.default,
        test_hours: values.test_hours ?? board?.test_hours ?? boardTestLimits.hours.default,
        pass_ratio: values.pass_ratio ?? board?.pass_ratio ?? boardTestLimits.passRatio.default,
        max_chip_temp: values.max_chip_temp ?? board?.max_chip_temp ?? boardTestLimits.maxChipTemp.default,
        // '' is "no camera tile" in a form field.
        camera_id: dataBoard ? (values.camera_id ?? '') : '',
      });
      onClose();
    } catch (error) {
      showServerErrors(form, error, { field: formField });
    }
  };
  const labels = {
    type: t('board.field.type'),
    title: t('board.field.title'),
    fbox_ids: t('board.field.fboxes'),
    theme: t('board.field.theme'),
    metric: t('board.field.metric'),
    page_seconds: t('board.field.pageSeconds'),
    test_hours: t('board.field.testHours'),
    pass_ratio: t('board.field.passRatio'),
    max_chip_temp: t('board.field.maxChipTemp'),
    camera_id: t('board.field.camera'),
  };
  return (
    <FormModal
      open
      title={board ? t('board.dialog.editTitle') : t('board.dialog.createTitle')}
      form={form}
      saving={save.isPending}
      onClose={onClose}
    >
      <Form
        form={form}
        name="boardForm"
        layout="vertical"
        onFinish={onFinish}
        initialValues={board ?? blank}
        data-testid="board-form"
      >
        <Form.Item
          name="type"
          label={labels.type}
          required
          rules={[schemaRule(shape.type, { label: labels.type })]}
          extra={board ? undefined : t('board.dialog.typeHint')}
        >
          <Select
            disabled={board !== null}
            options={builtBoardTypes.map((type) => ({ value: type, label: t(boardTypeKeys[type]) }))}
            data-testid="board-type"
          />
        </Form.Item>
        <Form.Item
          name="title"
          label={labels.title}
          required
          rules={[schemaRule(shape.title, { label: labels.title })]}
        >
          <Input placeholder={t('board.dialog.titlePlaceholder')} data-testid="board-title" />
        </Form.Item>
        <Form.Item
          name="fbox_ids"
          label={labels.fbox_ids}
          rules={[schemaRule(shape.fbox_ids, { label: labels.fbox_ids })]}
          extra={t('board.dialog.fboxesHint')}
        >
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={fboxes.isPending}
            placeholder={t('board.fboxes.all')}
            options={(fboxes.data ?? []).map((fbox) => ({ value: fbox.id, label: fbox.name }))}
            data-testid="board-fboxes"
          />
        </Form.Item>
        <Form.Item name="theme" label={labels.theme} required>
          <Radio.Group
            optionType="button"
            options={boardThemes.map((theme) => ({ value: theme, label: t(boardThemeKeys[theme]) }))}
            data-testid="board-theme"
          />
        </Form.Item>
        {dataBoard && (
          <Form.Item name="camera_id" label={labels.camera_id} extra={t('board.dialog.cameraHint')}>
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={cameras.isPending}
              placeholder={t('board.dialog.noCamera')}
              notFoundContent={t('board.dialog.noCameras')}
              options={(cameras.data ?? []).map((camera) => ({
                value: camera.id,
                label: `${fboxNames.get(camera.fbox_id) ?? ''} · ${camera.name}`,
              }))}
              data-testid="board-camera"
            />
          </Form.Item>
        )}
        {minerBoard && (
          <Form.Item name="metric" label={labels.metric} required>
            <Select
              options={boardMetrics.map((metric) => ({ value: metric, label: t(metricKeys[metric]) }))}
              data-testid="board-metric"
            />
          </Form.Item>
        )}
        {commissioning && (
          <>
            <Form.Item
              name="test_hours"
              label={labels.test_hours}
              required
              rules={[schemaRule(shape.test_hours, { label: labels.test_hours })]}
              extra={t('board.dialog.testHoursHint')}
            >
              <NumberInput
                suffix={t('board.dialog.hoursUnit')}
                style={{ width: 160 }}
                data-testid="board-test-hours"
              />
            </Form.Item>
            <Form.Item
              name="pass_ratio"
              label={labels.pass_ratio}
              required
              rules={[schemaRule(shape.pass_ratio, { label: labels.pass_ratio })]}
              extra={t('board.dialog.passRatioHint')}
            >
              <NumberInput suffix="%" style={{ width: 160 }} data-testid="board-pass-ratio" />
            </Form.Item>
            <Form.Item
              name="max_chip_temp"
              label={labels.max_chip_temp}
              required
              rules={[schemaRule(shape.max_chip_temp, { label: labels.max_chip_temp })]}
              extra={t('board.dialog.maxChipTempHint')}
            >
              <NumberInput suffix="°C" style={{ width: 160 }} data-testid="board-max-chip-temp" />
            </Form.Item>
          </>
        )}
        {paged && (
          <Form.Item
            name="page_seconds"
            label={labels.page_seconds}
            rules={[schemaRule(shape.page_seconds, { label: labels.page_seconds })]}
            extra={t('board.dialog.pageSecondsHint')}
          >
            <NumberInput
              suffix={t('board.dialog.secondsUnit')}
              style={{ width: 160 }}
              data-testid="board-page-seconds"
            />
          </Form.Item>
        )}
      </Form>
    </FormModal>
  );
};
