import { COMMAND_PERMISSION } from '@sitewatch/contracts/commands';
import { useState } from 'react';
import { detailOf, isHttpError } from '../../lib/http.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useDeviceCommand } from './api.ts';

export interface CommandOf {
  /** Which chip shows the command's state (a door, an output, a router). */
  key: string;
  deviceId: number;
  method: string;
  params: unknown;
}

/**
 * "Confirm, then send a command": `ask(subject)` opens the confirmation, `dialog` goes to the ConfirmDialog, and
 * `stateOf(key)` is the state of the last command sent for that key. `allowed`: whether the user may send commands.
 */
export function useConfirmedCommand<T>(commandOf: (subject: T) => CommandOf) {
  const allowed = permissionsOf(useUser()).has(COMMAND_PERMISSION);
  const { send, stateOf } = useDeviceCommand();
  const [asking, setAsking] = useState<T | null>(null);
  const [sent, setSent] = useState<Record<string, number>>({});

  const confirm = () => {
    if (asking === null) return;
    const { key, ...body } = commandOf(asking);
    send.mutate(body, {
      onSuccess: (command) => {
        setSent((s) => ({ ...s, [key]: command.id }));
        toast.success(command.state === 'queued' ? 'Command queued until the device connects' : 'Command sent');
        setAsking(null);
      },
      onError: (error) => {
        toast.error(isHttpError(error) ? (detailOf(error.data) ?? 'Command not sent') : 'Command not sent');
        setAsking(null);
      },
    });
  };

  return {
    allowed,
    asking,
    ask: setAsking,
    stateOf: (key: string) => stateOf(sent[key]),
    dialog: { open: asking !== null, busy: send.isPending, onConfirm: confirm, onClose: () => setAsking(null) },
  };
}
