import { describe, expect, it } from 'vitest';
import { contextOf, viewPattern } from './route-context.ts';

describe('route context', () => {
  it('turns a path into the view pattern of templates', () => {
    expect(viewPattern('/assets/view/12', { id: '12' })).toBe('/assets/view/{id}');
    expect(viewPattern('/tickets/TICKET/7/', { type: 'TICKET', id: '7' })).toBe('/tickets/{type}/{id}');
    expect(viewPattern('/tickets', {})).toBe('/tickets');
  });
  it('pre-fills from site, device and ticket screens', () => {
    expect(contextOf('/assets/view/{id}', { id: '12' })).toEqual({ assetId: 12 });
    expect(contextOf('/devices/{id}/view', { id: '3' })).toEqual({ deviceId: 3 });
    expect(contextOf('/tickets/{type}/{id}', { type: 'TICKET', id: '9' })).toEqual({ ticketId: 9 });
  });
});
