import type { ReactNode } from 'react';
import styles from './BoardTile.module.css';

/**
 * One figure of a board (data board KPIs, big screen totals): its label, value and a note; `big`
 * for a headline row read from the back of the room.
 */
export const BoardTile = ({
  label,
  note,
  testId,
  big = false,
  children,
}: {
  label: string;
  note?: ReactNode;
  testId: string;
  big?: boolean;
  children: ReactNode;
}) => (
  <section className={`${styles.tile} ${big ? styles.big : ''}`} data-testid={testId}>
    <div className={styles.label}>{label}</div>
    <div className={styles.value}>{children}</div>
    {note && <div className={styles.note}>{note}</div>}
  </section>
);
