// Where and when the day preview looks: a date (typed or picked) and a place's latitude and
// longitude. Emptied or out-of-range values are passed on as they are; the preview says what is wrong.
import { DatePicker, InputNumber } from 'antd';
import dayjs from 'dayjs';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface PlaceValues {
  /** 'YYYY-MM-DD' */
  date: string;
  latitude: number | null;
  longitude: number | null;
}

const DATE_FORMAT = 'YYYY-MM-DD';

export function PreviewPlaceFields({ value, onChange }: { value: PlaceValues; onChange(value: PlaceValues): void }) {
  const { t } = useTranslation();
  const id = useId();
  const field = (name: string, label: string, control: ReactNode) => (
    <div className="timeline-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {control}
    </div>
  );
  return (
    <div className="timeline-fields">
      {field('date', t('lighting.preview.date'), (
        <DatePicker id={`${id}-date`} data-testid="timeline-date" allowClear={false} format={DATE_FORMAT}
          value={dayjs(value.date, DATE_FORMAT)} onChange={(date) => date && onChange({ ...value, date: date.format(DATE_FORMAT) })} />
      ))}
      {field('latitude', t('lighting.preview.latitude'), (
        <InputNumber id={`${id}-latitude`} data-testid="timeline-latitude" min={-90} max={90} step={0.001}
          value={value.latitude} onChange={(latitude) => onChange({ ...value, latitude })} />
      ))}
      {field('longitude', t('lighting.preview.longitude'), (
        <InputNumber id={`${id}-longitude`} data-testid="timeline-longitude" min={-180} max={180} step={0.001}
          value={value.longitude} onChange={(longitude) => onChange({ ...value, longitude })} />
      ))}
    </div>
  );
}
