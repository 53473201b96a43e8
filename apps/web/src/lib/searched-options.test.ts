import { describe, expect, it } from 'vitest';
import { offeredOptions, searchAfter } from './searched-options.ts';

type Device = { deviceId: number; label: string; site: string };
const same = (a: Device, b: Device) => a.deviceId === b.deviceId;
const label = (d: Device) => `${d.label} · ${d.site}`;

const routerA: Device = { deviceId: 1, label: 'RTR-01', site: 'Alpha Mall' };
const cameraA: Device = { deviceId: 2, label: 'CAM-01', site: 'Alpha Mall' };
const routerB: Device = { deviceId: 7, label: 'RTR-01', site: 'Beta Depot' };
const upsB: Device = { deviceId: 8, label: 'UPS-01', site: 'Beta Depot' };

/**
 * The picker as the Diagnostics screen wires it: the field's text, the text searched, the option chosen, and the
 * list in hand with the search it answers (a list kept from an older search while a newer one is under way, as a
 * query with placeholder data keeps it).
 */
function picker() {
  const state = {
    input: '',
    typed: '',
    chosen: null as Device | null,
    list: undefined as Device[] | undefined,
    listAnswers: null as string | null,
  };
  const offered = () => offeredOptions({ typed: state.typed, searched: state.listAnswers, list: state.list, chosen: state.chosen, same });
  return {
    state,
    offered,
    type(text: string) {
      state.input = text;
      state.typed = searchAfter(state.typed, text, 'input');
    },
    /** An answer arrives: it is the list in hand (the newest request's answer replaces an older one's). */
    answer(search: string, list: Device[]) {
      state.list = list;
      state.listAnswers = search;
    },
    /** A search starts: the list in hand is kept, but it answers an older search. */
    searching() {
      state.listAnswers = null;
    },
    choose(option: Device) {
      if (!offered().options.includes(option)) throw new Error(`${label(option)} is not offered`);
      state.chosen = option;
      state.input = label(option);
      state.typed = searchAfter(state.typed, label(option), 'selectOption');
    },
  };
}

describe('a server-searched picker', () => {
  it('does not offer the list of an older search while the text typed is searched', () => {
    const p = picker();
    p.answer('', [routerA, cameraA]);
    expect(p.offered()).toEqual({ options: [routerA, cameraA], pending: false });
    // the site's name is typed: the unfiltered list still in hand has an RTR-01 too, of another site
    p.type('Beta Depot');
    expect(p.offered()).toEqual({ options: [], pending: true });
    p.searching();
    expect(p.offered().options).toEqual([]);
    p.answer('Beta Depot', [routerB, upsB]);
    expect(p.offered()).toEqual({ options: [routerB, upsB], pending: false });
  });

  it('keeps the chosen device when an answer of an outdated search arrives after the choice', () => {
    const p = picker();
    p.answer('', [routerA, cameraA]);
    p.type('Beta');
    p.searching();
    p.type('Beta Depot');
    p.answer('Beta Depot', [routerB, upsB]);
    p.choose(routerB);
    expect(p.state.input).toBe('RTR-01 · Beta Depot');
    // choosing does not search for the option's label
    expect(p.state.typed).toBe('Beta Depot');
    // the slow answer to "Beta" arrives last: it answers no text in the field, and the choice stands
    p.answer('Beta', [upsB]);
    expect(p.state.chosen).toBe(routerB);
    expect(p.offered()).toEqual({ options: [routerB], pending: true });
    // a fresh answer without the chosen device (its status changed meanwhile) still offers it
    p.answer('Beta Depot', [upsB]);
    expect(p.offered()).toEqual({ options: [routerB, upsB], pending: false });
    expect(p.state.chosen).toBe(routerB);
  });

  it('searches what the user types, and an emptied field searches everything again', () => {
    expect(searchAfter('Beta', 'Beta D', 'input')).toBe('Beta D');
    expect(searchAfter('Beta', 'RTR-01 · Beta Depot', 'selectOption')).toBe('Beta');
    expect(searchAfter('Beta', 'RTR-01 · Beta Depot', 'reset')).toBe('Beta');
    expect(searchAfter('Beta', 'RTR-01 · Beta Depot', 'blur')).toBe('Beta');
    expect(searchAfter('Beta', '', 'clear')).toBe('');
    expect(searchAfter('Beta', '', 'blur')).toBe('');
  });
});
