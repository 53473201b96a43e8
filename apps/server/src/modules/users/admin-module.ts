import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { MailSender } from '../../platform/mail.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { TicketAssignees } from '../helpdesk/index.ts';
import type { SiteAssignments } from '../sites/index.ts';
import { namesOf } from './admin-repository.ts';
import { userAdminRoutes } from './admin-routes.ts';
import { createUserAdminService } from './admin-service.ts';
import { fieldStaffRoutes } from './field-staff-routes.ts';
import { createFieldStaffService } from './field-staff-service.ts';
import { groupRoutes } from './groups-routes.ts';
import { createGroupService } from './groups-service.ts';
import { userImportRoutes } from './import-routes.ts';
import { createUserImportService } from './import-service.ts';
import { registrationRoutes } from './registration-routes.ts';
import { createRegistrationService } from './registration-service.ts';
import type { UserSessionsPort } from './sessions.ts';

export interface UserAdminPorts {
  db: Db;
  clock: Clock;
  mail: MailSender;
  sessions: UserSessionsPort;
  blobs: BlobStore;
  /** The sites a user looks after (the sites module owns the assignments). */
  siteAssignments: SiteAssignments;
  /** Open tickets of the field staff (the helpdesk owns tickets). */
  tickets: TicketAssignees;
  publicUrl: string | undefined;
  setPasswordRateLimit: number;
  /** The tenant's e-mail domain allow-list for registration (customer settings). */
  allowedEmailDomains(tenantId: number): Promise<string[]>;
  verifyCaptcha(tenantId: number, captchaId: string, answer: string): Promise<'ok' | 'expired' | 'wrong'>;
}

/** User administration: users (create, change, deactivate, remove, passwords, avatars), the user list and permission groups. */
/** What other modules may ask of user administration. */
export interface UserAdminPort {
  /** Display names of the tenant's users by id. */
  userNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
}

export function createUserAdminModule(ports: UserAdminPorts): DomainModule<UserAdminPort> {
  const admin = createUserAdminService(ports);
  const groups = createGroupService(ports);
  const registrations = createRegistrationService({ ...ports, admin, allowedDomains: ports.allowedEmailDomains });
  const imports = createUserImportService({ db: ports.db, admin, siteAssignments: ports.siteAssignments });
  const staff = createFieldStaffService({ db: ports.db, admin, siteAssignments: ports.siteAssignments, tickets: ports.tickets });
  const originOf = (request: FastifyRequest) => ports.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
  return {
    register(app: FastifyInstance) {
      userAdminRoutes(app, { admin, publicUrl: ports.publicUrl, setPasswordRateLimit: ports.setPasswordRateLimit });
      userImportRoutes(app, { imports, originOf });
      groupRoutes(app, { groups });
      fieldStaffRoutes(app, { staff, originOf });
      registrationRoutes(app, { registrations, publicUrl: ports.publicUrl, rateLimit: ports.setPasswordRateLimit });
    },
    ports: { userNames: (tenantId, ids) => namesOf(ports.db, tenantId, ids) },
  };
}
