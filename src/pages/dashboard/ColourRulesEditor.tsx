// The colouring rules of the colour-by attribute: conditions on its value, each with a colour,
// the first matching one winning, and the colour of any other value. Typed values are checked
// (a number where the condition compares numbers) before a rule is added.
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAttributeName } from '../../i18n/attributeNames.ts';
import { PALETTE } from '../../components/map/core/colourPalette.ts';
import { ruleFromInput, type ColourRuleSet } from '../../components/map/core/colourRules.ts';
import { MAX_RULE_TEXT, MAX_RULES, RULE_OPERATORS, type RuleOperator } from '../../shared/map/ruleConditions.ts';
import { ColourSelect } from './ColourSelect.tsx';
import { ColourSwatch } from './ColourSwatch.tsx';
import { useRuleText } from './useRuleText.ts';

interface RuleInput { operator: RuleOperator; value?: string; to?: string; colour: string }

const NO_RULES: ColourRuleSet = { rules: [], otherwise: '#8c8c8c' };
const FIRST_INPUT: RuleInput = { operator: '>', colour: PALETTE[0].hex };

interface ColourRulesEditorProps {
  attribute: string;
  ruleSet?: ColourRuleSet;
  onChange(ruleSet: ColourRuleSet): void;
}

export function ColourRulesEditor({ attribute, ruleSet = NO_RULES, onChange }: ColourRulesEditorProps) {
  const { t } = useTranslation();
  const attributeName = useAttributeName();
  const ruleText = useRuleText();
  const [form] = Form.useForm<RuleInput>();
  const operator = Form.useWatch('operator', form) ?? FIRST_INPUT.operator;
  const full = ruleSet.rules.length >= MAX_RULES;

  const add = () => {
    const input = form.getFieldsValue();
    const answer = ruleFromInput(input.operator, input.value ?? '', input.to ?? '', input.colour);
    if ('problem' in answer) {
      form.setFields([{ name: answer.field, errors: [t(`dashboardFilters.rules.${answer.problem}`, { limit: MAX_RULE_TEXT })] }]);
      return;
    }
    onChange({ ...ruleSet, rules: [...ruleSet.rules, answer.rule] });
    form.setFieldsValue({ value: '', to: '' });
  };

  return (
    <section aria-labelledby="colour-rules-title" data-testid="colour-rules">
      <Typography.Text strong id="colour-rules-title">{t('dashboardFilters.rules.title', { attribute: attributeName(attribute) })}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>{t('dashboardFilters.rules.hint')}</Typography.Paragraph>
      {ruleSet.rules.length > 0 && (
        <ol className="colour-rules">
          {ruleSet.rules.map((rule, at) => (
            <li key={`${at}:${ruleText(rule)}`}>
              <ColourSwatch colour={rule.colour} /> <span>{ruleText(rule)}</span>
              <Button type="text" size="small" icon={<DeleteOutlined />} aria-label={t('dashboardFilters.rules.remove', { rule: ruleText(rule) })}
                onClick={() => onChange({ ...ruleSet, rules: ruleSet.rules.filter((_, other) => other !== at) })} />
            </li>
          ))}
        </ol>
      )}
      <Form form={form} name="colour-rule" layout="vertical" size="small" initialValues={FIRST_INPUT} onFinish={add} disabled={full}>
        <Space.Compact block>
          <Form.Item name="operator" label={t('dashboardFilters.rules.operator')} style={{ width: 110 }}>
            <Select options={RULE_OPERATORS.map((op) => ({ value: op, label: op === 'between' ? t('dashboardFilters.rules.betweenOperator') : op }))} />
          </Form.Item>
          <Form.Item name="value" label={t('dashboardFilters.rules.value')} style={{ flex: 1 }}>
            <Input />
          </Form.Item>
          {operator === 'between' && (
            <Form.Item name="to" label={t('dashboardFilters.rules.to')} style={{ flex: 1 }}>
              <Input />
            </Form.Item>
          )}
        </Space.Compact>
        <Form.Item name="colour" label={t('dashboardFilters.rules.colour')}>
          <ColourSelect />
        </Form.Item>
        <Button htmlType="submit">{t('dashboardFilters.rules.add')}</Button>
        {full && <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>{t('dashboardFilters.rules.limit', { count: MAX_RULES })}</Typography.Text>}
      </Form>
      <Form layout="vertical" size="small" style={{ marginTop: 8 }}>
        <Form.Item label={t('dashboardFilters.rules.otherwise')} htmlFor="colour-rules-otherwise">
          <ColourSelect id="colour-rules-otherwise" value={ruleSet.otherwise} onChange={(otherwise) => onChange({ ...ruleSet, otherwise })} />
        </Form.Item>
      </Form>
    </section>
  );
}
