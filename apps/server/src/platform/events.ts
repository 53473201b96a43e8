import { EventEmitter } from 'node:events';

/** A domain event: what happened, to which tenant, and for whom it matters. */
export interface DomainEvent<T = unknown> {
  type: string;
  tenantId: number;
  /** Users the event concerns; empty means everyone of the tenant allowed to see its subject. */
  userIds?: number[];
  payload: T;
}

export interface EventBus {
  emit(event: DomainEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
}

/** In-process bus that services emit to; push and notifications subscribe. */
export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit(event: DomainEvent) {
      emitter.emit('event', event);
    },
    subscribe(listener: (event: DomainEvent) => void) {
      emitter.on('event', listener);
      return () => {
        emitter.off('event', listener);
      };
    },
  };
}
