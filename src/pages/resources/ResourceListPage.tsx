// The generated list of a model resource: server pagination, sorting, column filters and search
// kept in the address (bookmarkable), status tags, row and bulk actions, CSV export of the
// current view, and live changes from other users applied in place (no refetch).
import { CreateButton, DeleteButton, EditButton, ExportButton, getDefaultSortOrder, useTable } from '@refinedev/antd';
import { useCan, useExport, useUpdateMany, type BaseRecord, type CrudFilter, type LiveEvent } from '@refinedev/core';
import { Button, DatePicker, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FieldWidget } from '../../components/schema/FieldWidget.tsx';
import { fieldsWith, orderedFields, pageSizeOf, type FieldSchema } from '../../schemas/model.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { csvRows } from './csvExport.ts';
import { useFieldLabel } from '../../components/schema/useFieldLabel.ts';
import { RecordDrawer } from './RecordDrawer.tsx';
import { RecordValue } from './RecordValue.tsx';

type Row = BaseRecord & { id: number };

const filterOf = (filters: CrudFilter[], field: string, operator?: string) =>
  filters.find((filter) => 'field' in filter && filter.field === field && (!operator || filter.operator === operator))?.value as unknown;

/** Records changed live since the page was loaded, applied over the loaded page. */
function useLiveChanges(loadedAt: number) {
  const [changes, setChanges] = useState<{ created: Row[]; updated: Map<number, Row>; deleted: Set<number> }>({ created: [], updated: new Map(), deleted: new Set() });
  useEffect(() => setChanges({ created: [], updated: new Map(), deleted: new Set() }), [loadedAt]);
  const apply = (event: LiveEvent) => {
    const { id, record } = event.payload as { id: string; record: Row | null };
    const key = Number(id);
    setChanges((current) => {
      if (event.type === 'deleted') return { ...current, deleted: new Set(current.deleted).add(key) };
      if (event.type === 'created' && record) return { ...current, created: [record, ...current.created.filter((row) => row.id !== key)] };
      if (record) return { ...current, updated: new Map(current.updated).set(key, record) };
      return current;
    });
  };
  const merge = (rows: readonly Row[]) => {
    const known = new Set(rows.map((row) => row.id));
    return [...changes.created.filter((row) => !known.has(row.id)), ...rows]
      .filter((row) => !changes.deleted.has(row.id))
      .map((row) => changes.updated.get(row.id) ?? row);
  };
  return { apply, merge };
}

