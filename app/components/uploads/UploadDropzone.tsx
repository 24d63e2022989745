import type React from "react";

export interface UploadDropzoneProps {
  groupId: string;
  canUpload: boolean;
  onUploaded: (assetId: string) => void;
  children: React.ReactNode;
}

/** Drop target and file picker for a group's contents (issue 5 uploads). */
export function UploadDropzone({ children }: UploadDropzoneProps) {
  return <div>{children}</div>;
}

export default UploadDropzone;
