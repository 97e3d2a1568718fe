// The tenant's frame origins (src/schemas/frameOrigins.ts), beside the performance boards' list
// for a board administrator: the https origins whose web pages boards show with their scripts.
// A page's frame policy cannot be loosened once applied, so a saved list takes effect on reload.
import { GlobalOutlined } from '@ant-design/icons';
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { Button, Form, Modal, Select, Typography } from 'antd';
import { useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShellDataContext } from '../layout/shellData.ts';
import { FRAME_ORIGIN_PATTERN, FRAME_ORIGINS_ACCESS, FRAME_ORIGINS_MAX, trustedFrameOrigins, type FrameOrigins } from '../../schemas/frameOrigins.ts';
import { hasAnyModule, hasPermission, useTokenClaims } from '../../session/access.ts';
import { useErrorToast } from '../useErrorToast.ts';

const originExpression = new RegExp(FRAME_ORIGIN_PATTERN);

export function FrameOriginsButton() {
  const { t } = useTranslation();
  const claims = useTokenClaims();
  const saved = trustedFrameOrigins(useContext(ShellDataContext)?.tenant.attributes);
  const [open, setOpen] = useState(false);
  const [reloadNeeded, setReloadNeeded] = useState(false);
  const [form] = Form.useForm<FrameOrigins>();
  const showError = useErrorToast();
  const { mutate, mutation } = useCustomMutation<FrameOrigins, HttpError, FrameOrigins>();
  if (!hasAnyModule(claims.modules, [FRAME_ORIGINS_ACCESS.module]) || !hasPermission(claims.module_permissions, FRAME_ORIGINS_ACCESS.permission)) return null;

  const save = ({ origins }: FrameOrigins) => mutate(
    { url: '/tenant/iframe-origins', method: 'put', values: { origins }, successNotification: false, errorNotification: false },
    { onSuccess: () => setReloadNeeded(true), onError: (error) => showError(error.message) },
  );

  return (
    <>
      <Button icon={<GlobalOutlined />} onClick={() => { setReloadNeeded(false); setOpen(true); }}
        data-testid="frame-origins-open">
        {t('boards.frameOrigins.button')}
      </Button>
      <Modal open={open} title={t('boards.frameOrigins.title')} onCancel={() => setOpen(false)} destroyOnHidden
        footer={reloadNeeded
          ? <Button type="primary" onClick={() => window.location.reload()} data-testid="frame-origins-reload">{t('boards.frameOrigins.reload')}</Button>
          : [
            <Button key="cancel" onClick={() => setOpen(false)}>{t('buttons.cancel')}</Button>,
            <Button key="save" type="primary" loading={mutation.isPending} onClick={() => form.submit()} data-testid="frame-origins-save">{t('buttons.save')}</Button>,
          ]}>
        {reloadNeeded ? <Typography.Paragraph data-testid="frame-origins-saved">{t('boards.frameOrigins.saved')}</Typography.Paragraph> : (
          <Form form={form} layout="vertical" onFinish={save} initialValues={{ origins: saved }}>
            <Typography.Paragraph type="secondary">{t('boards.frameOrigins.intro')}</Typography.Paragraph>
            <Form.Item name="origins" label={t('boards.frameOrigins.label')} rules={[{
              validator: (_rule, value: string[] = []) => {
                if (value.length > FRAME_ORIGINS_MAX) return Promise.reject(new Error(t('boards.frameOrigins.tooMany', { limit: FRAME_ORIGINS_MAX })));
                const wrong = value.find((origin) => !originExpression.test(origin));
                return wrong === undefined ? Promise.resolve() : Promise.reject(new Error(`${wrong}: ${t('apiErrors.FRAME_ORIGIN_INVALID')}`));
              },
            }]}>
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} placeholder="https://grafana.example.com"
                aria-label={t('boards.frameOrigins.label')} data-testid="frame-origins-input" />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}
