// The dashboard's layout keeps room for KPI widgets only when it is given some: then they show
// under the map, fold away by their header button and grow or shrink by their edge's arrow keys.
// The camera target of an entity: a point is centred, an area or a region's extent is fitted.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { cameraTargetOf } from '../../../src/components/map/core/cameraTarget.ts';
import { DashboardLayout } from '../../../src/pages/dashboard/DashboardLayout.tsx';

beforeAll(async () => {
  await setUpI18n('city').changeLanguage('en');
});
afterEach(cleanup);

describe('DashboardLayout', () => {
  it('keeps no room for widgets when none are given', () => {
    render(<DashboardLayout toolbar={<span>bar</span>}><span>map</span></DashboardLayout>);
    expect(screen.getByText('map')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-widgets')).toBeNull();
    expect(document.querySelector('.dashboard-widgets')).toBeNull();
  });

  it('shows given widgets under the map, folded by their button and resized by the keyboard', () => {
    render(<DashboardLayout toolbar={<span>bar</span>} widgets={<p>a KPI</p>}><span>map</span></DashboardLayout>);
    const area = screen.getByTestId('dashboard-widgets');
    expect(area.textContent).toContain('a KPI');
    const edge = screen.getByRole('separator', { name: 'Resize the KPI widgets' });
    const height = Number(edge.getAttribute('aria-valuenow'));
    fireEvent.keyDown(edge, { key: 'ArrowUp' });
    expect(Number(edge.getAttribute('aria-valuenow'))).toBeGreaterThan(height);
    fireEvent.keyDown(edge, { key: 'ArrowDown' });
    fireEvent.keyDown(edge, { key: 'ArrowDown' });
    expect(Number(edge.getAttribute('aria-valuenow'))).toBeLessThan(height);

    const toggle = screen.getByRole('button', { name: /KPI widgets$/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect((screen.getByText('a KPI').parentElement as HTMLElement).hidden).toBe(true);
    expect(screen.queryByRole('separator')).toBeNull();
  });
});

describe('cameraTargetOf', () => {
  it('centres a point, fits a polygon, a circle and a region\'s extent, and has nothing for no position', () => {
    expect(cameraTargetOf({ geom: { type: 'Point', coordinates: [17.1, 48.1] }, attributes: {} })).toEqual({ center: [17.1, 48.1] });
    expect(cameraTargetOf({ geom: { type: 'Polygon', coordinates: [[[17, 48], [17.2, 48], [17.2, 48.1], [17, 48]]] }, attributes: {} }))
      .toEqual({ bounds: [[17, 48], [17.2, 48.1]] });
    const circle = cameraTargetOf({ geom: { type: 'Point', coordinates: [17.1, 48.1], radius: 100 }, attributes: {} });
    const region = cameraTargetOf({ geom: { type: 'Point', coordinates: [17.1, 48.1] }, attributes: { size: 600 } });
    for (const [target, metres] of [[circle, 100], [region, 600]] as const) {
      if (!target || !('bounds' in target)) throw new Error('not fitted');
      const [[west, south], [east, north]] = target.bounds;
      expect((north - south) / 2).toBeCloseTo(metres / 111_195, 5);
      expect((west + east) / 2).toBeCloseTo(17.1, 6);
    }
    expect(cameraTargetOf({ geom: null, attributes: {} })).toBeUndefined();
    expect(cameraTargetOf(undefined)).toBeUndefined();
  });
});
