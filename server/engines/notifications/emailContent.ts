// What a notification e-mail says: its subject and plain-text body in the recipient's language
// (English when they chose none we have), from the log's message and type, its entity's name, its
// time in the tenant's zone and, for a watcher's log, the watcher's own e-mail text.
import { dictionaries } from '../../../src/shared/i18n/dictionaries/index.ts';
import { DEFAULT_LANGUAGE, isSupportedLanguage, type LanguageCode } from '../../../src/shared/i18n/languages.ts';
import { pickLocalized, type LocalizedValue } from '../../../src/shared/i18n/pickLocalized.ts';
import type { ClaimedEmail } from '../../db/notificationDeliveryQueries.ts';
import { timeZoneOrUtc } from '../../../src/shared/lighting/localTime.ts';
import { EMAIL_TEMPLATES } from './emailTemplates.ts';
import { renderTextTemplate, type TemplateValues } from './textTemplate.ts';

/** Mail clients cut long subjects anyway; the whole message is in the body. */
const SUBJECT_MAX_LENGTH = 200;

/**
 * The watcher engine copies the watcher's `definition.email_body` into its log's `message_data`
 * under this name, so the e-mail says what the watcher said when it fired.
 */
export const WATCHER_EMAIL_BODY_FIELD = 'email_body';

export type EmailFacts = Pick<ClaimedEmail, 'lang' | 'message' | 'type' | 'source' | 'timestamp' | 'messageData' | 'entityName' | 'timeZone'>;

export interface EmailContent { subject: string; text: string }

function typeName(language: LanguageCode, type: string): string {
  const names: Readonly<Record<string, string>> = dictionaries[language].enumValues.type;
  return Object.hasOwn(names, type) ? names[type] : type;
}

function ownTemplate(template: string, values: TemplateValues): string {
  const text = renderTextTemplate(template, values);
  if (text === undefined) throw new Error('An e-mail template of Terrasight names a value it is not given');
  return text;
}

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_MAX_LENGTH ? `${line.slice(0, SUBJECT_MAX_LENGTH - 1)}…` : line;
};

export function emailContent(facts: EmailFacts): EmailContent {
  const language = isSupportedLanguage(facts.lang) ? facts.lang : DEFAULT_LANGUAGE;
  const values = {
    message: facts.message,
    type: typeName(language, facts.type),
    entity: pickLocalized(facts.entityName as LocalizedValue, language),
    time: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'long', timeZone: timeZoneOrUtc(facts.timeZone) }).format(facts.timestamp),
  };
  const watcherText = facts.source === 'watcher' ? facts.messageData?.[WATCHER_EMAIL_BODY_FIELD] : undefined;
  // A watcher's text that is not a template of these values is sent as it was written.
  const body = typeof watcherText === 'string' ? (renderTextTemplate(watcherText, values) ?? watcherText) : '';
  const template = EMAIL_TEMPLATES[language];
  return { subject: oneLine(ownTemplate(template.subject, { ...values, body })), text: ownTemplate(template.body, { ...values, body }) };
}
