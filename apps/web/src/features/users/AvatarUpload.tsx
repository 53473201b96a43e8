import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@sitewatch/contracts/user-admin';
import { USER_ADMIN_MESSAGES } from '@sitewatch/contracts/user-admin';
import type { ChangeEvent } from 'react';
import { showToast } from '../../lib/toasts.ts';
import { useUploadAvatar } from './api.ts';

const MAX_BYTES = 1024 * 1024;

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** The user's picture: PNG, JPEG, GIF or WebP up to 1 MB (the server checks the content, not the name). */
export function AvatarUpload({ user }: { user: AdminUser }) {
  const upload = useUploadAvatar(user.id);
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_BYTES) {
      showToast('error', 'Please Select Attatchment Size less Than 1 MB');
      return;
    }
    upload.mutate(await readDataUrl(file), {
      onSuccess: () => showToast('success', USER_ADMIN_MESSAGES.updated),
      onError: () => showToast('error', USER_ADMIN_MESSAGES.imageFailed),
    });
  };
  const avatar = typeof user.profile.avatar === 'string' ? user.profile.avatar : undefined;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
      <Avatar src={avatar} alt="" sx={{ width: 64, height: 64 }}>
        {user.firstname.slice(0, 1)}
      </Avatar>
      <Box>
        <Button component="label" variant="outlined" size="small" disabled={upload.isPending}>
          Change picture
          <input hidden type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={onFile} />
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          PNG, JPEG, GIF or WebP, up to 1 MB
        </Typography>
      </Box>
    </Box>
  );
}
