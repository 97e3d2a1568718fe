// /profile/password: current password, new password and its confirmation (SPEC §5). The user
// stays on the page after a successful change.
import { useCustomMutation } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPaths } from '../../resources/apiMap.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_PATTERN } from '../../schemas/password.ts';
import { ProfileLayout } from './ProfileLayout.tsx';

interface PasswordFormValues {
  current_password: string;
  password: string;
  password_confirmation: string;
}

type Outcome = { type: 'success'; text: string } | { type: 'error'; text: string } | null;

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const title = usePageTitle('routes.changePassword');
  const [form] = Form.useForm<PasswordFormValues>();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { mutate, mutation } = useCustomMutation();

  const onFinish = (values: PasswordFormValues) => {
    setOutcome(null);
    mutate(
      {
        url: apiPaths.updatePassword,
        method: 'post',
        values: { input: values },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => {
          form.resetFields();
          setOutcome({ type: 'success', text: t('password.success') });
        },
        onError: (error) => setOutcome({ type: 'error', text: error.message || t('errors.generic') }),
      },
    );
  };

  return (
    <ProfileLayout>
      <div data-testid="page-profile-password">
        <Typography.Title level={2}>{title}</Typography.Title>
        <Card style={{ maxWidth: 520 }}>
          <Typography.Paragraph type="secondary" data-testid="password-no-redirect-note">
            {t('password.noRedirectNote')}
          </Typography.Paragraph>
          {outcome && (
            <Alert
              type={outcome.type}
              showIcon
              message={outcome.text}
              style={{ marginBottom: 16 }}
              data-testid={outcome.type === 'success' ? 'password-success' : 'password-error'}
              role={outcome.type === 'error' ? 'alert' : 'status'}
            />
          )}
          <Form<PasswordFormValues> form={form} layout="vertical" onFinish={onFinish} disabled={mutation.isPending}>
            <Form.Item
              name="current_password"
              label={t('password.currentPassword')}
              rules={[{ required: true, message: t('password.currentRequired') }]}
            >
              <Input.Password autoComplete="current-password" data-testid="current-password" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('password.newPassword')}
              rules={[
                { required: true, message: t('password.newRequired') },
                { min: PASSWORD_MIN_LENGTH, message: t('password.tooShort', { min: PASSWORD_MIN_LENGTH }) },
                { max: PASSWORD_MAX_LENGTH, message: t('apiErrors.PASSWORD_TOO_LONG', { limit: PASSWORD_MAX_LENGTH }) },
                { pattern: new RegExp(PASSWORD_PATTERN, 'u'), message: t('apiErrors.PASSWORD_BLANK') },
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="new-password" />
            </Form.Item>
            <Form.Item
              name="password_confirmation"
              label={t('password.confirmPassword')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('password.confirmRequired') },
                ({ getFieldValue }) => ({
                  validator: (_rule, value: string | undefined) =>
                    !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="confirm-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="password-submit">
              {t('password.submit')}
            </Button>
          </Form>
        </Card>
      </div>
    </ProfileLayout>
  );
}
