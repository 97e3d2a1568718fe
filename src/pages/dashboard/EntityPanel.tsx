// The selected entity (SPEC §2 entity view and detail): its type, groups, parent and children, its
// latest telemetry with its time, a lamp's lighting, and its attributes — edited by hand, with a
// confirmation, by users holding dashboard.entity.manually_editable. Its live updates merge in as
// they arrive.
import { CloseOutlined, EditOutlined } from '@ant-design/icons';
import { useCustomMutation, useOne } from '@refinedev/core';
import { App, Button, Card, Descriptions, Empty, Form, Input, InputNumber, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellData } from '../../components/layout/shellData.ts';
import { pickLocalized } from '../../shared/i18n/pickLocalized.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { isServerKeptAttribute, MANUAL_EDIT_PERMISSION } from '../../schemas/entityAttributeUpdate.ts';
import type { EntityDetailJson } from '../../schemas/entityJson.ts';
import { hasPermission, useTokenClaims } from '../../session/access.ts';
import { LampLightingSection } from '../lighting/LampLightingSection.tsx';
import { EntityRelations } from './EntityRelations.tsx';
import { useEntityUpdates } from './useEntityUpdates.ts';
import { UPDATE_ATTRIBUTES } from './queries.ts';
import { useErrorToast } from '../../components/useErrorToast.ts';
import { useAttributeName } from '../../i18n/attributeNames.ts';

type Editable = string | number | boolean;
/** The entity type category of lamps, which lighting profiles steer. */
const LAMP_CATEGORY = 'lighting';
const isEditable = (value: unknown): value is Editable => ['string', 'number', 'boolean'].includes(typeof value);

interface EntityPanelProps {
  id: number;
  detail: boolean;
  onDetail(open: boolean): void;
  onClose(): void;
  onSelect(id: number): void;
}

