// The optional helpdesk dropdown from the tenant attribute `support_navbar_dropdown`.
import {
  BookOutlined,
  CustomerServiceOutlined,
  GlobalOutlined,
  MailOutlined,
  MessageOutlined,
  PhoneOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useShellData } from './shellData.ts';

const helpdeskIcons: Record<string, ReactNode> = {
  'question-circle': <QuestionCircleOutlined />,
  question: <QuestionCircleOutlined />,
  mail: <MailOutlined />,
  email: <MailOutlined />,
  phone: <PhoneOutlined />,
  book: <BookOutlined />,
  docs: <BookOutlined />,
  message: <MessageOutlined />,
  chat: <MessageOutlined />,
  global: <GlobalOutlined />,
  web: <GlobalOutlined />,
  support: <CustomerServiceOutlined />,
};

export function HelpdeskMenu() {
  const { t } = useTranslation();
  const links = useShellData().tenant.attributes.support_navbar_dropdown;
  if (!Array.isArray(links) || links.length === 0) return null;

  const items: MenuProps['items'] = links.map((entry, index) => ({
    key: String(index),
    icon: helpdeskIcons[entry.icon ?? ''] ?? <QuestionCircleOutlined />,
    label: (
      <a href={entry.link} target="_blank" rel="noopener noreferrer" title={t('common.openInNewTab')} data-testid={`helpdesk-link-${index}`}>
        {entry.name}
      </a>
    ),
  }));

  return (
    <Dropdown trigger={['click']} menu={{ items }}>
      <Button type="text" icon={<CustomerServiceOutlined />} data-testid="helpdesk-menu" aria-label={t('navbar.helpdesk')} className="navbar-button">
        <span className="navbar-label">{t('navbar.helpdesk')}</span>
      </Button>
    </Dropdown>
  );
}
