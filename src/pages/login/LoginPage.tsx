// /login: e-mail and password. The server's message is shown when sign-in fails.
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useLogin } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentBranding } from '../../branding/currentBranding.ts';
import { LanguageSelect } from '../../components/layout/LanguageSelect.tsx';
import type { LoginValues } from '../../providers/authProvider.ts';
import { usePageTitle } from '../../routing/usePageTitle.ts';
import './login.css';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('routes.login');
  const [failure, setFailure] = useState<string | null>(null);
  const { mutate: login, isPending } = useLogin<LoginValues>({
    mutationOptions: {
      onSuccess: (answer) => {
        if (answer.success) navigate(answer.redirectTo ?? '/', { replace: true });
        else setFailure(answer.error?.message ?? t('errors.generic'));
      },
      onError: (error) => setFailure(error.message || t('errors.generic')),
    },
  });

  const onFinish = (values: LoginValues) => {
    setFailure(null);
    login({ email: values.email.trim(), password: values.password });
  };

  return (
    <div className="login-page">
      <div className="login-language">
        <LanguageSelect />
      </div>
      <Card className="login-card">
        <div className="login-brand">
          <img src={currentBranding.logoUrl} alt="" width={48} height={48} />
          <Typography.Title level={3}>{currentBranding.productTitle}</Typography.Title>
        </div>
        <Typography.Paragraph type="secondary">{t('login.heading')}</Typography.Paragraph>
        {failure && <Alert type="error" showIcon message={failure} className="login-error" data-testid="login-error" role="alert" />}
        <Form<LoginValues> layout="vertical" onFinish={onFinish} requiredMark={false} disabled={isPending}>
          <Form.Item
            name="email"
            label={t('login.email')}
            rules={[
              { required: true, whitespace: true, message: t('login.emailRequired') },
              { type: 'email', transform: (value: string) => value?.trim(), message: t('login.emailInvalid') },
            ]}
          >
            <Input prefix={<MailOutlined />} autoComplete="username" autoFocus data-testid="login-email" />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isPending} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
