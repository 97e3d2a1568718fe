// The "data table" chart: an antd table of the KPI's points (time, series, entity, value), each
// value in its colour from the mapping, page size definition.page_size (10 when unset).
import { Table, type TableColumnsType } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, type ChartModel } from './chartModel.ts';
import { dataTableRows, type DataTableRow } from './dataTableRows.ts';

export function KpiDataTable({ model, onDrawn }: { model: ChartModel; onDrawn: () => void }) {
  const { t } = useTranslation();
  const rows = useMemo(() => dataTableRows(model), [model]);
  useEffect(onDrawn, [onDrawn, rows]);
  const columns: TableColumnsType<DataTableRow> = [
    { key: 'time', dataIndex: 'time', title: t('charts.columns.time') },
    { key: 'series', dataIndex: 'series', title: t('charts.columns.series') },
    { key: 'entity', dataIndex: 'entity', title: t('charts.columns.entity') },
    {
      key: 'value', dataIndex: 'value', title: t('charts.columns.value'), align: 'right',
      render: (value: string, row) => <span data-testid="kpi-table-value" style={row.colour ? { color: row.colour, fontWeight: 600 } : undefined}>{value}</span>,
    },
  ];
  return (
    <Table<DataTableRow>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={rows}
      pagination={{ pageSize: model.definition.page_size ?? DEFAULT_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }}
    />
  );
}
