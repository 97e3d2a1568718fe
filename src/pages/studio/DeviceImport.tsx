// The studio's device import (SPEC §2, §5): a CSV file of devices, checked before anything is
// written — the file's shape and cells here, the entity model's rules by a dry run on the server —
// then created in one transaction, with the result.
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, List, Modal, Result, Space, Spin, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCsvFile } from '../../components/csv/useCsvFile.ts';
import { graphqlRequest } from '../../providers/httpClient.ts';
import { MAX_IMPORTED_ENTITIES } from '../../schemas/entityAttributeUpdate.ts';
import { columnOfField, DEVICE_CSV_COLUMNS, readDeviceCsv, type DeviceCsvProblem } from './deviceCsv.ts';
import { IMPORT_ENTITIES } from './queries.ts';
import { errorMessageOf } from '../../providers/httpError.ts';

interface ImportAnswer { rows: number; created: number; refused: { row: number; field: string; message: string }[] }


export function DeviceImport({ deviceTypes, parentId, onDone, onClose }: {
  deviceTypes: { id: number; name: string }[]; parentId?: number; onDone(): void; onClose(): void;
}) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<string[]>([]);
  const [entities, setEntities] = useState<Record<string, unknown>[]>();
  const [created, setCreated] = useState<number>();
  const [busy, setBusy] = useState(false);
  const { reading, read } = useCsvFile();

  const describe = (problem: DeviceCsvProblem) => t(`deviceImport.${problem.key}`, { row: problem.row, column: problem.column });

  const choose = async (file: File) => {
    setProblems([]);
    setEntities(undefined);
    const chosen = await read(file);
    if (chosen.problems) return setProblems(chosen.problems);
    const devices = readDeviceCsv(chosen.csv, deviceTypes);
    if (devices.problems.length) return setProblems(devices.problems.slice(0, 50).map(describe));
    if (devices.entities.length > MAX_IMPORTED_ENTITIES) return setProblems([t('deviceImport.tooMany', { limit: MAX_IMPORTED_ENTITIES })]);
    const placed = devices.entities.map((entity) => ({ ...entity, parent_id: parentId ?? null }));
    setBusy(true);
    try {
      const { import_entities: check } = await graphqlRequest<{ import_entities: ImportAnswer }>(IMPORT_ENTITIES, { entities: placed, dry: true });
      if (check.refused.length) {
        setProblems(check.refused.slice(0, 50).map((refusal) => `${describe({ key: 'wrongValue', row: refusal.row, column: columnOfField(refusal.field) })} ${refusal.message}`));
      } else setEntities(placed);
    } catch (error) {
      setProblems([errorMessageOf(error)]);
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    try {
      const { import_entities: answer } = await graphqlRequest<{ import_entities: ImportAnswer }>(IMPORT_ENTITIES, { entities, dry: false });
      if (answer.refused.length) setProblems(answer.refused.map((refusal) => `${describe({ key: 'wrongValue', row: refusal.row, column: columnOfField(refusal.field) })} ${refusal.message}`));
      else {
        setCreated(answer.created);
        onDone();
      }
    } catch (error) {
      setProblems([errorMessageOf(error)]);
    } finally {
      setBusy(false);
    }
  };

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
              <Button type="primary" loading={busy} onClick={() => void create()}>{t('deviceImport.create', { rows: entities.length })}</Button>
            </Space>
          )}
        </Space>
      )}
    </Modal>
  );
}
