import type { FormMetadata } from '@sitewatch/contracts/forms';
import { api } from '../../lib/api.ts';

/** Where a form was opened from: a ticket, device, site or camera screen. */
export interface FormContext {
  assetId?: number;
  deviceId?: number;
  ticketId?: number;
}

/** The first site and device selects answered from the screen the form was opened on. */
export async function prefill(metadata: FormMetadata, context: FormContext | undefined): Promise<Record<string, unknown>> {
  if (!context) return {};
  const fields = Object.entries(metadata.schema.properties);
  const assetKey = fields.find(([, f]) => f.type === 'assetApiSelect')?.[0];
  const deviceKey = fields.find(([, f]) => f.type === 'deviceApiSelect')?.[0];
  const out: Record<string, unknown> = {};
  let assetId = context.assetId;
  let deviceId = context.deviceId;
  try {
    if (context.ticketId && !assetId && !deviceId) {
      const ticket = await api.get('/helpdesk/tickets/{id}/', { path: { id: context.ticketId }, toast: false });
      assetId = ticket.locationId ?? undefined;
      deviceId = ticket.entityId ?? undefined;
    }
    if (deviceKey && deviceId) {
      const device = await api.get('/iotapp/devices/{id}/', { path: { id: deviceId }, toast: false });
      const multiple = metadata.schema.properties[deviceKey]?.multiple;
      out[deviceKey] = multiple ? [{ id: device.id, label: device.label }] : { id: device.id, label: device.label };
      assetId ??= device.assetId ?? undefined;
    }
    if (assetKey && assetId) {
      const asset = await api.get('/iotapp/assets/{id}/', { path: { id: assetId }, toast: false });
      const multiple = metadata.schema.properties[assetKey]?.multiple;
      out[assetKey] = multiple ? [{ id: asset.id, label: asset.name }] : { id: asset.id, label: asset.name };
    }
  } catch {
    // A screen object the user cannot read simply leaves the select empty.
  }
  return out;
}
