// No input blanks the page: a page that throws while it renders shows the translated error with
// "Try again" and the way home in its place, the rest of the app stays, and a new address tries
// the page again. Also the case that once blanked the whole app: the scheduler's cron field given
// a day of month 0 (SPEC §5 allows 0–31) now says the schedule never runs.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CronInput } from '../../../src/components/schema/CronInput.tsx';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { RouteErrorBoundary } from '../../../src/routing/RouteErrorBoundary.tsx';

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

let failing = true;
function Page() {
  if (failing) throw new Error('Constraint error, got value 0 expected range 1-31');
  return <p>The page</p>;
}
function GoElsewhere() {
  const navigate = useNavigate();
  return <button type="button" onClick={() => navigate('/elsewhere')}>Elsewhere</button>;
}

describe('the route error boundary', () => {
  it('shows a translated error with Try again and the way home, keeps what is around it, and retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {}); // React logs the caught error
    failing = true;
    render(
      <MemoryRouter initialEntries={['/scheduler']}>
        <nav>The menu</nav>
        <RouteErrorBoundary><Page /></RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert').textContent).toContain('This page could not be shown');
    expect(screen.getByText('The menu')).toBeTruthy();
    expect(screen.getByTestId('page-failed-home').getAttribute('href')).toBe('/applications');
    failing = false;
    await act(async () => { fireEvent.click(screen.getByTestId('page-failed-retry')); });
    expect(screen.getByText('The page')).toBeTruthy();
  });

  it('tries the page again at a new address', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failing = true;
    render(
      <MemoryRouter initialEntries={['/scheduler']}>
        <GoElsewhere />
        <RouteErrorBoundary><Page /></RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByTestId('page-failed')).toBeTruthy();
    failing = false;
    await act(async () => { fireEvent.click(screen.getByText('Elsewhere')); });
    expect(screen.getByText('The page')).toBeTruthy();
  });
});

describe('the cron field', () => {
  function Field({ initial }: { initial: string }) {
    const [value, setValue] = useState(initial);
    return <CronInput value={value} onChange={setValue} aria-label="Cron" />;
  }

  it.each(['0 6 0 * *', '0 0 31 2 *'])('says %s never runs, instead of throwing', (expression) => {
    render(<Field initial={expression} />);
    expect(screen.getByTestId('cron-never-runs').textContent).toBe('This schedule never runs');
    expect(screen.queryByTestId('cron-preview')).toBeNull();
  });

  it('previews an expression naming a day 0 and Mondays as its Mondays', () => {
    render(<Field initial="0 6 0 * 1" />);
    expect(screen.queryByTestId('cron-never-runs')).toBeNull();
    expect(screen.getByTestId('cron-preview').querySelectorAll('li')).toHaveLength(5);
  });
});
