// The owner's dialog of a board's shares (SPEC §3): who it is shared with and how (view or edit),
// sharing with one more (sharing again changes the scope), and removing a share.
import { DeleteOutlined } from '@ant-design/icons';
import { useCreate, useCustom, useDelete, useList, type HttpError } from '@refinedev/core';
import { Alert, Button, Form, Modal, Select, Space, Table, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import type { ApiHttpError } from '../../providers/httpError.ts';
import type { BoardKind } from '../../resources/boardKinds.ts';
import { apiUserSchema } from '../../schemas/apiUser.ts';
import { SHARE_SCOPES } from '../../schemas/enums.ts';
import { actionAllowed, type ModelSchema } from '../../schemas/model.ts';
import { grantsOf, useTokenClaims } from '../../session/access.ts';
import { API_USER_LIST, SHARE_USER_LIST, type ShareCandidate } from './queries.ts';

interface ShareRow { id: number; resource: string; requester: string; scope: string }
type Outcome = { type: 'success' | 'error'; text: string };

/** The dialog's words for the server's refusals; other errors say what the server said. */
function refusal(t: TFunction, error: HttpError): string {
  const { code, params } = error as Partial<ApiHttpError>;
  if (code === 'SHARE_WITH_OWNER') return t('boards.share.withOwner');
  if (code === 'FORBIDDEN' && params?.scope) return t('boards.share.scopeForbidden', { scope: t(`enumValues.scopes.${params.scope}`, { defaultValue: String(params.scope) }) });
  if (code === 'REFERENCE_NOT_FOUND') return t('boards.share.notFound');
  return error.message;
}

export function ShareDialog({ kind, resourceUuid, open, onClose }: { kind: BoardKind; resourceUuid: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const claims = useTokenClaims();
  const titleId = useId();
  const [outcome, setOutcome] = useState<Outcome>();
  const [form] = Form.useForm<{ requester: string; scope: string }>();
  const sharesCall = useList<ShareRow>({ resource: kind.share.name, pagination: { mode: 'off' }, queryOptions: { enabled: open } });
  const shares = (sharesCall.result.data ?? []).filter((share) => share.resource === resourceUuid);
  const usersCall = useCustom<{ share_user_list: ShareCandidate[] }>({
    url: '', method: 'post', meta: graphqlMeta(SHARE_USER_LIST, { kind: kind.sharesWithApiUsers ? 'public_api' : 'performance' }), errorNotification: false,
    queryOptions: { enabled: open },
  });
  const readsApiUsers = kind.sharesWithApiUsers && actionAllowed(grantsOf(claims), apiUserSchema as unknown as ModelSchema, 'read');
  const apiUsersCall = useCustom<{ api_user_list: ShareCandidate[] }>({
    url: '', method: 'post', meta: graphqlMeta(API_USER_LIST), errorNotification: false, queryOptions: { enabled: open && readsApiUsers },
  });
  const users = usersCall.result.data?.share_user_list ?? [];
  const apiUsers = readsApiUsers ? apiUsersCall.result.data?.api_user_list ?? [] : [];
  const nameOf = (id: string) => {
    const user = users.find((candidate) => candidate.id === id);
    if (user) return user.email ? `${user.username} (${user.email})` : user.username;
    const apiUser = apiUsers.find((candidate) => candidate.id === id);
    return apiUser ? t('boards.share.apiUser', { name: apiUser.username }) : id;
  };
  const { mutate: share, mutation: shareMutation } = useCreate<ShareRow>();
  const { mutate: unshare } = useDelete();

  const done = (text: string) => { setOutcome({ type: 'success', text }); void sharesCall.query.refetch(); };
  const failed = (error: HttpError) => setOutcome({ type: 'error', text: refusal(t, error) });
  const save = (requester: string, scope: string) => share(
    { resource: kind.share.name, values: { resource: resourceUuid, requester, scope }, successNotification: false, errorNotification: false },
    { onSuccess: () => done(t('boards.share.shared', { name: nameOf(requester), scope: t(`enumValues.scopes.${scope}`) })), onError: failed },
  );
  const remove = (row: ShareRow) => unshare(
    { resource: kind.share.name, id: row.id, successNotification: false, errorNotification: false },
    { onSuccess: () => done(t('boards.share.removed', { name: nameOf(row.requester) })), onError: failed },
  );

  const options = [
    ...users.map((user) => ({ value: user.id, label: nameOf(user.id) })),
    ...apiUsers.map((apiUser) => ({ value: apiUser.id, label: nameOf(apiUser.id) })),
  ];
  const scopeOptions = SHARE_SCOPES.map((scope) => ({ value: scope, label: t(`enumValues.scopes.${scope}`) }));

  return (
    <Modal open={open} onCancel={onClose} footer={null} width={640} destroyOnHidden data-testid="share-dialog"
      title={<span id={titleId}>{t('boards.share.title')}</span>} aria-labelledby={titleId}>
      <Form form={form} layout="inline" initialValues={{ scope: 'view' }} onFinish={({ requester, scope }) => save(requester, scope)} style={{ marginBottom: 16, rowGap: 8 }}>
        {/* a validator, not `required`: antd would put aria-required on the select's wrapper, which has no role to carry it */}
        <Form.Item name="requester" label={t('boards.share.with')}
          rules={[{ validator: (_rule, value) => (value ? Promise.resolve() : Promise.reject(new Error(t('boards.share.pickUser')))) }]}>
          <Select showSearch optionFilterProp="label" options={options} style={{ minWidth: 240 }} loading={usersCall.query.isLoading} data-testid="share-requester"
            placeholder={t('boards.share.pickUser')} />
        </Form.Item>
        <Form.Item name="scope" label={t('boards.share.scope')}>
          <Select options={scopeOptions} style={{ minWidth: 120 }} data-testid="share-scope" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={shareMutation.isPending} data-testid="share-submit">{t('boards.share.add')}</Button>
      </Form>
      {outcome && <Alert type={outcome.type} showIcon message={outcome.text} role={outcome.type === 'error' ? 'alert' : 'status'} style={{ marginBottom: 12 }} data-testid="share-outcome" />}
      <Table<ShareRow> rowKey="id" size="small" pagination={false} dataSource={shares} loading={sharesCall.query.isLoading} data-testid="share-list"
        locale={{ emptyText: t('boards.share.none') }}
        columns={[
          { key: 'requester', title: t('boards.share.with'), render: (_value, row) => <Typography.Text>{nameOf(row.requester)}</Typography.Text> },
          {
            key: 'scope', title: t('boards.share.scope'),
            render: (_value, row) => (
              <Select value={row.scope} options={scopeOptions} size="small" style={{ minWidth: 110 }} aria-label={t('boards.share.scopeOf', { name: nameOf(row.requester) })}
                onChange={(scope) => save(row.requester, scope)} data-testid="share-row-scope" />
            ),
          },
          {
            key: 'actions', title: t('table.actions'),
            render: (_value, row) => (
              <Space>
                <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row)} aria-label={t('boards.share.removeOf', { name: nameOf(row.requester) })}
                  data-testid="share-row-remove" />
              </Space>
            ),
          },
        ]} />
    </Modal>
  );
}
