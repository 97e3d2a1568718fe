// A scheduler's complex query (x-widget `complex-query`; docs/api.md "Complex queries"): its JSON
// in a monospace text area, and "Test query", which runs it once on the server as the scheduler
// would — with the form's entities, entity types and time slot (POST /test-query-scheduler) — and
// shows Passed with what it answered, Failed with the reason, or N/A while it has not been tested
// as it now stands (SPEC §4: a test shows passed, failed or N/A).
import { useCustomMutation } from '@refinedev/core';
import { Button, Form, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiHttpError } from '../../providers/httpError.ts';
import { apiPaths } from '../../resources/apiMap.ts';
import type { SchedulerQueryTestAnswer } from '../../schemas/schedulerQueryTest.ts';

interface ComplexQueryInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  label: string;
  maxLength?: number;
  /** The scheduler's time slot (beside the query in its definition). */
  timeSlot?: string;
}

/** The last test: of which request (the body as sent), and how it ended. */
type Outcome = { request: string } & ({ passed: true; result: unknown } | { passed: false; reason: string });

export function ComplexQueryInput({ id, value, onChange, label, maxLength, timeSlot }: ComplexQueryInputProps) {
  const { t } = useTranslation();
  // the scheduler's own fields, at the top of its form
  const entityIds = Form.useWatch('entity_ids') as number[] | undefined;
  const entityTypeIds = Form.useWatch('entity_type_ids') as number[] | undefined;
  const { mutate, mutation } = useCustomMutation<SchedulerQueryTestAnswer>();
  const [outcome, setOutcome] = useState<Outcome>();

  const body = { query: value ?? '', entity_ids: entityIds ?? [], entity_type_ids: entityTypeIds ?? [], ...(timeSlot ? { time_slot: timeSlot } : {}) };
  const request = JSON.stringify(body);
  // a test of anything else than what the form now holds says nothing: N/A
  const current = outcome?.request === request ? outcome : undefined;
  const statusId = `${id ?? 'complex-query'}-status`;

  const test = () => mutate(
    { url: apiPaths.testQueryScheduler, method: 'post', values: body, successNotification: false, errorNotification: false },
    {
      onSuccess: ({ data }) => setOutcome({ request, passed: true, result: data.result }),
      onError: (error) => setOutcome({ request, passed: false, reason: String((error as Partial<ApiHttpError>).params?.reason ?? error.message) }),
    },
  );

  return (
    <div className="complex-query">
      <Input.TextArea id={id} value={value} onChange={(event) => onChange?.(event.target.value)} aria-label={label} aria-describedby={statusId}
        className="complex-query-input" autoSize={{ minRows: 6, maxRows: 20 }} maxLength={maxLength} spellCheck={false} />
      <Space wrap className="complex-query-test">
        <Button onClick={test} loading={mutation.isPending} disabled={!value?.trim()}>{t('complexQuery.test')}</Button>
        <span id={statusId} role="status" data-testid="complex-query-status">
          {!current && <Tag title={t('complexQuery.notTestedHint')}>{t('complexQuery.notTested')}</Tag>}
          {current?.passed === true && <Tag color="success">{t('complexQuery.passed')}</Tag>}
          {current?.passed === false && <Tag color="error" className="complex-query-failure">{t('apiErrors.SCHEDULER_TEST_FAILED', { reason: current.reason })}</Tag>}
        </span>
      </Space>
      {current?.passed && (
        <div>
          <Typography.Text type="secondary" id={`${statusId}-result`}>{t('complexQuery.result')}</Typography.Text>
          {/* focusable: a long answer scrolls, and the keyboard must reach it */}
          <pre className="complex-query-result" tabIndex={0} aria-labelledby={`${statusId}-result`} data-testid="complex-query-result">
            {JSON.stringify(current.result, null, 2)}
          </pre>
        </div>
      )}
    </div>
  );
}
