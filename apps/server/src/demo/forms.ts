import { type FormTemplateInput, formTemplateInputSchema } from '@sitewatch/contracts';
import { insertResponse, insertTemplate, type TemplateContent } from '../modules/forms/repository.ts';
import type { Seeder } from './seeder.ts';

const control = (key: string) => ({ type: 'Control' as const, scope: `#/properties/${key}` });

/** The demo tenants' forms, each bound to screens that exist (SPEC 3 views). */
export const DEMO_FORMS: FormTemplateInput[] = [
  {
    name: 'site-audit',
    label: 'Site Audit',
    description: 'Monthly walk-through of a site: power, security and housekeeping.',
    icon: 'forms',
    views: ['/assets/view/{id}', '/sitemonitoring', '/site-summary/dashboard'],
    metadata: {
      schema: {
        type: 'object',
        properties: {
          intro: { type: 'labelrenderer', label: 'Walk the whole site before you answer.' },
          site: { type: 'assetApiSelect', label: 'Site', required: true },
          visited: { type: 'dateTime', label: 'Visited on', withTime: true },
          generator: { type: 'deviceApiSelect', label: 'Generator checked' },
          fuelOk: { type: 'toggle', label: 'Fuel above 50 %' },
          upsState: { type: 'radio', label: 'UPS state', enum: ['Normal', 'On battery', 'Fault'], inline: true },
          area: {
            type: 'multiLevelSelect',
            label: 'Area needing attention',
            options: [
              { label: 'Power', children: [{ label: 'Generator' }, { label: 'UPS' }, { label: 'Rectifier' }] },
              { label: 'Security', children: [{ label: 'CCTV' }, { label: 'Alarm panel' }] },
              { label: 'Housekeeping' },
            ],
          },
          photos: { type: 'filerenderer', label: 'Photos', additionalInfo: 'Images or PDF, up to 1 MB each' },
          spent: { type: 'duration', label: 'Time on site' },
          score: { type: 'rating', label: 'Overall condition', max: 5 },
          remarks: { type: 'string', label: 'Remarks', inputType: 'textarea' },
        },
        required: ['site', 'visited', 'score'],
      },
      uiSchema: {
        type: 'VerticalLayout',
        elements: [
          control('intro'),
          control('site'),
          control('visited'),
          { type: 'Group', label: 'Power', elements: [control('generator'), control('fuelOk'), control('upsState')] },
          {
            type: 'Group',
            label: 'Findings',
            elements: [control('area'), control('photos'), control('spent'), control('score'), control('remarks')],
          },
        ],
      },
    },
    actions: { openTicket: { enabled: false, type: 'WORKORDERTICKET' } },
  },
  {
    name: 'incident-report',
    label: 'Incident Report',
    description: 'Report an incident at a store: shipment and table concerned, what happened and when.',
    icon: 'forms',
    views: ['/incident-report', '/camview', '/cctv/dashboard'],
    metadata: {
      schema: {
        type: 'object',
        properties: {
          reportId: { type: 'randomid', label: 'Report number' },
          site: { type: 'assetApiSelect', label: 'Store' },
          camera: { type: 'deviceApiSelect', label: 'Camera' },
          awb: { type: 'string', label: 'AWB', additionalInfo: 'Air waybill number of the shipment' },
          table: { type: 'string', label: 'Table', inputType: 'number', validation: { kind: 'number', min: 1, max: 999 } },
          happened: { type: 'string', label: 'Happened at', validation: { kind: 'dateTime' }, additionalInfo: 'YYYY-MM-DDTHH:mm:ss' },
          kind: { type: 'button', label: 'Kind', enum: ['Damage', 'Theft', 'Safety', 'Other'] },
          period: { type: 'daterange', label: 'Period affected' },
          noticed: { type: 'time', label: 'Noticed at' },
          details: { type: 'string', label: 'What happened', inputType: 'textarea' },
        },
        required: ['awb', 'table', 'details'],
      },
    },
    actions: {
      openTicket: {
        enabled: true,
        type: 'TICKET',
        titleField: 'details',
        descriptionField: 'details',
        assetField: 'site',
        deviceField: 'camera',
      },
    },
  },
  {
    name: 'customer-satisfaction',
    label: 'Customer Satisfaction Survey',
    description: 'How did we do? A rating below 3 stars opens a ticket for follow-up.',
    icon: 'forms',
    views: ['/tickets', '/tickets/{type}/{id}', '/work-orders/{id}/view'],
    metadata: {
      schema: {
        type: 'object',
        properties: {
          rating: { type: 'rating', label: 'Your rating', max: 5 },
          resolvedFirstTime: { type: 'toggle', label: 'Resolved on the first visit' },
          recommend: { type: 'radio', label: 'Would you recommend us?', enum: ['Yes', 'Maybe', 'No'], inline: true },
          comments: { type: 'string', label: 'Comments', inputType: 'textarea' },
        },
        required: ['rating'],
      },
    },
    actions: { lowRating: { enabled: true, field: 'rating', threshold: 3 } },
  },
];

/** Demo forms, with a month of survey answers so that the response list and counts have something to show. */
export const formsSeeder: Seeder = {
  name: 'forms',
  async run({ db, tenantId, random }) {
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', 'customeradmin')
      .executeTakeFirst();
    if (!owner) return;
    for (const form of DEMO_FORMS) {
      const parsed = formTemplateInputSchema.parse(form);
      const id = await insertTemplate(db, tenantId, parsed as TemplateContent, owner.id);
      if (form.name !== 'customer-satisfaction') continue;
      for (let i = 0; i < 40; i++) {
        const rating = 3 + Math.floor(random.next() * 3);
        await insertResponse(db, tenantId, {
          templateId: id,
          version: 1,
          data: { rating, resolvedFirstTime: random.next() > 0.3, recommend: rating >= 4 ? 'Yes' : 'Maybe' },
          userId: owner.id,
          createdAt: new Date(Date.now() - (i + 1) * 17 * 3600_000),
          performedAt: null,
        });
      }
    }
  },
};
