import { describe, expect, it } from 'vitest';
import { applyTenantFramePolicy } from '../../../src/components/layout/tenantFramePolicy.ts';
import { trustedFrameOrigins } from '../../../src/schemas/frameOrigins.ts';

describe('tenant frame policy', () => {
  it('keeps only https origins of the tenant list', () => {
    expect(trustedFrameOrigins({ iframe_origins: ['https://grafana.example.com', 'https://a.example:8443', 'http://plain.example', 'https://x.example/path', "https://x.example 'unsafe-inline'", 7, 'javascript:alert(1)'] }))
      .toEqual(['https://grafana.example.com', 'https://a.example:8443']);
    expect(trustedFrameOrigins({ iframe_origins: 'https://one.example' })).toEqual([]);
    expect(trustedFrameOrigins(undefined)).toEqual([]);
  });

  it('narrows frame-src once; another tenant\'s list asks for a reload', () => {
    const doc = document.implementation.createHTMLDocument('board');
    expect(applyTenantFramePolicy(['https://grafana.example.com'], doc)).toBe(true);
    const metas = doc.head.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
    expect(metas).toHaveLength(1);
    expect((metas[0] as HTMLMetaElement).content).toBe("frame-src 'self' https://grafana.example.com");
    expect(applyTenantFramePolicy(['https://grafana.example.com'], doc)).toBe(true);
    expect(applyTenantFramePolicy([], doc)).toBe(false);
    expect(doc.head.querySelectorAll('meta')).toHaveLength(1);
  });
});
