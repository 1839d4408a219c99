import { getSelectedAreaId } from './session';

/** The `area_id` every device call names (DESIGN §5): the selected mine. */
export const areaScope = (): { area_id: number } => ({ area_id: getSelectedAreaId() ?? 0 });
