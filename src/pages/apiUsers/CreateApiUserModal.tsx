// A new API user: the model's form (username, password, permissions) in a dialog; the answer,
// with the token shown only this once, goes to `onCreated`.
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { SchemaForm } from '../../components/schema/SchemaForm.tsx';
import { cleanValues, defaultsOf } from '../../components/schema/formValues.ts';
import { apiUserSchema } from '../../schemas/apiUser.ts';
import type { FieldSchema, ModelSchema } from '../../schemas/model.ts';
import { API_USER_CREATE_PATH } from './queries.ts';
import type { CreatedApiUser } from './TokenModal.tsx';

const model = apiUserSchema as unknown as ModelSchema;

export function CreateApiUserModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(created: CreatedApiUser): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { mutate, mutation } = useCustomMutation<CreatedApiUser>();

  const submit = (values: Record<string, unknown>) => {
    mutate({
      url: API_USER_CREATE_PATH, method: 'post', values: cleanValues(model as unknown as FieldSchema, values),
      successNotification: false, errorNotification: (error) => ({ type: 'error', message: error?.message ?? t('errors.generic') }),
    }, {
      onSuccess: ({ data }) => {
        form.resetFields();
        onCreated(data);
      },
      onError: (error: HttpError) => {
        const errors = (error.errors ?? {}) as Record<string, string>;
        form.setFields(Object.entries(errors).map(([field, text]) => ({ name: field.replace(/^body\./, '').split('.'), errors: [String(text)] })));
      },
    });
  };

  return (
    <Modal open={open} title={t('apiUsers.createTitle')} onCancel={onClose} okText={t('apiUsers.create')} cancelText={t('form.cancel')}
      onOk={() => form.submit()} confirmLoading={mutation.isPending} destroyOnHidden okButtonProps={{ 'data-testid': 'api-user-create-save' } as never}>
      <Form form={form} layout="vertical" initialValues={defaultsOf(model as unknown as FieldSchema)} onFinish={submit} data-testid="api-user-create-form">
        <SchemaForm model={model} />
      </Form>
    </Modal>
  );
}
