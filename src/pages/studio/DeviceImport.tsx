// The studio's device import (SPEC §2, §5): a CSV file of devices, checked before anything is
// written — the file's shape and cells here, the entity model's rules by a dry run on the server —
// then created in one transaction, with the result.
import { InboxOutlined } from '@ant-design/icons';
import { useCustomMutation } from '@refinedev/core';
import { Alert, Button, List, Modal, Result, Space, Spin, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCsvFile } from '../../components/csv/useCsvFile.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { MAX_IMPORTED_ENTITIES } from '../../schemas/entityAttributeUpdate.ts';
import { columnOfField, DEVICE_CSV_COLUMNS, readDeviceCsv, type DeviceCsvProblem } from './deviceCsv.ts';
import { IMPORT_ENTITIES } from './queries.ts';

interface ImportAnswer { rows: number; created: number; refused: { row: number; field: string; message: string }[] }

export function DeviceImport({ deviceTypes, parentId, onDone, onClose }: {
  deviceTypes: { id: number; name: string }[]; parentId?: number; onDone(): void; onClose(): void;
}) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<string[]>([]);
  const [entities, setEntities] = useState<Record<string, unknown>[]>();
  const [created, setCreated] = useState<number>();
  const { reading, read } = useCsvFile();
  const importCall = useCustomMutation<{ import_entities: ImportAnswer }>();
  const busy = importCall.mutation.isPending;

  const describe = (problem: DeviceCsvProblem) => t(`deviceImport.${problem.key}`, { row: problem.row, column: problem.column });
  const refusals = (answer: ImportAnswer) => answer.refused.map((refusal) => `${describe({ key: 'wrongValue', row: refusal.row, column: columnOfField(refusal.field) })} ${refusal.message}`);

  /** import_entities: a dry run checks the devices by the model's rules, else they are created. */
  const importDevices = (devices: Record<string, unknown>[], dryRun: boolean, onImported: (answer: ImportAnswer) => void) => importCall.mutate(
    { url: '', method: 'post', values: {}, meta: graphqlMeta(IMPORT_ENTITIES, { entities: devices, dry: dryRun }), successNotification: false, errorNotification: false },
    { onSuccess: ({ data }) => onImported(data.import_entities), onError: (error) => setProblems([error.message]) },
  );

  const choose = async (file: File) => {
    setProblems([]);
    setEntities(undefined);
    const chosen = await read(file);
    if (chosen.problems) return setProblems(chosen.problems);
    const devices = readDeviceCsv(chosen.csv, deviceTypes);
    if (devices.problems.length) return setProblems(devices.problems.slice(0, 50).map(describe));
    if (devices.entities.length > MAX_IMPORTED_ENTITIES) return setProblems([t('deviceImport.tooMany', { limit: MAX_IMPORTED_ENTITIES })]);
    const placed = devices.entities.map((entity) => ({ ...entity, parent_id: parentId ?? null }));
    importDevices(placed, true, (check) => {
      if (check.refused.length) setProblems(refusals(check).slice(0, 50));
      else setEntities(placed);
    });
  };

  const create = (devices: Record<string, unknown>[]) => importDevices(devices, false, (answer) => {
    if (answer.refused.length) setProblems(refusals(answer));
    else {
      setCreated(answer.created);
      onDone();
    }
  });

  return (
    <Modal open title={t('deviceImport.title')} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      {created !== undefined ? (
        <Result status="success" title={t('deviceImport.created', { created })} extra={<Button type="primary" onClick={onClose}>{t('upload.close')}</Button>} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('deviceImport.columns')} <Typography.Text code>{DEVICE_CSV_COLUMNS.join(',')}</Typography.Text></Typography.Text>
          <Spin spinning={reading} tip={t('csv.reading')}>
            <Upload.Dragger accept=".csv,text/csv" maxCount={1} showUploadList={false} disabled={busy || reading} beforeUpload={(file) => { void choose(file); return false; }}>
              <p className="ant-upload-drag-icon"><InboxOutlined /></p>
              <p>{t('upload.choose')}</p>
            </Upload.Dragger>
          </Spin>
          {problems.length > 0 && (
            <Alert type="error" showIcon message={t('deviceImport.refused')}
              description={<List size="small" dataSource={problems} renderItem={(problem) => <List.Item>{problem}</List.Item>} data-testid="device-import-problems" />} />
          )}
          {entities && (
            <Space direction="vertical">
              <Alert type="success" showIcon message={t('deviceImport.ready', { rows: entities.length })} />
              <Button type="primary" loading={busy} onClick={() => create(entities)}>{t('deviceImport.create', { rows: entities.length })}</Button>
            </Space>
          )}
        </Space>
      )}
    </Modal>
  );
}
