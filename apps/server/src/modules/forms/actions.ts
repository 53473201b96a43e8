import { FORM_LIMITS, type FormTemplate, type formContextSchema } from '@sitewatch/contracts';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { SystemTickets } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';

type FormContext = z.infer<typeof formContextSchema>;

const idOf = (value: unknown): number | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  const id = (first as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
};
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/**
 * What a submission does besides being stored: a rating below the threshold raises a ticket, and a form may
 * open a ticket or work order from its answers. Tickets link back through additionalInformation.formId.
 * A ticket that cannot be raised is logged; the response is kept either way.
 */
export function createSubmissionActions(deps: {
  helpdesk: SystemTickets;
  directory: SiteDirectory;
  log: { error(obj: unknown, msg: string): void };
}) {
  /** The site and device a ticket is about, only where the submitter may see them. */
  async function place(auth: AuthContext, assetId: number | undefined, deviceId: number | undefined) {
    const visible = await deps.directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
    const sees = (id: number | null | undefined) => id != null && (visible === 'all' || visible.includes(id));
    const device = deviceId ? await deps.directory.device(auth.tenantId, deviceId) : null;
    const asset = assetId ? await deps.directory.asset(auth.tenantId, assetId) : null;
    return {
      locationId: sees(asset?.id) ? (asset?.id ?? null) : sees(device?.assetId) ? (device?.assetId ?? null) : null,
      entityId: device && sees(device.assetId) ? device.id : null,
    };
  }

  function fieldsOf(template: FormTemplate, type: string) {
    return Object.entries(template.metadata.schema.properties).filter(([, f]) => f.type === type);
  }

  return {
    async run(auth: AuthContext, template: FormTemplate, responseId: number, data: Record<string, unknown>, context?: FormContext) {
      const ticketIds: number[] = [];
      const assetField = fieldsOf(template, 'assetApiSelect')[0]?.[0];
      const deviceField = fieldsOf(template, 'deviceApiSelect')[0]?.[0];
      const { lowRating, openTicket } = template.actions;
      const raise = async (input: Parameters<SystemTickets['createTicket']>[1]) => {
        try {
          ticketIds.push((await deps.helpdesk.createTicket(auth.tenantId, input)).id);
        } catch (err) {
          deps.log.error({ err, form: template.id, responseId }, 'form submission ticket not raised');
        }
      };
      const common = async (assetKey?: string, deviceKey?: string) => ({
        ownerId: auth.userId,
        ...(await place(
          auth,
          idOf(data[assetKey ?? assetField ?? '']) ?? context?.assetId,
          idOf(data[deviceKey ?? deviceField ?? '']) ?? context?.deviceId,
        )),
        additionalInformation: { formId: template.id },
        metadata: { formResponseId: responseId, formVersion: template.version },
      });

      if (lowRating?.enabled) {
        const key = lowRating.field ?? fieldsOf(template, 'rating')[0]?.[0];
        const field = key ? template.metadata.schema.properties[key] : undefined;
        const value = key ? data[key] : undefined;
        const threshold = lowRating.threshold ?? FORM_LIMITS.ratingThreshold;
        if (field?.type === 'rating' && typeof value === 'number' && value < threshold) {
          const max = field.max ?? FORM_LIMITS.ratingMax;
          await raise({
            type: 'TICKET',
            title: `Low rating (${value}/${max}) on ${template.label}`.slice(0, 250),
            description: `${field.label ?? key} was rated ${value} of ${max}, below the threshold of ${threshold}.`,
            event: 'Form Submission',
            subEvent: 'Low Rating',
            ...(await common()),
          });
        }
      }
      if (openTicket?.enabled) {
        const title = text(data[openTicket.titleField ?? '']) || `${template.label} submitted`;
        await raise({
          type: openTicket.type,
          title: title.slice(0, 250),
          description: text(data[openTicket.descriptionField ?? '']).slice(0, 2000),
          event: 'Form Submission',
          subEvent: template.label.slice(0, 250),
          ...(await common(openTicket.assetField, openTicket.deviceField)),
        });
      }
      return ticketIds;
    },
  };
}
export type SubmissionActions = ReturnType<typeof createSubmissionActions>;
