import { Spin } from 'antd';
import { lazy, Suspense } from 'react';

// antd's Result carries its 403/404/500 illustrations (10 KiB gzip): loaded only when a page has
// to say that something is missing, not with every page (issue 8).
const Result = lazy(() => import('antd/es/result'));

/** "This page (or form) does not exist", with the reason. */
export function MissingNotice({ title, detail }: { title: string; detail: string }) {
  return (
    <Suspense fallback={<Spin />}>
      <Result status="warning" title={title} subTitle={detail} />
    </Suspense>
  );
}
