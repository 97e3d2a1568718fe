// A device's telemetry from a CSV file, in 4 steps (SPEC §5): choose a file under 2 MB → map its
// columns to the device's CSV header definition → the server checks every row (a dry run of
// import_telemetries_from_csv, so the rules are the server's own) and the share of valid rows is
// shown → upload in chunks of 5,000 rows with a progress bar, and the result.
import { InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { useCustom, useCustomMutation, type HttpError } from '@refinedev/core';
import { Alert, Button, List, Modal, Progress, Result, Select, Space, Spin, Steps, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParsedCsv } from '../../components/csv/parseCsv.ts';
import { useCsvFile } from '../../components/csv/useCsvFile.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { IMPORT_ROWS_PER_CALL } from '../../schemas/deviceOperations.ts';
import { CSV_HEADER_DEFINITION, IMPORT_TELEMETRY } from './queries.ts';

interface Column { name: string; type: string }
interface ImportAnswer { rows: number; valid: number; stored: number; refused_total: number; refused: { row: number; column: string; message: string }[] }

const IGNORE = '';

type ImportChunk = (variables: { data: Record<string, string>[]; first: number; dry: boolean }) => Promise<ImportAnswer>;

/** Sends the rows in chunks; `onChunk` hears the rows done so far. */
async function importRows(importChunk: ImportChunk, rows: Record<string, string>[], dryRun: boolean, onChunk: (done: number) => void): Promise<ImportAnswer> {
  const total: ImportAnswer = { rows: 0, valid: 0, stored: 0, refused_total: 0, refused: [] };
  for (let start = 0; start < rows.length; start += IMPORT_ROWS_PER_CALL) {
    const chunk = rows.slice(start, start + IMPORT_ROWS_PER_CALL);
    const answer = await importChunk({ data: chunk, first: start + 1, dry: dryRun });
    total.rows += answer.rows;
    total.valid += answer.valid;
    total.stored += answer.stored;
    total.refused_total += answer.refused_total;
    total.refused.push(...answer.refused.slice(0, Math.max(0, 20 - total.refused.length)));
    onChunk(start + chunk.length);
  }
  return total;
}

export function TelemetryUpload({ id, onClose }: { id: number; onClose(): void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [problems, setProblems] = useState<string[]>([]);
  const [csv, setCsv] = useState<ParsedCsv>();
  const [columns, setColumns] = useState<Column[]>([]);
  const [mapping, setMapping] = useState<string[]>([]);
  const [check, setCheck] = useState<ImportAnswer>();
  const [done, setDone] = useState(0);
  const [result, setResult] = useState<ImportAnswer>();
  const { reading, read } = useCsvFile();
  // read when a file is chosen, as often as one is
  const definitionCall = useCustom<{ entity_csv_header_definition: { json_csv_header_definition: Column[] } }>({
    url: '', method: 'post', meta: graphqlMeta(CSV_HEADER_DEFINITION, { id }), errorNotification: false, queryOptions: { enabled: false },
  });
  const importCall = useCustomMutation<{ import_telemetries_from_csv: ImportAnswer }>();
  const busy = importCall.mutation.isPending;
  const importChunk: ImportChunk = (variables) => importCall.mutateAsync({
    url: '', method: 'post', values: {}, meta: graphqlMeta(IMPORT_TELEMETRY, { id, ...variables }), successNotification: false, errorNotification: false,
  }).then(({ data }) => data.import_telemetries_from_csv);

  const rowsToSend = () => (csv?.rows ?? []).map((cells) => Object.fromEntries(
    mapping.map((target, index) => [target, cells[index] ?? '']).filter(([target]) => target !== IGNORE),
  ));

  const choose = async (file: File) => {
    setProblems([]);
    const chosen = await read(file);
    if (chosen.problems) return setProblems(chosen.problems);
    const parsed = chosen.csv;
    if (!parsed.header.length || !parsed.rows.length) return setProblems([t('upload.empty')]);
    const { data: answer, error } = await definitionCall.query.refetch();
    if (error || !answer) return setProblems([error?.message ?? t('errors.generic')]);
    const known = answer.data.entity_csv_header_definition.json_csv_header_definition;
    setColumns(known);
    setCsv(parsed);
    setMapping(parsed.header.map((name) => known.find((column) => column.name.toLowerCase() === name.toLowerCase())?.name ?? IGNORE));
    setStep(1);
  };

  const run = (dryRun: boolean) => {
    setProblems([]);
    setDone(0);
    importRows(importChunk, rowsToSend(), dryRun, setDone).then((answer) => {
      if (dryRun) setCheck(answer);
      else setResult(answer);
      setStep(dryRun ? 2 : 3);
    }, (error: HttpError) => setProblems([error.message]));
  };

  const total = csv?.rows.length ?? 0;
  const share = (count: number) => (total ? Math.round((count / total) * 1000) / 10 : 0);
  return (
    <Modal open title={t('upload.title')} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Steps current={step} size="small" style={{ marginBottom: 16 }}
        items={[{ title: t('upload.steps.file') }, { title: t('upload.steps.columns') }, { title: t('upload.steps.check') }, { title: t('upload.steps.upload') }]} />
      {problems.length > 0 && (
        <Alert type="error" showIcon message={problems[0]} style={{ marginBottom: 12 }} data-testid="upload-problems"
          description={problems.length > 1 && <List size="small" dataSource={problems.slice(1)} renderItem={(problem) => <List.Item>{problem}</List.Item>} />} />
      )}
      {step === 0 && (
        <Spin spinning={reading} tip={t('csv.reading')}>
          <Upload.Dragger accept=".csv,text/csv" maxCount={1} showUploadList={false} disabled={reading} beforeUpload={(file) => { void choose(file); return false; }}>
            <p className="ant-upload-drag-icon"><InboxOutlined /></p>
            <p>{t('upload.choose')}</p>
            <Typography.Text>{t('upload.limit')}</Typography.Text>
          </Upload.Dragger>
        </Spin>
      )}
      {step === 1 && csv && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('upload.mapHint', { rows: total })}</Typography.Text>
          <Table size="small" pagination={false} rowKey="index"
            dataSource={csv.header.map((name, index) => ({ index, name, sample: csv.rows[0]?.[index] ?? '' }))}
            columns={[
              { title: t('upload.fileColumn'), dataIndex: 'name' },
              { title: t('upload.sample'), dataIndex: 'sample' },
              {
                title: t('upload.deviceColumn'), dataIndex: 'index',
                render: (index: number) => (
                  <Select aria-label={`${t('upload.deviceColumn')}: ${csv.header[index]}`} style={{ width: 200 }} value={mapping[index]}
                    onChange={(value: string) => setMapping(mapping.map((old, at) => (at === index ? value : old)))}
                    options={[{ value: IGNORE, label: t('upload.ignore') }, ...columns.map((column) => ({ value: column.name, label: `${column.name} (${column.type})` }))]} />
                ),
              },
            ]} />
          {!mapping.includes('ts') && <Alert type="warning" showIcon message={t('upload.needTs')} />}
          <Button type="primary" disabled={!mapping.includes('ts')} loading={busy} onClick={() => run(true)}>{t('upload.check')}</Button>
          {busy && <Progress percent={Math.round((done / total) * 100)} />}
        </Space>
      )}
      {step === 2 && check && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text strong data-testid="upload-summary">{t('upload.summary', { valid: check.valid, total, share: share(check.valid) })}</Typography.Text>
          {check.refused.length > 0 && (
            <Table size="small" pagination={false} rowKey={(row) => `${row.row}-${row.column}`} dataSource={check.refused}
              columns={[{ title: t('upload.row'), dataIndex: 'row' }, { title: t('upload.column'), dataIndex: 'column' }, { title: t('upload.problem'), dataIndex: 'message' }]} />
          )}
          <Space>
            <Button onClick={() => setStep(1)}>{t('upload.back')}</Button>
            <Button type="primary" icon={<UploadOutlined />} disabled={!check.valid} loading={busy} onClick={() => run(false)}>{t('upload.upload', { rows: check.valid })}</Button>
          </Space>
          {busy && <Progress percent={Math.round((done / total) * 100)} data-testid="upload-progress" />}
        </Space>
      )}
      {step === 3 && result && (
        <Result status={result.refused_total ? 'warning' : 'success'} title={t('upload.done', { stored: result.stored, total })}
          subTitle={result.refused_total ? t('upload.refused', { rows: result.refused_total }) : undefined}
          extra={<Button type="primary" onClick={onClose}>{t('upload.close')}</Button>} />
      )}
    </Modal>
  );
}
