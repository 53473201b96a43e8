import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SystemTickets } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { createSubmissionActions } from './actions.ts';
import { formResponsesSource } from './export.ts';
import { deleteAttachments, listTemplates, staleAttachments } from './repository.ts';
import { createResponseService } from './response-service.ts';
import { formRoutes } from './routes.ts';
import { createTemplateService } from './template-service.ts';

const CLEANUP_QUEUE = 'forms.attachments.cleanup';
const CLEANUP_EVERY_MS = 60 * 60_000;
const UNCLAIMED_TTL_MS = 24 * 60 * 60_000;

export interface FormsPorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  clock: Clock;
  blobs: BlobStore;
  /** Sites and devices: asset and device answers are checked against what the submitter may see. */
  directory: SiteDirectory;
  /** Tickets raised by submissions (low rating, a form set to open a ticket or work order). */
  helpdesk: SystemTickets;
  /** Names of who saved a version and who submitted a response (the users module owns users). */
  users: UserDirectory;
  exports: ExportRegistry;
  log: { error(obj: unknown, msg: string): void };
}

/** What other domains may ask of forms. */
export interface FormsPort {
  /** Labels of the forms bound to a route, for other screens that list them. */
  formsForView(tenantId: number, view: string): Promise<Array<{ id: number; name: string; label: string }>>;
}

/**
 * Dynamic forms (SPEC 2.9, 3, 5, 7): templates with versions, responses, drafts and attachments; a CSV export of
 * responses through the downloads job centre.
 */
export function createFormsModule(ports: FormsPorts): DomainModule<FormsPort> & { templates: ReturnType<typeof createTemplateService> } {
  const templates = createTemplateService({ db: ports.db, users: ports.users });
  const actions = createSubmissionActions({ helpdesk: ports.helpdesk, directory: ports.directory, log: ports.log });
  const responses = createResponseService({ ...ports, templates, actions });
  return {
    templates,
    ports: {
      async formsForView(tenantId, view) {
        return (await listTemplates(ports.db, tenantId, { view })).map((t) => ({ id: t.id, name: t.name, label: t.label }));
      },
    },
    async register(app: FastifyInstance) {
      ports.exports.registerSource(formResponsesSource(ports.db, ports.users));
      await app.register(async (scope) => formRoutes(scope, { templates, responses }));
      // Uploads never submitted with a response are removed after a day.
      ports.jobs.register(CLEANUP_QUEUE, async () => {
        const before = new Date(ports.clock.now().getTime() - UNCLAIMED_TTL_MS);
        const stale = await staleAttachments(ports.db, before);
        for (const row of stale) await ports.blobs.delete(row.blob_key);
        await deleteAttachments(
          ports.db,
          stale.map((r) => r.uid),
        );
      });
      ports.jobs.every(CLEANUP_QUEUE, CLEANUP_EVERY_MS);
    },
  };
}
