/** What other parts of the app use from the camera feature: the FBOX page's section and a board tile. */
export { cameraKeys } from './api';
export { CamerasSection } from './CamerasSection';
export { CameraTile } from './CameraTile';
