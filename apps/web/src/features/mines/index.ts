export {
  areaKeys,
  areaListQuery,
  fetchAreas,
  useAreaList,
  useCreateArea,
  useSelectedArea,
} from './api';
