/**
 * What the collector knows of each make of switched rack PDU: where its outlet table sits in its
 * MIB and what the numbers there mean. Every OID is a table column; the outlet's number on that
 * PDU (1, 2 …) is appended as the row index. To support another make (Raritan PDU2-MIB,
 * ServerTech Sentry4-MIB …) add one entry here, written from that vendor's MIB.
 */

/** What an outlet reads as; `unknown` when the PDU did not say (no answer, no such row). */
export type OutletState = 'on' | 'off' | 'unknown';

/** What can be asked of an outlet. */
export type OutletAction = 'on' | 'off' | 'reboot';

export interface PduVendor {
  /** For messages: "APC switched rack PDU". */
  readonly label: string;
  /** The outlet's state, read-only. */
  readonly stateOid: string;
  /** The outlet's name as set on the PDU, read-only. */
  readonly nameOid: string;
  /** Written with one of `commands` to switch the outlet. */
  readonly commandOid: string;
  /** INTEGER values written to `commandOid`. */
  readonly commands: Readonly<Record<OutletAction, number>>;
  /** The value read from `stateOid`, in our words. */
  stateOf(value: number): OutletState;
}

/**
 * APC Switched Rack PDU (AP79xx, AP86xx …), PowerNet-MIB `rPDUOutlet` group under
 * 1.3.6.1.4.1.318.1.1.12.3:
 * - `rPDUOutletStatusOutletState` (…3.5.1.1.4): outletStatusOn(1), outletStatusOff(2);
 * - `rPDUOutletStatusOutletName` (…3.5.1.1.2);
 * - `rPDUOutletControlOutletCommand` (…3.3.1.1.4), read-write: immediateOn(1), immediateOff(2),
 *   immediateReboot(3) (delayedOn(4) … cancelPendingCommand(7) are not used: the FBOX does its
 *   own delays).
 * The newer rPDU2 tree (…1.1.26) numbers its states the other way round (off 1, on 2); it would
 * be an entry of its own.
 */
const apc: PduVendor = {
  label: 'APC switched rack PDU',
  stateOid: '1.3.6.1.4.1.318.1.1.12.3.5.1.1.4',
  nameOid: '1.3.6.1.4.1.318.1.1.12.3.5.1.1.2',
  commandOid: '1.3.6.1.4.1.318.1.1.12.3.3.1.1.4',
  commands: { on: 1, off: 2, reboot: 3 },
  stateOf: (value) => (value === 1 ? 'on' : value === 2 ? 'off' : 'unknown'),
};

export const PDU_VENDORS = { apc } as const satisfies Record<string, PduVendor>;

export type PduVendorName = keyof typeof PDU_VENDORS;

export const pduVendorNames = Object.keys(PDU_VENDORS) as [PduVendorName, ...PduVendorName[]];
