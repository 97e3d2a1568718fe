// An API user's new password, proved by its current one; every token of the API user is revoked.
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FieldWidget } from '../../components/schema/FieldWidget.tsx';
import { apiUserPasswordArgsSchema } from '../../schemas/apiUser.ts';
import type { FieldSchema } from '../../schemas/model.ts';
import { graphqlMeta } from '../../providers/dataProvider.ts';
import { API_USER_UPDATE_PASSWORD } from './queries.ts';

const FIELDS = ['current_password', 'password'] as const;
const passwordField = (field: (typeof FIELDS)[number]) => ({ ...apiUserPasswordArgsSchema.properties[field], 'x-widget': 'password' }) as unknown as FieldSchema;

export function PasswordModal({ user, onClose, onChanged }: { user?: { id: string; username: string }; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const { mutate, mutation } = useCustomMutation();
  const labels = { current_password: t('apiUsers.currentPassword'), password: t('apiUsers.newPassword') };

  const submit = (values: Record<(typeof FIELDS)[number], string>) => {
    mutate({
      url: '', method: 'post', values: {}, meta: graphqlMeta(API_USER_UPDATE_PASSWORD, { userId: user!.id, ...values }),
      successNotification: false, errorNotification: false,
    }, {
      onSuccess: () => {
        void message.success(t('apiUsers.passwordChanged', { username: user!.username }));
        form.resetFields();
        onChanged();
      },
      onError: (error: HttpError & { code?: string }) => {
        const field = error.code === 'WRONG_PASSWORD' ? 'current_password' : 'password';
        form.setFields([{ name: field, errors: [error.message || t('errors.generic')] }]);
      },
    });
  };

  return (
    <Modal open={!!user} title={t('apiUsers.passwordTitle', { username: user?.username })} onCancel={onClose} okText={t('form.save')} cancelText={t('form.cancel')}
      onOk={() => form.submit()} confirmLoading={mutation.isPending} destroyOnHidden okButtonProps={{ 'data-testid': 'api-user-password-save' } as never}>
      <Form form={form} layout="vertical" onFinish={submit} data-testid="api-user-password-form">
        <p>{t('apiUsers.passwordRevokes')}</p>
        {FIELDS.map((field) => (
          <Form.Item key={field} name={field} label={labels[field]} rules={[{ required: true, message: t('form.required', { field: labels[field] }) }]}>
            <FieldWidget schema={passwordField(field)} name={field} label={labels[field]} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
