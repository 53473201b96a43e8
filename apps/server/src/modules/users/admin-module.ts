import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { MailSender } from '../../platform/mail.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { UserSessionsPort } from '../auth/service.ts';
import { userAdminRoutes } from './admin-routes.ts';
import { createUserAdminService } from './admin-service.ts';

export interface UserAdminPorts {
  db: Db;
  clock: Clock;
  mail: MailSender;
  sessions: UserSessionsPort;
  blobs: BlobStore;
  publicUrl: string | undefined;
  setPasswordRateLimit: number;
}

/** User administration: create, change, deactivate and remove users, passwords, avatars and the user list. */
export function createUserAdminModule(ports: UserAdminPorts): DomainModule {
  const admin = createUserAdminService(ports);
  return {
    register(app: FastifyInstance) {
      userAdminRoutes(app, { admin, publicUrl: ports.publicUrl, setPasswordRateLimit: ports.setPasswordRateLimit });
    },
    ports: {},
  };
}
