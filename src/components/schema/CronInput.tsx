// A cron expression (SPEC §5) with what it means in the interface language and its next five
// runs, so a mistake shows before saving — an expression that can never fire (a 31st of February)
// says so under the field, as the server will.
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue/i18n';
import { Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cronProblem, runnableCron } from '../../schemas/cron.ts';

const CRONSTRUE_LOCALES: Record<string, string> = { en: 'en', sk: 'sk', de: 'de', cs: 'cs', ko: 'ko', pt: 'pt_PT' };

interface CronInputProps { id?: string; value?: string; onChange?: (value: string) => void; 'aria-label'?: string }

export function CronInput({ id, value, onChange, ...rest }: CronInputProps) {
  const { t, i18n } = useTranslation();
  const expression = value ?? '';
  const problem = expression ? cronProblem(expression) : 'fields';
  const runnable = problem ? undefined : runnableCron(expression);
  let sentence = '';
  let runs: Date[] = [];
  if (runnable) {
    sentence = cronstrue.toString(runnable, { locale: CRONSTRUE_LOCALES[i18n.language] ?? 'en', use24HourTimeFormat: true, throwExceptionOnParseError: false });
    runs = CronExpressionParser.parse(runnable, { tz: Intl.DateTimeFormat().resolvedOptions().timeZone }).take(5).map((run) => run.toDate());
  }
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div>
      <Input id={id} value={expression} onChange={(event) => onChange?.(event.target.value)} placeholder="0 6 * * 1" aria-label={rest['aria-label']} data-testid="cron-input" />
      {problem && <Typography.Text type="secondary">{t('cron.help')}</Typography.Text>}
      {!problem && !runnable && <Typography.Text type="danger" role="alert" data-testid="cron-never-runs">{t('apiErrors.CRON_NEVER_RUNS')}</Typography.Text>}
      {runnable && (
        <div data-testid="cron-preview" aria-live="polite">
          <Typography.Text strong>{sentence}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{t('cron.nextRuns')}</Typography.Text>
            <ol className="cron-runs">
              {runs.map((run) => <li key={run.toISOString()}>{format.format(run)}</li>)}
            </ol>
          </div>
        </div>
      )}
    </div>
  );
}
