import type { Query } from '../../lib/http-client.ts';

/** Query keys of cameras, storages, tours, incidents and clips. */
export const videoKeys = {
  all: ['video'] as const,
  tools: ['video', 'tools'] as const,
  cameras: (q: Query) => ['video', 'cameras', q] as const,
  camera: (id: number) => ['video', 'camera', id] as const,
  timeline: (id: number, from: string, to: string) => ['video', 'timeline', id, from, to] as const,
  storages: (q: Query) => ['video', 'storages', q] as const,
  storage: (id: number) => ['video', 'storage', id] as const,
  tours: ['video', 'tours'] as const,
  tour: (id: number) => ['video', 'tour', id] as const,
  incidents: (q: Query) => ['video', 'incidents', q] as const,
  incident: (id: number) => ['video', 'incident', id] as const,
  tableCamera: (table: string) => ['video', 'table-camera', table] as const,
  clips: ['video', 'clips'] as const,
  evidence: (token: string) => ['video', 'evidence', token] as const,
  ticketEvidenceAll: ['video', 'ticket-evidence'] as const,
  ticketEvidence: (ticketId: number) => ['video', 'ticket-evidence', ticketId] as const,
  ticketFindings: (ticketId: number) => ['video', 'ticket-evidence', ticketId, 'findings'] as const,
  eventCameras: (deviceId: number) => ['video', 'event-cameras', deviceId] as const,
};
