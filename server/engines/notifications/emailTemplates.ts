// The notification e-mail's subject and plain-text body in each interface language, as logic-less
// templates (textTemplate.ts) of these values: `message` (the log's), `type` (the log type's name
// in the language), `entity` (the entity's name, may be empty), `time` (when it was logged, in the
// tenant's zone) and `body` (the watcher's own e-mail text, may be empty).
import type { LanguageCode } from '../../../src/shared/i18n/languages.ts';

export interface EmailTemplate { subject: string; body: string }

export const EMAIL_TEMPLATE_VALUES = ['message', 'type', 'entity', 'time', 'body'] as const;

export const EMAIL_TEMPLATES: Record<LanguageCode, EmailTemplate> = {
  en: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

Type: {{type}}
{{#entity}}
Entity: {{entity}}
{{/entity}}
Time: {{time}}
{{#body}}

{{body}}
{{/body}}

You receive this e-mail because one of your notification rules in Terrasight matches this log entry. You can change your rules in your profile under Settings › Notifications.
`,
  },
  sk: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

Typ: {{type}}
{{#entity}}
Entita: {{entity}}
{{/entity}}
Čas: {{time}}
{{#body}}

{{body}}
{{/body}}

Tento e-mail dostávate, pretože tomuto záznamu logu zodpovedá jedno z vašich pravidiel notifikácií v Terrasighte. Pravidlá môžete zmeniť vo svojom profile v časti Nastavenia › Notifikácie.
`,
  },
  de: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

Typ: {{type}}
{{#entity}}
Entität: {{entity}}
{{/entity}}
Zeit: {{time}}
{{#body}}

{{body}}
{{/body}}

Sie erhalten diese E-Mail, weil eine Ihrer Benachrichtigungsregeln in Terrasight auf diesen Protokolleintrag zutrifft. Ihre Regeln können Sie in Ihrem Profil unter Einstellungen › Benachrichtigungen ändern.
`,
  },
  cs: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

Typ: {{type}}
{{#entity}}
Entita: {{entity}}
{{/entity}}
Čas: {{time}}
{{#body}}

{{body}}
{{/body}}

Tento e-mail dostáváte, protože tomuto záznamu logu odpovídá jedno z vašich pravidel notifikací v Terrasightu. Pravidla můžete změnit ve svém profilu v části Nastavení › Notifikace.
`,
  },
  ko: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

유형: {{type}}
{{#entity}}
엔터티: {{entity}}
{{/entity}}
시간: {{time}}
{{#body}}

{{body}}
{{/body}}

Terrasight의 알림 규칙 중 하나가 이 로그 항목과 일치하여 이 이메일을 보내 드립니다. 규칙은 프로필의 설정 › 알림에서 변경할 수 있습니다.
`,
  },
  pt: {
    subject: 'Terrasight – {{type}}: {{message}}',
    body: `{{message}}

Tipo: {{type}}
{{#entity}}
Entidade: {{entity}}
{{/entity}}
Hora: {{time}}
{{#body}}

{{body}}
{{/body}}

Recebe este e-mail porque uma das suas regras de notificação no Terrasight corresponde a este registo. Pode alterar as suas regras no seu perfil, em Definições › Notificações.
`,
  },
};
