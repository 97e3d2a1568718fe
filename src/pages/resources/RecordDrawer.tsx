// A record's detail in a drawer (logs): every field, and the writable enum fields (a log's
// status) changed in place.
import { useCan, useUpdate, type BaseRecord } from '@refinedev/core';
import { Descriptions, Drawer, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { orderedFields, writableFields } from '../../schemas/model.ts';
import { useFieldLabel } from '../../components/schema/useFieldLabel.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import { RecordValue } from './RecordValue.tsx';

export function RecordDrawer({ resource, record, onClose }: { resource: ModelResource; record?: BaseRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const schema = resource.schema;
  const labelOf = useFieldLabel();
  const { mutate: update, mutation } = useUpdate();
  const { data: canEdit } = useCan({ resource: resource.name, action: 'edit' });
  const editable = writableFields(schema).filter((field) => schema.properties[field].enum);
  return (
    <Drawer open={!!record} onClose={onClose} title={t(`models.${schema.$id}.name`)} width={520} data-testid="record-drawer">
      {record && (
        <Descriptions column={1} bordered size="small">
          {orderedFields(schema.properties).map((field) => (
            <Descriptions.Item key={field} label={labelOf(schema, field)}>
              {editable.includes(field) && canEdit?.can ? (
                <Select value={record[field] as string} aria-label={labelOf(schema, field)} loading={mutation.isPending}
                  style={{ minWidth: 160 }} data-testid={`drawer-${field}`}
                  options={(schema.properties[field].enum ?? []).map((value) => ({ value: value as string, label: t(`enumValues.${field}.${String(value)}`) }))}
                  onChange={(value) => update({
                    resource: resource.name, id: record.id!, values: { [field]: value },
                    successNotification: () => ({ type: 'success', message: t('notifications.updated', { name: t(`models.${schema.$id}.name`) }) }),
                  }, { onSuccess: ({ data }) => Object.assign(record, data) })} />
              ) : (
                <RecordValue field={field} schema={schema.properties[field]} value={record[field]} record={record} />
              )}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Drawer>
  );
}
