import type { DiagnosticRunInput } from '@sitewatch/contracts';
import type { Emit } from './probes.ts';
import type { OpsDeviceRow } from './repository.ts';

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The simulator's answer to a diagnostic on a device of a simulated network (the demo): lines shaped like the real
 * tools' output, derived from the device (an offline device does not answer). No packet is sent.
 */
export async function simulatedProbe(
  device: Pick<OpsDeviceRow, 'id' | 'label' | 'type' | 'status'>,
  input: Pick<DiagnosticRunInput, 'tool' | 'port' | 'oid'>,
  target: string,
  emit: Emit,
  signal: AbortSignal,
): Promise<boolean> {
  const up = device.status !== 'Offline';
  const rtt = (n: number) => (1.5 + ((device.id * 7 + n * 13) % 40) / 10).toFixed(3);
  emit('(simulated network: the demo simulator answers for this device; nothing is sent)');
  if (input.tool === 'ping') {
    emit(`PING ${target} 56(84) bytes of data.`);
    for (let n = 1; n <= 4 && !signal.aborted; n++) {
      await wait(150, signal);
      emit(
        up
          ? `64 bytes from ${target}: icmp_seq=${n} ttl=63 time=${rtt(n)} ms`
          : `From ${target} icmp_seq=${n} Destination Host Unreachable`,
      );
    }
    emit(`4 packets transmitted, ${up ? 4 : 0} received, ${up ? 0 : 100}% packet loss`);
    return up;
  }
  if (input.tool === 'tcp') {
    await wait(100, signal);
    emit(up ? `connected to ${target} in ${rtt(1)} ms` : `connect to ${target}: timed out`);
    return up;
  }
  if (input.tool === 'snmp') {
    await wait(100, signal);
    if (!up) {
      emit('no answer (timeout)');
      return false;
    }
    emit(`${input.oid ?? '1.3.6.1.2.1.1.1.0'} = OctetString: Sitewatch demo ${device.type} ${device.label}`);
    return true;
  }
  if (input.tool === 'rtsp') {
    await wait(200, signal);
    if (!up) {
      emit('stream failure: the camera does not answer');
      return false;
    }
    emit('video: h264 1280x720 15 fps (simulated source)');
    return true;
  }
  return false;
}
