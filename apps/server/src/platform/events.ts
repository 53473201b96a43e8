import { EventEmitter } from 'node:events';
import type { DomainEvent, DomainEventType } from '@sitewatch/contracts';

export type { DomainEvent, DomainEventMap, DomainEventType } from '@sitewatch/contracts';

/** An event as it travels between processes and to sockets: the push side does not look into payloads. */
export interface WireEvent {
  type: string;
  tenantId: number;
  userIds?: number[];
  payload: unknown;
}

/** In-process bus that services emit to; push and notifications subscribe. Typed by the contracts' event map. */
export interface EventBus {
  emit<K extends DomainEventType>(event: DomainEvent<K>): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit(event) {
      emitter.emit('event', event);
    },
    subscribe(listener) {
      emitter.on('event', listener);
      return () => {
        emitter.off('event', listener);
      };
    },
  };
}
