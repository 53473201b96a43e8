import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { MailSender } from '../../platform/mail.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { UserSessionsPort } from '../auth/service.ts';
import { userAdminRoutes } from './admin-routes.ts';
import { createUserAdminService } from './admin-service.ts';
import { groupRoutes } from './groups-routes.ts';
import { createGroupService } from './groups-service.ts';

export interface UserAdminPorts {
  db: Db;
  clock: Clock;
  mail: MailSender;
  sessions: UserSessionsPort;
  blobs: BlobStore;
  publicUrl: string | undefined;
  setPasswordRateLimit: number;
}

/** User administration: users (create, change, deactivate, remove, passwords, avatars), the user list and permission groups. */
export function createUserAdminModule(ports: UserAdminPorts): DomainModule {
  const admin = createUserAdminService(ports);
  const groups = createGroupService(ports);
  return {
    register(app: FastifyInstance) {
      userAdminRoutes(app, { admin, publicUrl: ports.publicUrl, setPasswordRateLimit: ports.setPasswordRateLimit });
      groupRoutes(app, { groups });
    },
    ports: {},
  };
}
