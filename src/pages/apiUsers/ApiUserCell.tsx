// One cell of the API users' list, by its field's schema: permissions as tags, live tokens as
// prefix with expiry and last use, other values as every list shows them.
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldSchema } from '../../schemas/model.ts';
import { RecordValue } from '../resources/RecordValue.tsx';

interface LiveToken { prefix: string; expires_at: string; last_used_at: string | null }

function TokenList({ tokens }: { tokens: LiveToken[] }) {
  const { t, i18n } = useTranslation();
  const date = (value: string) => <time dateTime={value}>{new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(value))}</time>;
  if (!tokens.length) return <Typography.Text type="secondary">{t('apiUsers.noTokens')}</Typography.Text>;
  return (
    <ul className="api-user-tokens" data-testid="api-user-tokens">
      {tokens.map((token) => (
        <li key={token.prefix}>
          <Typography.Text code>{`${token.prefix}…`}</Typography.Text>{' '}
          <span>{t('apiUsers.expires')} {date(token.expires_at)}</span>{' · '}
          <span>{token.last_used_at ? <>{t('apiUsers.lastUsed')} {date(token.last_used_at)}</> : t('apiUsers.neverUsed')}</span>
        </li>
      ))}
    </ul>
  );
}

export function ApiUserCell({ field, schema, value }: { field: string; schema: FieldSchema; value: unknown }) {
  if (schema.type === 'array' && schema.items?.enum) {
    return <Space size={[0, 4]} wrap>{(value as string[] ?? []).map((item) => <Tag key={item} data-testid={`tag-${field}`}>{item}</Tag>)}</Space>;
  }
  if (schema.type === 'array' && schema.items?.properties) return <TokenList tokens={(value as LiveToken[] | undefined) ?? []} />;
  return <RecordValue field={field} schema={schema} value={value} />;
}
