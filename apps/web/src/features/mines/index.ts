export {
  areaKeys,
  areaListQuery,
  chosenAreaId,
  fetchAreas,
  useAreaList,
  useCreateArea,
  useSelectedArea,
} from './api';
