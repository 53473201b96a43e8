import type { Page } from '@playwright/test';
import { APP_ROUTES } from '../apps/web/src/app/route-registry.ts';
import { apiSession } from './fixtures.ts';

/**
 * How the browser tests that go through every screen of the route registry reach each one: the routes without
 * parameters by their path, the others by an address from the demo data (`routeSamples`) or from the links of the
 * screens seen before (`harvestRouteLinks`).
 */

/** A route with parameters and the addresses it opens. */
export interface ParamRoute {
  path: string;
  pattern: RegExp;
}

/**
 * The routes of the registry but `skipped`, split into the signed-in ones without parameters, those with parameters,
 * and the signed-out ones of `signedOut` (route → address to open it at).
 */
export function routePlan(skipped: readonly string[], signedOut: Record<string, string> = {}) {
  const signedIn = { plain: [] as string[], withParams: [] as ParamRoute[] };
  const guest: Array<[string, string]> = [];
  for (const route of APP_ROUTES) {
    if (skipped.includes(route.path)) continue;
    if (signedOut[route.path]) guest.push([route.path, signedOut[route.path] as string]);
    else if (route.path.includes(':')) {
      const source = route.path.replace(/:[A-Za-z]+/g, '[^/]+');
      signedIn.withParams.push({ path: route.path, pattern: new RegExp(`^${source}/?$`) });
    } else signedIn.plain.push(route.path);
  }
  return { signedIn, signedOut: guest };
}

/**
 * Adds to `found` (route → address) an address for each route of `routes` not yet in it, from the links of the main
 * area of the screen open in `page`.
 */
export async function harvestRouteLinks(page: Page, routes: readonly ParamRoute[], found: Map<string, string>) {
  const hrefs = await page.evaluate(() =>
    [...document.querySelectorAll('main a[href]')].map((a) => {
      const url = new URL((a as HTMLAnchorElement).href);
      return url.pathname + url.search;
    }),
  );
  for (const route of routes) {
    if (found.has(route.path)) continue;
    const hit = hrefs.find((href) => route.pattern.test(href.split('?')[0] as string));
    if (hit) found.set(route.path, hit);
  }
}

/**
 * An address for every screen with parameters, from the first record of the demo data it shows (read through the
 * API); where the demo has none (no storage, tour or incident yet) an unknown id, whose "not found" state is a screen
 * too. Tokens are unknown ones for the same reason.
 */
