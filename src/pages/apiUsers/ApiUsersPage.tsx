// The tenant's API users (SPEC §6): the list's columns are the schema's x-column fields; creating
// one shows its token once; a password change revokes its tokens; deleting stops them at once.
import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useCan, useCustom, useCustomMutation } from '@refinedev/core';
import { App, Button, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../components/schema/useFieldLabel.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { orderedFields } from '../../schemas/model.ts';
import { useTokenClaims } from '../../session/access.ts';
import { ApiUserCell } from './ApiUserCell.tsx';
import { CreateApiUserModal } from './CreateApiUserModal.tsx';
import { PasswordModal } from './PasswordModal.tsx';
import { API_USER_DELETE, API_USER_LIST, API_USER_OPERATIONS } from './queries.ts';
import { SecretRow, TokenModal, type CreatedApiUser } from './TokenModal.tsx';
import './apiUsers.css';

type Row = { id: string; username: string } & Record<string, unknown>;

export default function ApiUsersPage({ resource }: { resource: ModelResource }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const title = usePageTitle(resource.titleKey);
  const schema = resource.schema;
  const labelOf = useFieldLabel();
  const { tenant } = useTokenClaims();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiUser>();
  const [changing, setChanging] = useState<Row>();
  const { data: canCreate } = useCan({ resource: resource.name, action: 'create' });
  const { data: canEdit } = useCan({ resource: resource.name, action: 'edit' });
  const { data: canDelete } = useCan({ resource: resource.name, action: 'delete' });
  const { query } = useCustom<Record<string, Row[]>>({ url: '', method: 'post', meta: graphqlMeta(API_USER_LIST) });
  const rows = query.data?.data[API_USER_OPERATIONS.list] ?? [];
  const { mutate: remove } = useCustomMutation();

  const deleteUser = (row: Row) => remove({
    url: '', method: 'post', values: {}, meta: graphqlMeta(API_USER_DELETE, { userId: row.id }),
    successNotification: false, errorNotification: (error) => ({ type: 'error', message: error?.message ?? t('errors.generic') }),
  }, {
    onSuccess: () => {
      void message.success(t('apiUsers.deleted', { username: row.username }));
      void query.refetch();
    },
  });

  const columns: ColumnsType<Row> = [
    ...orderedFields(schema.properties).filter((field) => schema.properties[field]['x-column']).map((field) => ({
      key: field, dataIndex: field, title: labelOf(schema, field),
      render: (value: unknown) => <ApiUserCell field={field} schema={schema.properties[field]} value={value} />,
    })),
    {
      key: 'actions',
      title: t('table.actions'),
      render: (_value: unknown, row: Row) => (
        <Space wrap>
          {canEdit?.can && (
            <Button size="small" icon={<KeyOutlined />} onClick={() => setChanging(row)} data-testid="api-user-password">{t('apiUsers.changePassword')}</Button>
          )}
          {canDelete?.can && (
            <Popconfirm title={t('apiUsers.deleteConfirm', { username: row.username })} description={t('apiUsers.deleteHint')}
              okText={t('buttons.delete')} cancelText={t('form.cancel')} okButtonProps={{ danger: true, 'data-testid': 'api-user-delete-confirm' } as never} onConfirm={() => deleteUser(row)}>
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('apiUsers.deleteLabel', { username: row.username })} data-testid="api-user-delete" />
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="api-users-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Typography.Title level={2} style={{ margin: 0 }}>{title}</Typography.Title>
        {canCreate?.can && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="api-user-create">{t('apiUsers.create')}</Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary">{t('apiUsers.intro')}</Typography.Paragraph>
      {tenant && <div style={{ maxWidth: 520, marginBottom: 16 }}><SecretRow label={t('apiUsers.tenantId')} value={tenant} testId="api-users-tenant" /></div>}
      <Table rowKey="id" dataSource={rows} columns={columns} loading={query.isLoading} pagination={false}
        // antd greys an empty table's text below AA contrast: the app's text colour instead
        locale={{ emptyText: <Typography.Text>{t('apiUsers.empty')}</Typography.Text> }} className="record-table" data-testid="api-users-table" />
      <CreateApiUserModal open={creating} onClose={() => setCreating(false)} onCreated={(answer) => {
        setCreating(false);
        setCreated(answer);
        void query.refetch();
      }} />
      <TokenModal created={created} onClose={() => setCreated(undefined)} />
      <PasswordModal user={changing} onClose={() => setChanging(undefined)} onChanged={() => {
        setChanging(undefined);
        void query.refetch();
      }} />
    </div>
  );
}
