// The language selector: each language named in its own language; the choice is stored.
import { DownOutlined, GlobalOutlined } from '@ant-design/icons';
import { useSetLocale } from '@refinedev/core';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, isSupportedLanguage } from '../../shared/i18n/languages.ts';
import { useTokenClaims } from '../../session/access.ts';

export function LanguageSelect() {
  const setLocale = useSetLocale();
  const { t, i18n } = useTranslation();
  const tokenLanguages = useTokenClaims().languages.filter(isSupportedLanguage);
  const languages = tokenLanguages.length > 0 ? SUPPORTED_LANGUAGES.filter((code) => tokenLanguages.includes(code)) : SUPPORTED_LANGUAGES;
  const current = isSupportedLanguage(i18n.language) ? i18n.language : 'en';

  const items: MenuProps['items'] = languages.map((code) => ({
    key: code,
    label: (
      <span data-testid={`language-option-${code}`} lang={code}>
        {LANGUAGE_NAMES[code]}
      </span>
    ),
  }));

  return (
    <Dropdown trigger={['click']} menu={{ items, selectable: true, selectedKeys: [current], onClick: ({ key }) => setLocale(key) }}>
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-select" aria-label={`${t('navbar.language')}: ${LANGUAGE_NAMES[current]}`} className="navbar-button">
        <span className="navbar-label">{LANGUAGE_NAMES[current]}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