export async function routeSamples(baseURL: string): Promise<Record<string, string>> {
  const api = await apiSession(baseURL, 'customeradmin');
  const rows = async (url: string): Promise<Array<Record<string, unknown>>> => {
    const res = await api.get(url);
    if (!res.ok()) return [];
    const body = await res.json();
    return Array.isArray(body) ? body : (body.contents ?? []);
  };
  const first = async (url: string) => (await rows(url))[0]?.id ?? NONE;
  const NONE = 999999;
  const device = async (type: string) =>
    (await rows(`/iotapp/devices/?limit=1&type=${type}`))[0] as { id: number; assetId: number } | undefined;
  const [ticket, site, camera, storage, tour, incident, issueType, policy, customer, cluster, vendor, request, template] =
    await Promise.all([
      first('/helpdesk/tickets/?limit=1'),
      first('/iotapp/assets/?limit=1'),
      first('/api/cameras/?limit=1'),
      first('/api/storages/'),
      first('/api/camera-tours/'),
      first('/api/incident-reports/'),
      first('/helpdesk/issue-types/'),
      first('/helpdesk/escalation-policies/'),
      first('/iotapp/customers/'),
      first('/iotapp/clusters/'),
      first('/iotapp/vendors/'),
      first('/iotapp/registration-requests/'),
      first('/iotapp/device-templates/?limit=1'),
    ]);
  const [form, event, pr, component, item, dashboard, folder] = await Promise.all([
    first('/ifmapp/dynamic-form-templates/'),
    first('/api/calendar/events/'),
    first('/iotapp/purchase-requests/'),
    first('/iotapp/dashboards/components/'),
    first('/iotapp/inventory/items/?limit=1'),
    first('/iotapp/dashboards/?limit=1'),
    first('/iotapp/dashboards/folders/'),
  ]);
  const users = (await rows('/iotapp/users/?limit=500')) as Array<{ id: number; userRole: string[] }>;
  const userWith = (role: string) => users.find((u) => u.userRole.includes(role))?.id ?? NONE;
  const [genset, ups, rectifier, panel, router] = await Promise.all(['GENERATOR', 'UPS', 'RECTIFIER', 'ALARMPANEL', 'ROUTER'].map(device));
  await api.dispose();
  return {
    '/cameras/:id/configs': `/cameras/${camera}/configs`,
    '/storages/:id/edit': `/storages/${storage}/edit`,
    '/tour/config/:id': `/tour/config/${tour}`,
    '/tours/view/:id': `/tours/view/${tour}`,
    '/incident-report/view/:IncidentId': `/incident-report/view/${incident}`,
    '/evidence/:token': '/evidence/not-a-token',
    '/cctv/view/:id': `/cctv/view/${site}`,
    '/tickets/:type': '/tickets/all',
    '/tickets/:type/create': '/tickets/all/create',
    '/tickets/:type/view': `/tickets/all/view/?ticketId=${ticket}`,
    '/tickets/:type/edit': `/tickets/all/edit/?ticketId=${ticket}`,
    '/tickets/:type/:id': `/tickets/all/${ticket}`,
    '/escalation-tickets/:id/edit': `/escalation-tickets/${ticket}/edit`,
    '/work-orders/:id/view': `/work-orders/${ticket}/view`,
    '/ticket-report/:id': `/ticket-report/${ticket}`,
    '/issue-types/edit/:id': `/issue-types/edit/${issueType}`,
    '/escalations/:id/edit': `/escalations/${policy}/edit`,
    '/escalations/:id/view': `/escalations/${policy}/view`,
    '/assets/edit/:id': `/assets/edit/${site}`,
    '/assets/view/:id': `/assets/view/${site}`,
    '/customers/:id/view': `/customers/${customer}/view`,
    '/customers/:id/edit': `/customers/${customer}/edit`,
    '/customers/:id/iot-fw-cred': `/customers/${customer}/iot-fw-cred`,
    '/user/:id': `/user/${userWith('fieldexecutive')}`,
    '/user-details/:id': `/user-details/${userWith('fieldexecutive')}`,
    '/field-executives/edit/:id': `/field-executives/edit/${userWith('fieldexecutive')}`,
    '/store-manager/edit/:id': `/store-manager/edit/${userWith('storemanager')}`,
    '/infra-admin/edit/:id': `/infra-admin/edit/${userWith('infraadmin')}`,
    '/cluster-view/:id/edit': `/cluster-view/${cluster}/edit`,
    '/vendors/edit/:id': `/vendors/edit/${vendor}`,
    '/registration-requests/:id/view': `/registration-requests/${request}/view`,
    '/devices/:id/view': `/devices/${router?.id ?? NONE}/view`,
    '/devices/:id/edit': `/devices/${router?.id ?? NONE}/edit`,
    '/devices/discover/:id/edit': `/devices/discover/${NONE}/edit`,
    '/view-device-template/view/:templateId': `/view-device-template/view/${template}`,
    '/view-device-template/edit/:templateId': `/view-device-template/edit/${template}`,
    '/genset/view/:id/:deviceId': `/genset/view/${genset?.assetId ?? NONE}/${genset?.id ?? NONE}`,
    '/alarm-panel/view/:id': `/alarm-panel/view/${panel?.id ?? NONE}`,
    '/rectifier/view/:id/:deviceId': `/rectifier/view/${rectifier?.assetId ?? NONE}/${rectifier?.id ?? NONE}`,
    '/ups/view/:id/:deviceId': `/ups/view/${ups?.assetId ?? NONE}/${ups?.id ?? NONE}`,
    '/site-summary/power-dashboard/:id': `/site-summary/power-dashboard/${site}`,
    '/eth-single-site/view/:id': `/eth-single-site/view/${site}`,
    '/forms/builder/:id': `/forms/builder/${form}`,
    '/forms/:id/view': `/forms/${form}/view`,
    '/form/:id/view': `/form/${form}/view`,
    '/form/:id/create': `/form/${form}/create`,
    '/calendar/:eventId/edit': `/calendar/${event}/edit`,
    '/inventory-management/:id/view': `/inventory-management/${item}/view`,
    '/pr-report/:id/edit': `/pr-report/${pr}/edit`,
    '/pr-report/:id/view': `/pr-report/${pr}/view`,
    '/equipments/:id': `/equipments/${NONE}`,
    '/dashboards/:id/edit': `/dashboards/${dashboard}/edit`,
    '/dashboards/:id/view': `/dashboards/${dashboard}/view`,
    '/dashboards/component/:id/edit': `/dashboards/component/${component}/edit`,
    '/dashboards/component/:id/view': `/dashboards/component/${component}/view`,
    '/folder/:folderId': `/folder/${folder}`,
    '/analytics-dashboard/:id/:token': '/analytics-dashboard/1/not-a-token',
  };
}
