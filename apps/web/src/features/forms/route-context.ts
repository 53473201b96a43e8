import type { FormContext } from './prefill.ts';

/** The route pattern of the current page in the notation of template views: '/assets/view/{id}'. */
export function viewPattern(pathname: string, params: Record<string, string | undefined>): string {
  const segments = pathname.replace(/\/+$/, '').split('/');
  const names = Object.entries(params).filter(([k, v]) => k !== '*' && v !== undefined);
  return (
    segments
      .map((segment) => {
        const hit = names.find(([, v]) => v === decodeURIComponent(segment));
        return hit ? `{${hit[0]}}` : segment;
      })
      .join('/') || '/'
  );
}

const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

/** What a ticket, device, site or camera screen tells a form about where it was opened. */
export function contextOf(pattern: string, params: Record<string, string | undefined>): FormContext | undefined {
  const id = num(params.id);
  if (pattern.startsWith('/assets/view/') || pattern.startsWith('/site-summary/power-dashboard/')) return id ? { assetId: id } : undefined;
  if (pattern.startsWith('/devices/') || pattern.startsWith('/cctv/view/') || pattern.startsWith('/cameras/'))
    return id ? { deviceId: id } : undefined;
  if (/^\/(genset|rectifier|ups)\/view\//.test(pattern)) return { assetId: id, deviceId: num(params.deviceId) };
  if (pattern.startsWith('/tickets/') || pattern.startsWith('/work-orders/')) return id ? { ticketId: id } : undefined;
  const ticketId = num(new URLSearchParams(globalThis.location?.search ?? '').get('ticketId') ?? undefined);
  return ticketId ? { ticketId } : undefined;
}