export function EntityPanel({ id, detail, onDetail, onClose, onSelect }: EntityPanelProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  // attribute names in the interface language (SPEC §1), as the charts and filters show them
  const attributeName = useAttributeName();
  const showError = useErrorToast();
  const { entityTypes } = useShellData();
  const { query } = useOne<EntityDetailJson>({ resource: 'entities', id, errorNotification: false });
  const [entity, setEntity] = useState<EntityDetailJson>();
  const [editing, setEditing] = useState(false);
  /** Counts the live updates, for the parts that read more of the entity than they carry (a lamp's lighting). */
  const [revision, setRevision] = useState(0);
  const [form] = Form.useForm<Record<string, Editable>>();
  const { mutateAsync: updateAttributes } = useCustomMutation<{ update_entity_attribute: { attributes: Record<string, unknown> } }>();
  const mayEdit = hasPermission(useTokenClaims().module_permissions, MANUAL_EDIT_PERMISSION);

  useEffect(() => setEntity(query.data?.data), [query.data]);
  // SPEC §4: while selected, its live changes merge in (each one: several can arrive within a frame)
  useEntityUpdates(id, (update) => {
    setRevision((count) => count + 1);
    setEntity((current) => current && {
      ...current,
      attributes: update.diff.attributes ? withoutNulls({ ...current.attributes, ...update.diff.attributes }) : current.attributes,
      geom: update.diff.geom !== undefined ? update.diff.geom : current.geom,
      telemetry: update.diff.telemetry ? { ...current.telemetry, ...update.diff.telemetry } : current.telemetry,
    });
  });

  if (query.isLoading) return <Card><Spin /></Card>;
  if (query.isError || !entity) return <Card><Empty description={t('errors.entityNotFound')} /></Card>;

  const name = pickLocalized(entity.name, i18n.language);
  const entityType = entityTypes.find((type) => type.id === entity.entity_type_id);
  const typeName = entityType?.name ?? entity.entity_type.name;
  const isLamp = (entityType?.category ?? entity.entity_type.category) === LAMP_CATEGORY;
  const attributeKeys = Object.keys(entity.attributes).sort();
  const editableKeys = attributeKeys.filter((key) => isEditable(entity.attributes[key]) && !isServerKeptAttribute(key));
  const time = (ms: number) => new Date(ms).toLocaleString(i18n.language);
  /** An attribute as read: the connection's in words and as a time, the rest as stored. */
  const shown = (key: string, value: unknown) => {
    if (key === 'active' && typeof value === 'boolean') return t(value ? 'map.active' : 'map.inactive');
    if (key === 'lastActivityTime' && typeof value === 'number') return time(value);
    return isEditable(value) ? String(value) : JSON.stringify(value);
  };

  const save = async () => {
    const values = await form.validateFields();
    const changed = Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== entity.attributes[key]));
    if (Object.keys(changed).length === 0) {
      // SPEC §5: an edit needs one attribute changed (the server's own answer is §8's NO_ATTRIBUTE_CHANGE)
      void message.warning(t('dashboard.entity.nothingChanged'));
      return;
    }
    modal.confirm({
      title: t('dashboard.entity.confirmTitle', { name }),
      content: Object.keys(changed).map(attributeName).join(', '),
      okText: t('buttons.save'),
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          const answer = await updateAttributes({
            url: '', method: 'post', values: {}, meta: graphqlMeta(UPDATE_ATTRIBUTES, { id, attributes: changed }), successNotification: false, errorNotification: false,
          });
          setEntity({ ...entity, attributes: answer.data.update_entity_attribute.attributes });
          setEditing(false);
          void message.success(t('notifications.updated', { name }));
        } catch {
          showError(t('notifications.updateFailed', { name }));
        }
      },
    });
  };

  return (
    <Card
      data-testid="entity-panel"
      title={<Typography.Text strong>{name}</Typography.Text>}
      extra={<Button type="text" icon={<CloseOutlined />} aria-label={t('dashboard.entity.close')} onClick={onClose} />}
      size="small"
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('dashboard.entity.type')}>{typeName}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.entity.groups')}>
          {entity.groups.length ? entity.groups.map((group) => <Tag key={group.id}>{group.name}</Tag>) : '—'}
        </Descriptions.Item>
      </Descriptions>
      <EntityRelations id={id} parentId={entity.parent_id} childIds={entity.children} childCount={entity.children_count} onSelect={onSelect} />

      <Typography.Title level={5}>{t('dashboard.entity.telemetry')}</Typography.Title>
      {Object.keys(entity.telemetry).length === 0 ? (
        <Typography.Text type="secondary">{t('dashboard.entity.noTelemetry')}</Typography.Text>
      ) : (
        <Descriptions size="small" column={1} data-testid="entity-telemetry">
          {Object.entries(entity.telemetry).map(([key, { ts, value }]) => (
            <Descriptions.Item key={key} label={attributeName(key)}>
              <span data-testid={`telemetry-${key}`}>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</span>
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>{time(ts)}</Typography.Text>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}

      {detail ? (
        <>
          <Typography.Title level={5}>{t('dashboard.entity.attributes')}</Typography.Title>
          {editing ? (
            <Form form={form} layout="vertical" initialValues={Object.fromEntries(editableKeys.map((key) => [key, entity.attributes[key]]))}>
              {editableKeys.map((key) => (
                <Form.Item key={key} name={key} label={attributeName(key)} valuePropName={typeof entity.attributes[key] === 'boolean' ? 'checked' : 'value'}>
                  {typeof entity.attributes[key] === 'boolean' ? <Switch /> : typeof entity.attributes[key] === 'number' ? <InputNumber style={{ width: '100%' }} /> : <Input />}
                </Form.Item>
              ))}
              <Space>
                <Button type="primary" onClick={() => void save()}>{t('buttons.save')}</Button>
                <Button onClick={() => setEditing(false)}>{t('buttons.cancel')}</Button>
              </Space>
            </Form>
          ) : (
            <>
              <Descriptions size="small" column={1} data-testid="entity-attributes">
                {attributeKeys.map((key) => (
                  <Descriptions.Item key={key} label={attributeName(key)}>{shown(key, entity.attributes[key])}</Descriptions.Item>
                ))}
              </Descriptions>
              <Space>
                {mayEdit && <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>{t('dashboard.entity.edit')}</Button>}
                <Button onClick={() => onDetail(false)}>{t('dashboard.entity.lessDetail')}</Button>
              </Space>
            </>
          )}
        </>
      ) : (
        <Button onClick={() => onDetail(true)}>{t('dashboard.entity.moreDetail')}</Button>
      )}

      {/* after the card's own facts and its Detail button, which stay in the first view */}
      {isLamp && <LampLightingSection id={id} revision={revision} />}
    </Card>
  );
}

function withoutNulls(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== null));
}
