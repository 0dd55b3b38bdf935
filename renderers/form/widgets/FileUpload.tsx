import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useFileUrls } from '../../data/fileUrls';
import { useRenderer } from '../../services';
import { expectedFailures } from '../../runtime/errorReporter';

export interface FileUploadProps {
  /** The uploaded file's url (one file) or urls (`multiple`). */
  value?: string | string[] | null;
  onChange?: (value: string | string[] | undefined) => void;
  operation?: string;
  accept?: string;
  multiple?: boolean;
  maxCount?: number;
  /** Refuses files whose type is not listed, with this message. */
  allowedTypes?: string[];
  typeMessage?: string;
  disabled?: boolean;
  listType?: 'text' | 'picture' | 'picture-card';
}

function urlOf(result: unknown): string {
  if (typeof result === 'string') return result;
  const record = result as { url?: string; fileUrl?: string } | null;
  return record?.url ?? record?.fileUrl ?? '';
}

/** Uploads through `system/file/upload` (multipart field `file`) and keeps the file url as the value. */
export function FileUpload({ value, onChange, operation = 'system.file.upload', accept, multiple, maxCount, allowedTypes, typeMessage, disabled, listType = 'text' }: FileUploadProps) {
  const { data, notify, files } = useRenderer();
  const urls = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  // The files are opened at the session's urls for them (renderers/data/fileUrls.ts).
  const openUrlOf = useFileUrls(files, urls);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const fileList: UploadFile[] = [
    ...urls.map((url, index) => ({ uid: `done-${index}`, name: url.split('/').pop() ?? url, status: 'done' as const, url: openUrlOf(url) })),
    ...pending,
  ];
  const emit = (next: string[]) => onChange?.(multiple ? next : next[0]);
  return (
    <Upload
      accept={accept}
      multiple={multiple}
      maxCount={maxCount ?? (multiple ? undefined : 1)}
      disabled={disabled}
      listType={listType}
      fileList={fileList}
      showUploadList={{ showRemoveIcon: !disabled }}
      beforeUpload={(file) => {
        if (allowedTypes && !allowedTypes.includes(file.type)) {
          notify.error(typeMessage ?? '文件类型不正确');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file, onProgress, onSuccess, onError }) => {
        const blob = file as File;
        const uid = (file as UploadFile).uid ?? blob.name;
        setPending((list) => [...list, { uid, name: blob.name, status: 'uploading', percent: 0 }]);
        data
          .upload(operation, blob, blob.name, {
            onProgress: (fraction) => {
              const percent = Math.round((fraction ?? 0) * 100);
              onProgress?.({ percent });
              setPending((list) => list.map((f) => (f.uid === uid ? { ...f, percent } : f)));
            },
          })
          .then((result) => {
            setPending((list) => list.filter((f) => f.uid !== uid));
            emit(multiple ? [...urls, urlOf(result)] : [urlOf(result)]);
            onSuccess?.(result);
          })
          .catch((error: Error) => {
            setPending((list) => list.map((f) => (f.uid === uid ? { ...f, status: 'error' } : f)));
            onError?.(error);
            expectedFailures('上传')(error);
          });
      }}
      onRemove={(file) => {
        if (file.uid.startsWith('done-')) emit(urls.filter((_url, index) => `done-${index}` !== file.uid));
        else setPending((list) => list.filter((f) => f.uid !== file.uid));
      }}
    >
      {/* Read-only (disabled, or a read-pretty form): the files, without a way to add one. */}
      {disabled ? null : listType === 'picture-card' ? <div>上传</div> : <Button icon={<UploadOutlined />}>选择文件</Button>}
    </Upload>
  );
}
