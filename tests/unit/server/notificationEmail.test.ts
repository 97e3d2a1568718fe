// Notification e-mails: logic-less templates filled with text values only (nothing in a value is
// ever read as a template or escaped into HTML), in the recipient's language, and why a sending
// failed in a few words.
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../../src/shared/i18n/languages.ts';
import { emailContent, type EmailFacts } from '../../../server/engines/notifications/emailContent.ts';
import { EMAIL_TEMPLATE_VALUES, EMAIL_TEMPLATES } from '../../../server/engines/notifications/emailTemplates.ts';
import { sendFailureReason } from '../../../server/engines/notifications/smtpMailer.ts';
import { renderTextTemplate } from '../../../server/engines/notifications/textTemplate.ts';

const HOSTILE = '{{type}} {{{message}}} {{> partial}} {{#entity}}x{{/entity}} <script>alert(1)</script> &amp; "quoted"';

describe('renderTextTemplate', () => {
  const values = { message: HOSTILE, type: 'Error', entity: '', time: '1 Jan 2027' };

  it('inserts values as they are: never as templates, never HTML-escaped', () => {
    expect(renderTextTemplate('[{{message}}] [{{{message}}}] [{{&message}}]', values)).toBe(`[${HOSTILE}] [${HOSTILE}] [${HOSTILE}]`);
  });

  it('shows a section while its value is not empty, an inverted one while it is', () => {
    const template = '{{#entity}}Entity: {{entity}}{{/entity}}{{^entity}}no entity{{/entity}}';
    expect(renderTextTemplate(template, values)).toBe('no entity');
    expect(renderTextTemplate(template, { ...values, entity: 'Lamp 7' })).toBe('Entity: Lamp 7');
  });

  it('keeps comments out and allows other delimiters', () => {
    expect(renderTextTemplate('{{! a note }}{{=<% %>=}}<% type %>: <% time %>', values)).toBe('Error: 1 Jan 2027');
  });

  it('refuses a template naming anything but the given values', () => {
    for (const template of [
      '{{> header}}', '{{unknown}}', '{{message.length}}', '{{message.constructor}}', '{{.}}', '{{constructor}}', '{{__proto__}}',
      '{{#type}}{{toString}}{{/type}}', '{{#message}}{{length}}{{/message}}', '{{=<% %>=}}<% > header %>',
    ]) expect(renderTextTemplate(template, values), template).toBeUndefined();
  });

  it('refuses a template that does not parse', () => {
    expect(renderTextTemplate('{{#type}} never closed', values)).toBeUndefined();
    expect(renderTextTemplate('{{message', values)).toBeUndefined();
  });
});

describe('the e-mail templates', () => {
  it('exist for every interface language and name only the values they are given', () => {
    expect(Object.keys(EMAIL_TEMPLATES).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    const values = Object.fromEntries(EMAIL_TEMPLATE_VALUES.map((name) => [name, `<${name}>`]));
    for (const [language, template] of Object.entries(EMAIL_TEMPLATES)) {
      const body = renderTextTemplate(template.body, values);
      expect(renderTextTemplate(template.subject, values), language).toContain('<message>');
      for (const name of EMAIL_TEMPLATE_VALUES) expect(body, `${language} ${name}`).toContain(`<${name}>`);
    }
  });

  it('differ by language', () => {
    const footers = Object.values(EMAIL_TEMPLATES).map(({ body }) => body.trim().split('\n').at(-1));
    expect(new Set(footers).size).toBe(SUPPORTED_LANGUAGES.length);
  });
});

describe('emailContent', () => {
  const facts: EmailFacts = {
    lang: null, message: 'Temperature too high', type: 'error', source: 'watcher', timestamp: new Date('2027-01-15T12:30:00Z'),
    messageData: {}, entityName: { en: 'Sensor 4', de: 'Sensor vier' }, timeZone: 'Asia/Tokyo',
  };

  it('writes English when the user chose no language, or one there is no template for', () => {
    for (const lang of [null, 'xx', '']) {
      const { subject, text } = emailContent({ ...facts, lang });
      expect(subject).toBe('Terrasight – Error: Temperature too high');
      expect(text).toContain('Type: Error\nEntity: Sensor 4\nTime: ');
    }
  });

  it('writes the user\'s language: the type\'s name, the entity\'s name in it, its words', () => {
    const { subject, text } = emailContent({ ...facts, lang: 'de' });
    expect(subject).toBe('Terrasight – Fehler: Temperature too high');
    expect(text).toContain('Typ: Fehler\nEntität: Sensor vier\nZeit: ');
    expect(emailContent({ ...facts, lang: 'ko' }).text).toContain('유형: 오류');
  });

  it('gives the time in the tenant\'s zone, else in UTC', () => {
    expect(emailContent(facts).text).toMatch(/Time: Jan 15, 2027, 9:30:00\sPM GMT\+9/);
    expect(emailContent({ ...facts, timeZone: null }).text).toMatch(/Time: Jan 15, 2027, 12:30:00\sPM UTC/);
    expect(emailContent({ ...facts, timeZone: 'Not/AZone' }).text).toMatch(/Time: Jan 15, 2027, 12:30:00\sPM UTC/);
  });

  it('leaves the entity line out of a log without an entity', () => {
    expect(emailContent({ ...facts, entityName: null }).text).not.toContain('Entity:');
  });

  it('adds a watcher\'s own text, filled with the same values and nothing else', () => {
    const watcher = { ...facts, messageData: { email_body: 'Check {{entity}} now ({{type}} at {{time}}).' } };
    expect(emailContent(watcher).text).toMatch(/\n\nCheck Sensor 4 now \(Error at Jan 15, 2027, 9:30:00\sPM GMT\+9\)\.\n/);
    const scheduler = { ...watcher, source: 'scheduler' };
    expect(emailContent(scheduler).text).not.toContain('Check');
  });

  it('sends a watcher\'s text that is not such a template as it was written', () => {
    const text = 'Partial {{> secrets}} and {{message.constructor}} and {{#unclosed}}';
    expect(emailContent({ ...facts, messageData: { email_body: text } }).text).toContain(`\n\n${text}\n`);
  });

  it('keeps everything in the log\'s message literally; the subject on one line, at most 200 characters', () => {
    const { subject, text } = emailContent({ ...facts, message: `${HOSTILE}\nsecond line` });
    expect(text.startsWith(`${HOSTILE}\nsecond line\n`)).toBe(true);
    expect(subject).toBe(`Terrasight – Error: ${HOSTILE} second line`);
    const long = emailContent({ ...facts, message: 'x'.repeat(500) }).subject;
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('sendFailureReason', () => {
  it('says what went wrong in a few words, with the server\'s reply code and nothing else', () => {
    const failure = (code: string, responseCode?: number) => Object.assign(new Error(`550 5.1.1 <a@b.c> secret detail`), { code, responseCode });
    expect(sendFailureReason(failure('EENVELOPE', 550))).toBe('the mail server refused the recipient (550)');
    expect(sendFailureReason(failure('EMESSAGE', 554))).toBe('the mail server refused the message (554)');
    expect(sendFailureReason(failure('EAUTH', 535))).toBe('the mail server refused the sign-in (535)');
    expect(sendFailureReason(failure('ESOCKET'))).toBe('the mail server could not be reached');
    expect(sendFailureReason(failure('ETIMEDOUT'))).toBe('the mail server could not be reached');
    expect(sendFailureReason(new Error('anything'))).toBe('the mail server did not take the e-mail');
    expect(sendFailureReason(undefined)).toBe('the mail server did not take the e-mail');
  });
});
