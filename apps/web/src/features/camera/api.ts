import { cameraEndpoints, type EndpointBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { i18n, languageStore } from '../../lib/i18n';
import { langHeader } from '../../lib/language';
import { getToken } from '../../lib/session';

const quiet = { silent: true } as const;
/** How often the cameras' status is read again while the page is open. */
const statusRefreshMs = 30_000;

/** What the gallery shows: one camera or all of the FBOX's, a time range, a page. */
export interface ImageFilter {
  cameraId?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  page: number;
  limit: number;
}

/** Query keys of the cameras; writes invalidate `all`, a new snapshot only the images. */
export const cameraKeys = {
  all: ['camera'] as const,
  status: (areaId: number, fboxId: number) => [...cameraKeys.all, 'status', areaId, fboxId] as const,
  images: (areaId: number, fboxId: number, filter: ImageFilter) =>
    [...cameraKeys.all, 'images', areaId, fboxId, filter] as const,
  image: (areaId: number, id: number) => [...cameraKeys.all, 'image', areaId, id] as const,
  settings: (areaId: number) => [...cameraKeys.all, 'settings', areaId] as const,
  mine: (areaId: number) => [...cameraKeys.all, 'mine', areaId] as const,
};

/** Every camera of the mine's FBOXes (a board's camera tile picks one). */
export const useMineCameras = (enabled = true) => {
  const scope = areaScope();
  return useQuery({
    queryKey: cameraKeys.mine(scope.area_id),
    queryFn: () => call('cameraList', scope, quiet),
    enabled,
  });
};

/** Each camera of an FBOX with its status on the media server; read again every 30 s. */
export const useCameraStatus = (fboxId: number) => {
  const scope = areaScope();
  return useQuery({
    queryKey: cameraKeys.status(scope.area_id, fboxId),
    queryFn: () => call('cameraStatus', { ...scope, fbox_id: fboxId }, quiet),
    refetchInterval: statusRefreshMs,
  });
};

/** One page of an FBOX's snapshots, newest first. */
export const useCameraImages = (fboxId: number, filter: ImageFilter, enabled = true) => {
  const scope = areaScope();
  return useQuery({
    queryKey: cameraKeys.images(scope.area_id, fboxId, filter),
    queryFn: () =>
      call(
        'cameraImages',
        {
          ...scope,
          fbox_id: fboxId,
          camera_id: filter.cameraId,
          from: filter.from,
          to: filter.to,
          page: filter.page,
          limit: filter.limit,
        },
        quiet,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: statusRefreshMs * 2,
    enabled,
  });
};

export const useCameraSettings = (enabled: boolean) => {
  const scope = areaScope();
  return useQuery({
    queryKey: cameraKeys.settings(scope.area_id),
    queryFn: () => call('cameraSettings', scope, quiet),
    enabled,
  });
};

export const useSaveCamera = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'cameraSave'>, 'area_id'>) =>
      call('cameraSave', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cameraKeys.all }),
  });
};

export const useDeleteCamera = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('cameraDelete', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cameraKeys.all }),
  });
};

export const useSaveCameraSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'cameraSettingsSave'>, 'area_id'>) =>
      call('cameraSettingsSave', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cameraKeys.all }),
  });
};

/**
 * A captured JPEG as a blob. An `<img src>` cannot carry the `logintoken` header, so the image is
 * fetched here with the session's headers; a JSON answer is the envelope of a refusal.
 */
export const fetchCameraImage = async (areaId: number, id: number): Promise<Blob> => {
  const query = new URLSearchParams({ output: 'json', area_id: String(areaId), id: String(id) });
  const headers: Record<string, string> = { lang: langHeader(languageStore.get()) };
  const token = getToken();
  if (token) headers.logintoken = token;
  const response = await fetch(`${cameraEndpoints.cameraImage.path}?${query}`, { headers });
  if (!response.ok) throw new ApiError(i18n.t('common.request.http', { status: response.status }), 'http');
  if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
    const envelope = (await response.json()) as { code?: number; msg?: string };
    throw new ApiError(envelope.msg ?? '', 'business', envelope.code);
  }
  return response.blob();
};

/**
 * An object URL of a captured image for `<img src>`: fetched once per image (cached by the query
 * client), the URL revoked when the image changes or the component goes. The image is read in the
 * selected mine unless `area` names another (a board names its own mine).
 */
export const useCameraImageUrl = (id: number | null, area?: number) => {
  const areaId = area ?? areaScope().area_id;
  const blob = useQuery({
    queryKey: cameraKeys.image(areaId, id ?? 0),
    queryFn: () => fetchCameraImage(areaId, id ?? 0),
    enabled: id !== null,
    // A snapshot never changes.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob.data]);
  return { url, isError: blob.isError, isPending: id !== null && (blob.isPending || (!!blob.data && !url)) };
};
