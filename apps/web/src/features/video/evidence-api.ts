import type { EventCameras, VideoEvidenceList } from '@sitewatch/contracts/video-evidence';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import { realtime } from '../../lib/realtime.ts';
import { videoKeys } from './keys.ts';

// a clip added, cut, or released by its ticket: the ticket's evidence list refetches
realtime.invalidateOn('video-evidence', videoKeys.ticketEvidenceAll);

/** The camera clips on a ticket (alarm window or AI finding), of the cameras the user may open. */
export function useTicketEvidence(ticketId: number, enabled = true) {
  return useQuery({
    queryKey: videoKeys.ticketEvidence(ticketId),
    queryFn: () => http.get<VideoEvidenceList>('/api/video-evidence/', { query: { ticketId }, toast: false }),
    enabled: enabled && ticketId > 0,
    retry: false,
  });
}

/** The cameras to open for an event on a device: itself when a camera, those mapped to it or to its site. */
export const fetchEventCameras = (deviceId: number) =>
  http.get<EventCameras>('/api/video-evidence/cameras/', { query: { deviceId }, toast: false });

export const eventCamerasQuery = (deviceId: number) => ({
  queryKey: videoKeys.eventCameras(deviceId),
  queryFn: () => fetchEventCameras(deviceId),
  staleTime: 60_000,
});
