import { useEffect, useState } from 'react';
import { useStore } from '../lib/store';
import { formatTime, timeZoneStore } from '../lib/time';
import styles from './Layout.module.css';

/** The current time in the user's time zone, ticking every second. */
export const LiveClock = () => {
  const zone = useStore(timeZoneStore);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <span className={styles.clock} data-testid="live-clock">
      {formatTime(now, zone)}
    </span>
  );
};
