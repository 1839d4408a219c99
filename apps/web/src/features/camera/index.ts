/** What other parts of the app use from the camera feature: the FBOX page's section, a snapshot, the mine's cameras. */
export { cameraKeys, useMineCameras } from './api';
export { CameraImage } from './CameraImage';
export { CamerasSection } from './CamerasSection';
