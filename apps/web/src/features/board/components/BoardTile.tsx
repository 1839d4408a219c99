import type { ReactNode } from 'react';
import styles from './BoardTile.module.css';

/** One figure of a board (data board KPIs, big screen totals): its label, value and a note. */
export const BoardTile = ({
  label,
  note,
  testId,
  children,
}: {
  label: string;
  note?: string;
  testId: string;
  children: ReactNode;
}) => (
  <section className={styles.tile} data-testid={testId}>
    <div className={styles.label}>{label}</div>
    <div className={styles.value}>{children}</div>
    {note && <div className={styles.note}>{note}</div>}
  </section>
);