export default function ResourceListPage({ resource }: { resource: ModelResource }) {
  const { t } = useTranslation();
  const title = usePageTitle(resource.titleKey);
  const schema = resource.schema;
  const defaultSort = schema['x-default-sort'];
  const [detail, setDetail] = useState<Row | undefined>();
  const [selected, setSelected] = useState<number[]>([]);
  const { mutate: updateMany, mutation: bulkMutation } = useUpdateMany();
  const { data: canEdit } = useCan({ resource: resource.name, action: 'edit' });
  const { data: canDelete } = useCan({ resource: resource.name, action: 'delete' });

  let onLiveEvent: (event: LiveEvent) => void = () => undefined;
  const { tableProps, filters, setFilters, sorters, tableQuery } = useTable<Row>({
    resource: resource.name,
    syncWithLocation: true,
    pagination: { pageSize: pageSizeOf(schema) },
    sorters: { initial: defaultSort ? [{ field: defaultSort.field, order: defaultSort.order }] : [] },
    liveMode: 'manual',
    onLiveEvent: (event) => onLiveEvent(event),
  });
  const live = useLiveChanges(tableQuery.dataUpdatedAt);
  onLiveEvent = live.apply;

  const columnFields = orderedFields(schema.properties).filter((field) => schema.properties[field]['x-column']);
  const labelOf = useFieldLabel();
  const label = (field: string) => labelOf(schema, field);

  const { triggerExport, isLoading: exporting } = useExport<Row>({
    resource: resource.name,
    filters,
    sorters,
    pageSize: 200,
    maxItemCount: 10_000,
    filename: resource.name,
    mapData: (row) => csvRows([row], ['id', ...columnFields.filter((field) => field !== 'id')])[0],
  });

  const allows = (row: Row, action: 'edit' | 'delete') => resource.recordAllows?.(row, action) ?? true;
  const columns: ColumnsType<Row> = useMemo(() => [
    ...columnFields.map((field) => {
      const fieldSchema: FieldSchema = schema.properties[field];
      const enumValues = fieldSchema.enum ?? (fieldSchema.type === 'boolean' ? [true, false] : undefined);
      const filterable = fieldSchema['x-filter'] === true && enumValues;
      return {
        key: field,
        dataIndex: field,
        title: label(field),
        width: typeof fieldSchema['x-column'] === 'object' ? fieldSchema['x-column'].width : undefined,
        sorter: fieldSchema['x-sort'] ? true : undefined,
        defaultSortOrder: fieldSchema['x-sort'] ? getDefaultSortOrder(field, sorters) : undefined,
        ...(filterable ? {
          filters: enumValues.filter((value) => value !== null).map((value) => ({ text: t(`enumValues.${field}.${String(value)}`, { defaultValue: String(value) }), value: value as string })),
          filteredValue: (filterOf(filters, field) as string[] | undefined) ?? null,
        } : {}),
        render: (value: unknown, record: BaseRecord) => {
          const shown = <RecordValue field={field} schema={fieldSchema} value={value} record={record} />;
          return resource.rowLink && field === schema['x-title'] ? <Link to={resource.rowLink(record.id!)} data-testid="row-open">{shown}</Link> : shown;
        },
      };
    }),
    {
      key: 'actions',
      title: t('table.actions'),
      render: (_value: unknown, row: Row) => (
        <Space>
          {resource.detail === 'drawer'
            ? <Button size="small" onClick={() => setDetail(row)} data-testid="row-detail">{t('table.detail')}</Button>
            : canEdit?.can && allows(row, 'edit') && <EditButton hideText size="small" recordItemId={row.id} aria-label={t('buttons.edit')} data-testid="row-edit" />}
          {canDelete?.can && allows(row, 'delete') && (
            <DeleteButton hideText size="small" recordItemId={row.id} aria-label={t('buttons.delete')} data-testid="row-delete"
              confirmTitle={t('table.confirmDelete')} confirmOkText={t('buttons.delete')} confirmCancelText={t('form.cancel')}
              successNotification={() => ({ type: 'success', message: t('notifications.deleted', { name: t(`models.${schema.$id}.name`) }) })} />
          )}
        </Space>
      ),
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [schema, filters, sorters, canEdit, canDelete, t]);

  const searchable = fieldsWith(schema, 'x-search').length > 0;
  const replaceFilter = (field: string, value: unknown, operator: 'eq' | 'contains' | 'gte' | 'lte' = 'eq') =>
    setFilters([{ field, operator, value } as CrudFilter], 'merge');
  const rangeField = fieldsWith(schema, 'x-filter').find((field) => schema.properties[field]['x-filter'] === 'range');
  const textFilters = fieldsWith(schema, 'x-filter').filter((field) => schema.properties[field]['x-filter'] === true && !schema.properties[field].enum && schema.properties[field].type === 'string');
  const bulkField = resource.bulkField;
  // id-list filters (a board's groups): the field's own picker
  const idListFilters = fieldsWith(schema, 'x-filter').filter((field) => schema.properties[field]['x-filter'] === true && schema.properties[field].type === 'array' && schema.properties[field]['x-form'] !== false);
  const idsOf = (value: unknown) => [value].flat().flatMap((item) => String(item ?? '').split(',')).filter(Boolean).map(Number);

  return (
    <div data-testid={`list-${schema.$id}`}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={2} style={{ margin: 0 }}>{title}</Typography.Title>
        <Space wrap>
          <ExportButton onClick={triggerExport} loading={exporting} data-testid="list-export">{t('table.exportCsv')}</ExportButton>
          {resource.listActions && <resource.listActions />}
          <CreateButton accessControl={{ hideIfUnauthorized: true }} data-testid="list-create">{t('buttons.create')}</CreateButton>
        </Space>
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        {searchable && (
          <Input.Search allowClear placeholder={t('table.search')} aria-label={t('table.search')} defaultValue={filterOf(filters, 'search') as string | undefined}
            onSearch={(value) => replaceFilter('search', value, 'contains')} data-testid="list-search" style={{ width: 260 }} />
        )}
        {textFilters.map((field) => (
          <Input.Search key={field} allowClear placeholder={label(field)} aria-label={label(field)} defaultValue={filterOf(filters, field) as string | undefined}
            onSearch={(value) => replaceFilter(field, value)} style={{ width: 180 }} />
        ))}
        {idListFilters.map((field) => (
          <div key={field} style={{ minWidth: 220 }} data-testid={`list-filter-${field}`}>
            <FieldWidget schema={schema.properties[field]} name={field} label={label(field)} value={idsOf(filterOf(filters, field))}
              onChange={(ids: number[] | undefined) => replaceFilter(field, ids?.length ? ids : undefined)} />
          </div>
        ))}
        {rangeField && (
          <DatePicker.RangePicker showTime aria-label={label(rangeField)}
            defaultValue={[filterOf(filters, rangeField, 'gte'), filterOf(filters, rangeField, 'lte')].map((value) => (value ? dayjs(String(value)) : null)) as never}
            onChange={(range) => setFilters([
              { field: rangeField, operator: 'gte', value: range?.[0]?.toISOString() },
              { field: rangeField, operator: 'lte', value: range?.[1]?.toISOString() },
            ], 'merge')} />
        )}
        {bulkField && canEdit?.can && (
          <Space>
            <Select placeholder={t('table.bulkStatus')} aria-label={t('table.bulkStatus')} disabled={!selected.length} style={{ width: 180 }} data-testid="bulk-status"
              options={(schema.properties[bulkField].enum ?? []).map((value) => ({ value: value as string, label: t(`enumValues.${bulkField}.${String(value)}`) }))}
              onChange={(value) => updateMany({
                resource: resource.name, ids: selected, values: { [bulkField]: value },
                successNotification: () => ({ type: 'success', message: t('notifications.updatedMany', { count: selected.length }) }),
              }, { onSuccess: () => setSelected([]) })}
              loading={bulkMutation.isPending} value={null} />
            <Typography.Text type="secondary">{t('table.selected', { count: selected.length })}</Typography.Text>
          </Space>
        )}
      </Space>
      <Table
        {...tableProps}
        dataSource={live.merge((tableProps.dataSource ?? []) as Row[])}
        columns={columns}
        rowKey="id"
        locale={{ emptyText: t('errors.noData') }}
        rowSelection={bulkField && canEdit?.can ? {
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (row: Row) => ({ 'aria-label': t('table.selectRow', { id: row.id }) }) as never,
        } : undefined}
        // refine asks for scroll.x, whose hidden measuring row copies the select-all checkbox
        // (focusable inside aria-hidden); the wrapper scrolls instead (resources.css)
        scroll={undefined}
        className="record-table"
      />
      {resource.detail === 'drawer' && <RecordDrawer resource={resource} record={detail} onClose={() => setDetail(undefined)} />}
    </div>
  );
}
