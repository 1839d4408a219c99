import { useSearchParams } from 'react-router';
import { useDataBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { CameraPanel } from './components/CameraPanel';
import { DataBoardCharts } from './components/DataBoardCharts';
import { BoardHeader } from './components/DataBoardHeader';
import { DataBoardKpis } from './components/DataBoardKpis';
import { FboxStatusGrid } from './components/FboxStatusGrid';
import { RevenuePanel } from './components/RevenuePanel';
import styles from './DataBoardPage.module.css';

const DataBoardView = ({ address }: { address: BoardAddress }) => {
  const board = useDataBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => (
        <div className={styles.layout}>
          <BoardHeader data={data} stale={board.isError} />
          <DataBoardKpis data={data} />
          <DataBoardCharts data={data} />
          <div className={styles.side}>
            {data.revenue && (
              <RevenuePanel revenue={data.revenue} wholeMine={data.board.fbox_ids.length === 0} />
            )}
            {data.camera && (
              <CameraPanel
                camera={data.camera}
                areaId={data.board.area_id}
                kiosk={address.kiosk ?? null}
                className={styles.camera}
              />
            )}
            <FboxStatusGrid fboxes={data.fboxes} />
          </div>
        </div>
      )}
    </BoardGate>
  );
};

/**
 * A data board (/dataBoard?id=…&area_id=…), full-screen for a control room's wall: the figures of
 * the FBOXes it covers, kept current by the mine's live feed.
 */
export const DataBoardPage = () => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <DataBoardView address={address} />
    </BoardScreen>
  );
};
