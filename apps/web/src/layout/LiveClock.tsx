import { useEffect, useState } from 'react';
import { useStore } from '../lib/store';
import { formatTime, timeZoneStore } from '../lib/time';
import styles from './Layout.module.css';

/** The current time in the user's time zone, ticking every second (the top bar's, and the boards'). */
export const LiveClock = ({
  className = styles.clock,
  testId = 'live-clock',
}: {
  className?: string;
  testId?: string;
}) => {
  const zone = useStore(timeZoneStore);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <span className={className} data-testid={testId}>
      {formatTime(now, zone)}
    </span>
  );
};
